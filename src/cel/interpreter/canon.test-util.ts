/**
 * Test helper: canonical rendering of CEL values shared with the cel-go oracle program that
 * recorded `testdata/cel-go-eval.json` (strings/bytes as UTF-8 hex, doubles as IEEE-754 bits).
 */
import { typeOf } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import { CelDuration, CelMap, CelOptional, CelTimestamp, CelType, CelUint } from "../values/values.js";

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** Canonical text of a value (same format as the Go oracle). */
export function canon(v: CelValue): string {
  if (typeof v === "bigint") return String(v);
  if (v instanceof CelUint) return `${v.value}u`;
  if (typeof v === "number") {
    const dv = new DataView(new ArrayBuffer(8));
    dv.setFloat64(0, v);
    return `d:${dv.getBigUint64(0).toString(16)}`;
  }
  if (typeof v === "string") return `s:${hex(new TextEncoder().encode(v))}`;
  if (v instanceof Uint8Array) return `b:${hex(v)}`;
  if (typeof v === "boolean") return String(v);
  if (v === null) return "null";
  if (v instanceof CelDuration) return `dur(${v.nanos})`;
  if (v instanceof CelTimestamp) return `ts(${v.nanos})`;
  if (v instanceof CelType) return `type(${v.name})`;
  if (v instanceof CelOptional) return v.value === undefined ? "none" : `opt(${canon(v.value)})`;
  if (Array.isArray(v)) return `[${v.map(canon).join(", ")}]`;
  if (v instanceof CelMap)
    return `{${v
      .entries()
      .map(([k, x]) => `${canon(k)}: ${canon(x)}`)
      .sort()
      .join(", ")}}`;
  return `?${typeOf(v).name}`;
}
