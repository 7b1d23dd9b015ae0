/**
 * Values as go-yaml v2 decodes them into `interface{}` (before sigs.k8s.io/yaml converts them to JSON):
 * resolved scalars, `[]interface{}` and `map[interface{}]interface{}` whose keys keep their Go types
 * (`1` and `"1"` are different keys), with Go's `%#v` rendering used in error texts.
 */
import { formatGoFloat, goQuote } from "../../go/fmt.js";
import type { GoScalar } from "../go-yaml-resolve.js";

export type GoVal = GoScalar | GoMap | GoVal[];

/** {@link goKeyId} of a NaN key: never equal to any key, itself included (Go's `==`). */
const NAN_ID = "f:NaN";

/**
 * `map[interface{}]interface{}` in insertion order, with Go's key equality: a NaN key is never found (each
 * one is a new entry), `-0` and `0` are one key, and setting a key that is there stores the new key as
 * well as the value (Go's map assignment updates float and interface keys).
 */
export class GoMap {
  readonly keys: GoScalar[] = [];
  readonly vals: GoVal[] = [];
  private readonly index = new Map<string, number>();

  has(id: string): boolean {
    return id !== NAN_ID && this.index.has(id);
  }

  set(id: string, key: GoScalar, val: GoVal): void {
    const i = id === NAN_ID ? undefined : this.index.get(id);
    if (i !== undefined) {
      this.keys[i] = key;
      this.vals[i] = val;
    } else {
      if (id !== NAN_ID) this.index.set(id, this.keys.length);
      this.keys.push(key);
      this.vals.push(val);
    }
  }
}

/** Go identity of a map key (type and value; `-0` is `0`, as Go compares them). */
export function goKeyId(s: GoScalar): string {
  switch (s.t) {
    case "str":
      return "s:" + s.v;
    case "int":
      return "i:" + s.v;
    case "uint":
      return "u:" + s.v;
    case "float":
      return "f:" + s.v;
    case "bool":
      return "b:" + s.v;
    case "merge":
      return "s:<<";
    default:
      return "n:";
  }
}

/** `%#v` of a scalar (`"x"`, `1`, `0x10`, `<nil>`); `inside` a composite, nil is `interface {}(nil)`. */
export function goSharpScalar(s: GoScalar, inside = false): string {
  switch (s.t) {
    case "str":
      return goQuote(s.v);
    case "merge":
      return goQuote("<<");
    case "int":
      return s.v.toString();
    case "uint":
      return "0x" + s.v.toString(16);
    case "float":
      return formatGoFloat(s.v);
    case "bool":
      return String(s.v);
    default:
      return inside ? "interface {}(nil)" : "<nil>";
  }
}

const TYPE_RANK: Record<GoScalar["t"], number> = { null: 0, str: 1, merge: 1, int: 2, uint: 3, float: 4, bool: 5 };

/** fmt's order of `interface{}` map keys: nil first, then by type (as observed: strings, ints, bools), then by value. */
function compareKeys(a: GoScalar, b: GoScalar): number {
  const ra = TYPE_RANK[a.t];
  const rb = TYPE_RANK[b.t];
  if (ra !== rb) return ra - rb;
  const va = "v" in a ? a.v : 0;
  const vb = "v" in b ? b.v : 0;
  return va < vb ? -1 : va > vb ? 1 : 0;
}

/** `%#v` (= `%+#v`) of a decoded value, as fmt prints it (map keys sorted). Iterative: values nest 10000 deep. */
export function goSharp(v: GoVal, inside = false): string {
  const out: string[] = [];
  // work items: text to emit, or a value to render (inside a composite or not)
  const work: (string | [GoVal, boolean])[] = [[v, inside]];
  while (work.length > 0) {
    const w = work.pop()!;
    if (typeof w === "string") {
      out.push(w);
      continue;
    }
    const [x, ins] = w;
    if (Array.isArray(x)) {
      const items: (string | [GoVal, boolean])[] = ["[]interface {}{"];
      x.forEach((y, i) => {
        if (i > 0) items.push(", ");
        items.push([y, true]);
      });
      items.push("}");
      for (let i = items.length - 1; i >= 0; i--) work.push(items[i]!);
    } else if (x instanceof GoMap) {
      const order = x.keys.map((_, i) => i).sort((a, b) => compareKeys(x.keys[a]!, x.keys[b]!));
      const items: (string | [GoVal, boolean])[] = ["map[interface {}]interface {}{"];
      order.forEach((i, n) => {
        items.push(`${n > 0 ? ", " : ""}${goSharpScalar(x.keys[i]!, true)}:`);
        items.push([x.vals[i]!, true]);
      });
      items.push("}");
      for (let i = items.length - 1; i >= 0; i--) work.push(items[i]!);
    } else out.push(goSharpScalar(x, ins));
  }
  return out.join("");
}
