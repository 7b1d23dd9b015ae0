/**
 * What a Go number becomes after the YAML → JSON → API-server round trip: sigs.k8s.io/yaml marshals the
 * go-yaml value with encoding/json, and the server decodes JSON numbers as int64 when the literal is an
 * integer that fits, float64 otherwise.
 */
import { Float64, type JsonValue, float64, int64 } from "../value/json-value.js";
import { formatGoFloat } from "../value/go-format.js";

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** Thrown when a value cannot be represented in JSON (`json: unsupported value: NaN`). */
export class JsonConversionError extends Error {}

/** A float64 from YAML as the server sees it: integral values below 1e21 print as integers → int64. */
export function floatAfterJsonRoundTrip(f: number): JsonValue {
  if (Number.isNaN(f)) throw new JsonConversionError("json: unsupported value: NaN");
  if (!Number.isFinite(f)) throw new JsonConversionError(`json: unsupported value: ${f > 0 ? "+Inf" : "-Inf"}`);
  if (Number.isInteger(f) && Math.abs(f) < 1e21) {
    // encoding/json prints the shortest round-trip digits padded with zeros, exactly like String(f) here.
    const b = BigInt(String(f === 0 ? 0 : f));
    if (b >= INT64_MIN && b <= INT64_MAX) return int64(b);
    return new Float64(f);
  }
  return float64(f);
}

/** A uint64 beyond int64 (go-yaml resolves them so): the server decodes it as float64. */
export function uintAfterJsonRoundTrip(u: bigint): JsonValue {
  if (u <= INT64_MAX) return int64(u);
  return new Float64(Number(u));
}

/** The shortest decimal digits of `f` as a float32 (`strconv.FormatFloat(f, 'g', -1, 32)`). */
export function formatGoFloat32(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  const r = Math.fround(f);
  if (!Number.isFinite(r)) return r > 0 ? "+Inf" : "-Inf";
  if (r === 0) return Object.is(r, -0) ? "-0" : "0";
  for (let p = 1; p <= 9; p++) {
    const s = r.toPrecision(p);
    if (Math.fround(Number(s)) === r) return formatGoFloat(Number(s));
  }
  return formatGoFloat(r);
}
