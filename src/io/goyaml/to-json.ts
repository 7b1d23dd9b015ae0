/**
 * sigs.k8s.io/yaml's YAML→JSON step (`convertToJSONableObject`, then `json.Marshal` and the API server's
 * int64/float64 decoding) over a go-yaml value: map keys become strings (ints in decimal, floats as
 * `FormatFloat(f, 'g', -1, 32)`, bools), `uint64` and `nil` keys are refused. Keys that collide after
 * conversion (`1` and `"1"`): the one iterated last wins in Go, in random map order; crdkit takes the one
 * written last, Go's most likely outcome. Iterative, for nesting to 10000 levels.
 */
import { JsonConversionError, floatAfterJsonRoundTrip, uintAfterJsonRoundTrip } from "../../go/json.js";
import { formatGoFloat32 } from "../../go/strconv.js";
import { type JsonObject, type JsonValue, int64, setKey } from "../../value/json-value.js";
import type { GoScalar } from "../go-yaml-resolve.js";
import { GoMap, type GoVal, goSharp, goSharpScalar } from "./go-value.js";

/** A conversion failure, with sigs.k8s.io/yaml's (or encoding/json's) text. */
export class ToJsonError extends Error {}

/** A float encoding/json refuses (NaN, ±Inf): reported after the key conversion, in json.Marshal's order. */
class BadFloat {
  constructor(readonly message: string) {}
}
let badFloats = false;
let collided = false;

/** Whether the last {@link goToJson} met keys that collide after conversion (Go's outcome is then random). */
export function lastConversionCollided(): boolean {
  return collided;
}

/** The first refused float in json.Marshal's order (map keys sorted, depth first). */
function firstBadFloat(root: unknown): string | undefined {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v instanceof BadFloat) return v.message;
    if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    else if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).sort();
      for (let i = keys.length - 1; i >= 0; i--) stack.push(o[keys[i]!]);
    }
  }
  return undefined;
}

/** The JSON value of a scalar; a float encoding/json refuses (NaN, ±Inf) becomes a marker reported by {@link goToJson}. */
export function scalarJson(s: GoScalar): JsonValue {
  switch (s.t) {
    case "null":
      return null;
    case "bool":
      return s.v;
    case "int":
      return int64(s.v);
    case "uint":
      return uintAfterJsonRoundTrip(s.v);
    case "float":
      try {
        return floatAfterJsonRoundTrip(s.v);
      } catch (e) {
        if (!(e instanceof JsonConversionError)) throw e;
        badFloats = true;
        return new BadFloat(e.message) as unknown as JsonValue;
      }
    case "merge":
      return "<<";
    default:
      return s.v;
  }
}

function keyString(k: GoScalar, v: GoVal): string {
  switch (k.t) {
    case "str":
      return k.v;
    case "merge":
      return "<<";
    case "int":
      return k.v.toString();
    case "bool":
      return k.v ? "true" : "false";
    case "float": {
      const f = formatGoFloat32(k.v);
      return f === "+Inf" ? ".inf" : f === "-Inf" ? "-.inf" : f === "NaN" ? ".nan" : f;
    }
    case "uint":
      throw new ToJsonError(`unsupported map key of type: uint64, key: ${goSharpScalar(k)}, value: ${goSharp(v)}`);
    default:
      throw new ToJsonError(`unsupported map key of type: %!s(<nil>), key: <nil>, value: ${goSharp(v)}`);
  }
}

interface Frame {
  src: GoVal[] | GoMap;
  out: JsonValue[] | JsonObject;
  i: number;
  /** Entries whose value loses to a colliding key's (see {@link collisionLosers}). */
  losers?: Set<number>;
}

function open(v: GoVal[] | GoMap): Frame {
  if (Array.isArray(v)) return { src: v, out: new Array<JsonValue>(v.length), i: 0 };
  const f: Frame = { src: v, out: {}, i: 0 };
  if (v.keys.length > 1) {
    const losers = collisionLosers(v);
    if (losers) f.losers = losers;
  }
  return f;
}

/**
 * The JSON key of a Go key for the one-pass paths, which find duplicates by JSON key: undefined for keys
 * sigs.k8s.io/yaml refuses, and for `-0`, one Go key with `0` but not one JSON key (the full path decides).
 */
export function jsonMapKey(k: GoScalar): string | undefined {
  if (k.t === "uint" || k.t === "null" || (k.t === "float" && Object.is(k.v, -0))) return undefined;
  return keyString(k, null as unknown as GoVal);
}

/** Slots of a small Go map (at most 8 entries: one group, filled in insertion order). */
const GROUP_SLOTS = 8;

/**
 * Entries of a map whose keys collide after conversion and whose value Go most likely does not keep. Go
 * keeps the one its range visits last; a map of at most 8 entries is ranged slot by slot from a random one
 * of its 8 slots, so the most likely survivor is computed over those 8 starts. Bigger maps: the last one.
 */
function collisionLosers(m: GoMap): Set<number> | undefined {
  let groups: Map<string, number[]> | undefined;
  const seen = new Map<string, number>();
  m.keys.forEach((k, i) => {
    const key = jsonMapKey(k);
    if (key === undefined) return;
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i);
      return;
    }
    groups ??= new Map();
    const g = groups.get(key) ?? [first];
    g.push(i);
    groups.set(key, g);
  });
  if (!groups) return undefined;
  const losers = new Set<number>();
  for (const g of groups.values()) {
    let winner = g[g.length - 1]!;
    if (m.keys.length <= GROUP_SLOTS) {
      const wins = new Map<number, number>();
      for (let r = 0; r < GROUP_SLOTS; r++) {
        // visited last: the largest (slot - start) mod 8
        let best = g[0]!;
        for (const i of g) if ((i - r + GROUP_SLOTS) % GROUP_SLOTS > (best - r + GROUP_SLOTS) % GROUP_SLOTS) best = i;
        wins.set(best, (wins.get(best) ?? 0) + 1);
      }
      let most = -1;
      for (const i of g) {
        const w = wins.get(i) ?? 0;
        if (w >= most) {
          most = w;
          winner = i;
        }
      }
    }
    for (const i of g) if (i !== winner) losers.add(i);
  }
  return losers;
}

/** The JSON value of `root`; throws {@link ToJsonError}. Maps entry by entry as Go ranges over them: the key, then its value's subtree. */
export function goToJson(root: GoVal): JsonValue {
  badFloats = false;
  collided = false;
  if (!Array.isArray(root) && !(root instanceof GoMap)) return checked(scalarJson(root));
  const first = open(root);
  const stack: Frame[] = [first];
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    const src = f.src;
    if (Array.isArray(src)) {
      if (f.i >= src.length) {
        stack.pop();
        continue;
      }
      const i = f.i++;
      const child = src[i]!;
      if (Array.isArray(child) || child instanceof GoMap) {
        const g = open(child);
        (f.out as JsonValue[])[i] = g.out;
        stack.push(g);
      } else (f.out as JsonValue[])[i] = scalarJson(child);
    } else {
      if (f.i >= src.keys.length) {
        stack.pop();
        continue;
      }
      const i = f.i++;
      const child = src.vals[i]!;
      const key = keyString(src.keys[i]!, child);
      const out = f.out as JsonObject;
      const exists = Object.hasOwn(out, key);
      if (exists) collided = true;
      // a losing value is still converted (its errors count), but not kept
      const keep = !(exists && f.losers?.has(i));
      if (Array.isArray(child) || child instanceof GoMap) {
        const g = open(child);
        if (keep) setKey(out, key, g.out);
        stack.push(g);
      } else {
        const x = scalarJson(child);
        if (keep) setKey(out, key, x);
      }
    }
  }
  return checked(first.out);
}

function checked(v: JsonValue): JsonValue {
  if (badFloats) {
    // a refused float can have been replaced by a colliding key's value
    const bad = firstBadFloat(v);
    if (bad !== undefined) throw new ToJsonError(bad);
  }
  return v;
}
