/** Go `strconv`: float formatting beyond `%v` (which is {@link formatGoFloat} in fmt.ts) and ParseBool. */
import { formatGoFloat } from "./fmt.js";

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

/** `strconv.ParseBool`: true or false for the spellings Go accepts, undefined for any other string. */
export function parseGoBool(s: string): boolean | undefined {
  switch (s) {
    case "1":
    case "t":
    case "T":
    case "TRUE":
    case "true":
    case "True":
      return true;
    case "0":
    case "f":
    case "F":
    case "FALSE":
    case "false":
    case "False":
      return false;
    default:
      return undefined;
  }
}
