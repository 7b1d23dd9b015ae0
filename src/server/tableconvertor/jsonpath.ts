/**
 * The subset of client-go JSONPath used by printer columns, selectable fields and scale paths:
 * `.a.b`, `.a[0]`, `.a[-1]`, `.a[*]`, `.a['key.with.dots']`, `.a["k"]`, `..`-free filters
 * `[?(@.type=="Ready")]` (`==`, `!=`), returning every match (missing keys are skipped).
 */
import { isObject, type JsonValue } from "../../value/json-value.js";

type Step =
  | { kind: "field"; name: string }
  | { kind: "index"; index: number }
  | { kind: "wildcard" }
  | { kind: "filter"; path: string[]; op: "==" | "!="; value: string | number | boolean };

/** A compiled path; `undefined` from {@link compileJsonPath} means unsupported syntax. */
export type CompiledPath = Step[];

function parseLiteral(s: string): string | number | boolean | undefined {
  const t = s.trim();
  if (/^'.*'$/.test(t) || /^".*"$/.test(t)) return t.slice(1, -1);
  if (t === "true") return true;
  if (t === "false") return false;
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  return undefined;
}

/** Compiles `{.spec.x}` or `.spec.x`; returns undefined for syntax it does not support. */
export function compileJsonPath(text: string): CompiledPath | undefined {
  let s = text.trim();
  if (s.startsWith("{") && s.endsWith("}")) s = s.slice(1, -1).trim();
  if (s.startsWith("$")) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === ".") {
      if (s[i + 1] === ".") return undefined;
      let j = i + 1;
      while (j < s.length && s[j] !== "." && s[j] !== "[") j++;
      const name = s.slice(i + 1, j);
      if (name === "") return undefined;
      steps.push(name === "*" ? { kind: "wildcard" } : { kind: "field", name });
      i = j;
    } else if (c === "[") {
      const end = s.indexOf("]", i);
      if (end < 0) return undefined;
      const inner = s.slice(i + 1, end).trim();
      if (inner === "*") steps.push({ kind: "wildcard" });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: "index", index: Number(inner) });
      else if (/^'[^']*'$/.test(inner) || /^"[^"]*"$/.test(inner)) steps.push({ kind: "field", name: inner.slice(1, -1) });
      else {
        const m = /^\?\(@((?:\.[^.=!\s]+)+)\s*(==|!=)\s*(.+)\)$/.exec(inner);
        if (!m) return undefined;
        const value = parseLiteral(m[3]!);
        if (value === undefined) return undefined;
        steps.push({ kind: "filter", path: m[1]!.slice(1).split("."), op: m[2] as "==" | "!=", value });
      }
      i = end + 1;
    } else return undefined;
  }
  return steps;
}

function getPath(v: JsonValue, path: string[]): JsonValue | undefined {
  let cur: JsonValue | undefined = v;
  for (const p of path) {
    if (!isObject(cur) || !Object.hasOwn(cur, p)) return undefined;
    cur = cur[p];
  }
  return cur;
}

/** Every value the path selects in `root`. */
export function evalJsonPath(path: CompiledPath, root: JsonValue): JsonValue[] {
  let cur: JsonValue[] = [root];
  for (const step of path) {
    const next: JsonValue[] = [];
    for (const v of cur) {
      if (step.kind === "field") {
        if (isObject(v) && Object.hasOwn(v, step.name)) next.push(v[step.name]!);
      } else if (step.kind === "index") {
        if (Array.isArray(v)) {
          const idx = step.index < 0 ? v.length + step.index : step.index;
          if (idx >= 0 && idx < v.length) next.push(v[idx]!);
        }
      } else if (step.kind === "wildcard") {
        if (Array.isArray(v)) next.push(...v);
        else if (isObject(v)) next.push(...Object.values(v));
      } else if (Array.isArray(v)) {
        for (const el of v) {
          const got = getPath(el, step.path);
          const eq = got === step.value;
          if (got !== undefined && (step.op === "==" ? eq : !eq)) next.push(el);
        }
      }
    }
    cur = next;
  }
  return cur;
}
