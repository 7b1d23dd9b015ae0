/** Go `fmt` `%v` of unstructured values (used in enum messages: `should be one of [a 1 map[k:v]]`). */
import { type JsonValue, kindOf, toNumber } from "../value/json-value.js";
import { compareGoStrings, formatGoFloat, formatGoNumber } from "../value/go-format.js";

/** Go `fmt.Sprintf("%v", v)` of an `interface{}` holding an unstructured value. */
export function goSprintV(v: JsonValue | undefined): string {
  switch (kindOf(v)) {
    case "null":
      return "<nil>";
    case "string":
      return v as string;
    case "boolean":
      return v ? "true" : "false";
    case "integer":
      return formatGoNumber(v as number | bigint);
    case "number":
      return formatGoFloat(toNumber(v as number));
    case "array":
      return `[${(v as JsonValue[]).map(goSprintV).join(" ")}]`;
    default: {
      const o = v as Record<string, JsonValue>;
      const keys = Object.keys(o).sort(compareGoStrings);
      return `map[${keys.map((k) => `${k}:${goSprintV(o[k])}`).join(" ")}]`;
    }
  }
}

/** Go `strconv.FormatFloat(f, 'f', -1, 64)`: shortest decimal without exponent. */
export function formatFloatF(f: number): string {
  if (Number.isNaN(f)) return "NaN";
  if (!Number.isFinite(f)) return f > 0 ? "+Inf" : "-Inf";
  const neg = f < 0 || Object.is(f, -0);
  const s = Math.abs(f).toExponential();
  const e = s.indexOf("e");
  const digits = s.slice(0, e).replace(".", "");
  const exp = Number(s.slice(e + 1));
  let out: string;
  if (f === 0) out = "0";
  else if (exp < 0) out = `0.${"0".repeat(-exp - 1)}${digits}`;
  else if (digits.length <= exp + 1) out = digits + "0".repeat(exp + 1 - digits.length);
  else out = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  return (neg ? "-" : "") + out;
}
