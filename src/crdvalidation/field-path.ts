/**
 * `cel.ValidFieldPath` (`pkg/apiserver/schema/cel/validation.go`): resolves a JSON path such as
 * `.spec.foo['bar.baz']` against a structural schema (fields and map keys only), as used by
 * `x-kubernetes-validations[].fieldPath` and `selectableFields[].jsonPath`.
 */
import { FieldPath } from "../errors/field-path.js";
import type { Structural } from "../structural/structural.js";

/** Tokens of the Go scanner: `.`, `[`, `]`, quoted strings (`'...'`) and identifiers. */
function tokenize(s: string): string[] {
  const toks: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] === "'") {
      let j = i + 1;
      while (j < s.length && !(s[j] === "'" && s[j - 1] !== "\\")) j++;
      if (j >= s.length) {
        toks.push(s.slice(i));
        break;
      }
      toks.push(s.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    const c = s[i]!;
    if (c === "." || c === "[" || c === "]") {
      toks.push(c);
      i++;
      continue;
    }
    let j = i;
    while (j < s.length && s[j] !== "." && s[j] !== "[" && s[j] !== "]") j++;
    toks.push(s.slice(i, j));
    i = j;
  }
  return toks;
}

const ESCAPES: Record<string, string> = { a: "\u0007", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v", "'": "'", "\\": "\\" };

function unescapeSingleQuote(s: string): string | { error: string } {
  let err: string | undefined;
  const out = s.replace(/\\[\s\S]/g, (m) => {
    const r = ESCAPES[m[1]!];
    if (r === undefined) {
      err = `invalid escape char ${m}`;
      return "";
    }
    return r;
  });
  return err !== undefined ? { error: err } : out;
}

export interface FieldPathResult {
  path: FieldPath | null;
  schema: Structural | undefined;
}

/** Resolves `jsonPath`; `{error}` carries Kubernetes' error text. */
export function validFieldPath(jsonPath: string, schema: Structural, allowArrayNotation: boolean): FieldPathResult | { error: string } {
  let path: FieldPath | null = null;
  let cur: Structural | undefined = schema;
  const append = (name: string, named: boolean): string | undefined => {
    if (!named) {
      path = path ? path.key(name) : FieldPath.of("").key(name);
      cur = cur?.additionalProperties?.schema;
      return undefined;
    }
    path = path ? path.child(name) : FieldPath.of(name);
    const next: Structural | undefined = cur?.properties?.get(name);
    if (!next) return "does not refer to a valid field";
    cur = next;
    return undefined;
  };
  const kindOfNext = (): boolean | undefined => (cur?.properties !== undefined ? true : cur?.additionalProperties !== undefined ? false : undefined);
  const toks = tokenize(jsonPath);
  let i = 0;
  while (i < toks.length) {
    const tok = toks[i++]!;
    if (tok === "[") {
      if (!allowArrayNotation) return { error: "array notation is not allowed" };
      if (i >= toks.length) return { error: "unexpected end of JSON path" };
      const q = toks[i++]!;
      if (q.length < 2 || q[0] !== "'" || q[q.length - 1] !== "'") return { error: `expected single quoted string but got ${q}` };
      const un = unescapeSingleQuote(q.slice(1, -1));
      if (typeof un !== "string") return { error: `invalid string literal: ${un.error}` };
      const named = kindOfNext();
      if (named === undefined) return { error: "does not refer to a valid field" };
      const e = append(un, named);
      if (e) return { error: e };
      if (i >= toks.length) return { error: "unexpected end of JSON path" };
      const close = toks[i++]!;
      if (close !== "]") return { error: `expected ] but got ${close}` };
    } else if (tok === ".") {
      if (i >= toks.length) return { error: "unexpected end of JSON path" };
      const name = toks[i++]!;
      const named = kindOfNext();
      if (named === undefined) return { error: "does not refer to a valid field" };
      const e = append(name, named);
      if (e) return { error: e };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return { path, schema: cur };
}

/** Root element name of a resolved path (`metadata` for `.metadata.name`). */
export function rootName(p: FieldPath | null): string {
  if (!p) return "<nil>";
  return p.root().toString();
}
