/**
 * Whether a resource answer goes out as YAML: the API server negotiates the response serializer from the
 * Accept header (goautoneg: clauses by quality, then specificity, in order) among JSON, YAML and
 * protobuf; the first clause that names YAML before any naming JSON (or a wildcard) selects YAML.
 * Clauses with conversions (`as=Table`…) or streams are left to the JSON path.
 */
interface Clause {
  type: string;
  subType: string;
  q: number;
  params: number;
  convert: boolean;
}

function parse(header: string): Clause[] {
  const out: Clause[] = [];
  for (const raw of header.split(",")) {
    const [range = "", ...paramParts] = raw.trim().split(";");
    const [type = "", subType = ""] = range.trim().split("/").map((x) => x.trim());
    if (type === "" || (subType === "" && type !== "*")) continue;
    let q = 1;
    let params = 0;
    let convert = false;
    for (const p of paramParts) {
      const [k = "", v = ""] = p.split("=").map((x) => x.trim());
      if (k === "q") q = Number.parseFloat(v) || 0;
      else {
        params++;
        if (k === "as" || k === "stream") convert = true;
      }
    }
    out.push({ type, subType: subType || "*", q, params, convert });
  }
  // goautoneg's order: quality, then specific types before wildcards, then more parameters first.
  return out
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.q - a.c.q || spec(b.c) - spec(a.c) || b.c.params - a.c.params || a.i - b.i)
    .map((x) => x.c);
}

function spec(c: Clause): number {
  return (c.type === "*" ? 0 : 2) + (c.subType === "*" ? 0 : 1);
}

/** True when the Accept header selects `application/yaml` for a resource answer. */
export function wantsYaml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  for (const c of parse(accept)) {
    if (c.q <= 0) continue;
    const app = c.type === "application" || c.type === "*";
    if (!app) continue;
    if (c.subType === "yaml" && c.type === "application") return !c.convert;
    if (c.subType === "json" || c.subType === "*") return false;
  }
  return false;
}
