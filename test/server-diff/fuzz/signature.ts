/**
 * How `npm run fuzz:server` groups differences: a signature of the request's shape (method, path with names
 * masked, patch type, query parameter names), the two statuses and the first field where the answers differ,
 * so that many differences of one cause show as one line.
 */
import type { HttpStep, StepResult } from "../runner.js";

/** The path with object and CRD names masked and the query reduced to its sorted parameter names. */
export function pathShape(path: string): string {
  const [p = "", q] = path.split("?", 2);
  const segs = p.split("/");
  const out: string[] = [];
  for (let i = 0; i < segs.length; i++) {
    const prev = segs[i - 1] ?? "";
    if (i > 0 && (prev === "customresourcedefinitions" || ["widgets", "gadgets"].includes(prev))) out.push("{name}");
    else out.push(segs[i]!);
  }
  const keys = q ? [...new Set(q.split("&").map((kv) => kv.split("=")[0]!))].sort() : [];
  return out.join("/") + (keys.length ? `?${keys.join(",")}` : "");
}

/** The first path (`status`, `headers.warning`, `body.details.causes[0].message`, …) where two values differ. */
export function firstDifference(a: unknown, b: unknown, at = ""): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined;
  const isObj = (v: unknown) => v !== null && typeof v === "object";
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (d !== undefined) return d;
    }
    return at;
  }
  if (isObj(a) && isObj(b) && !Array.isArray(a) && !Array.isArray(b)) {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(x), ...Object.keys(y)])];
    // Status and headers first: they say most about a difference.
    keys.sort((k, l) => rank(k) - rank(l) || (k < l ? -1 : k > l ? 1 : 0));
    for (const k of keys) {
      const d = firstDifference(x[k], y[k], at ? `${at}.${k}` : k);
      if (d !== undefined) return d;
    }
    return at;
  }
  return at;
}

function rank(k: string): number {
  return k === "status" || k === "code" ? 0 : k === "headers" ? 1 : k === "reason" ? 2 : k === "message" ? 3 : 4;
}

function status(r: StepResult | undefined): string {
  if (r === undefined) return "none";
  return "status" in r ? String(r.status) : `exit ${r.code}`;
}

/** `PATCH /apis/fz.example.com/v1/namespaces/default/widgets/{name}?fieldManager [merge-patch] 200/422 body.message`. */
export function signature(req: HttpStep, want: StepResult | undefined, got: StepResult | undefined): string {
  const ct = req.method === "PATCH" && req.contentType ? ` [${req.contentType.replace(/^application\//, "").replace(/\+json|\+yaml/, "")}]` : "";
  const { step: _a, ...w } = (want ?? {}) as Record<string, unknown>;
  const { step: _b, ...g } = (got ?? {}) as Record<string, unknown>;
  // Array indices vary with the case: group by the field name.
  const field = (firstDifference(w, g) ?? "").replace(/\[\d+\]/g, "[]");
  return `${req.method} ${pathShape(req.path)}${ct} ${status(want)}/${status(got)} ${field}`;
}
