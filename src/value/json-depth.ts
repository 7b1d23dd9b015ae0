/** Nesting depth of JSON values without recursion (safe on values of any depth). */
import { Float64, type JsonValue } from "./json-value.js";

/**
 * Whether `v` nests containers more than `limit` deep (`{}` and `[]` count 1, scalars 0). Iterative,
 * stops at the first path deeper than the limit; shared subtrees (YAML aliases) are walked once per
 * depth they are reached at.
 */
export function depthExceeds(v: JsonValue | undefined, limit: number): boolean {
  if (typeof v !== "object" || v === null) return false;
  const stack: [object, number][] = [[v, 1]];
  const seenAt = new Map<object, number>();
  while (stack.length > 0) {
    const [node, d] = stack.pop()!;
    if (d > limit) return true;
    const seen = seenAt.get(node);
    if (seen !== undefined && seen >= d) continue;
    seenAt.set(node, d);
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const c of children) if (typeof c === "object" && c !== null && !(c instanceof Float64)) stack.push([c, d + 1]);
  }
  return false;
}
