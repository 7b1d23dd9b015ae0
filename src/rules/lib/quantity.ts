/**
 * Kubernetes `resource.Quantity` semantics (apimachinery `pkg/api/resource`) for the CEL quantity
 * library: parsing with the exact error texts, rounding up to nano units, the int64 cap, exact
 * comparison and arithmetic. A quantity is held exactly as `mantissa × 10^scale`.
 */

export const ERR_FORMAT_WRONG =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const ERR_NUMERIC = "unable to parse numeric part of quantity";
export const ERR_SUFFIX = "unable to parse quantity's suffix";

export type QuantityFormat = "DecimalSI" | "BinarySI" | "DecimalExponent";

export interface Quantity {
  /** Exact value = mantissa × 10^scale, normalised (no trailing zeros in mantissa unless 0). */
  readonly mantissa: bigint;
  readonly scale: number;
  readonly format: QuantityFormat;
}

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);

const DEC_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BIN_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

function normalize(mantissa: bigint, scale: number): { mantissa: bigint; scale: number } {
  if (mantissa === 0n) return { mantissa, scale: 0 };
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    scale++;
  }
  return { mantissa, scale };
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

interface ParsedString {
  positive: boolean;
  num: string;
  denom: string;
  suffix: string;
}

/** apimachinery `parseQuantityString`. */
function parseQuantityString(str: string): ParsedString | string {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (str[0] === "-") {
    positive = false;
    pos++;
  } else if (str[0] === "+") pos++;
  while (pos < end && str[pos] === "0") pos++;
  if (pos >= end) return { positive, num: "0", denom: "", suffix: "" };
  let i = pos;
  while (i < end && isDigit(str[i])) i++;
  let num = str.slice(pos, i);
  pos = i;
  if (pos >= end) return { positive, num: num === "" ? "0" : num, denom: "", suffix: "" };
  if (num === "") num = "0";
  let denom = "";
  if (str[pos] === ".") {
    pos++;
    i = pos;
    while (i < end && isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    pos = i;
    if (pos >= end) return { positive, num, denom, suffix: "" };
  }
  const suffixStart = pos;
  while (pos < end && "eEinumkKMGTP".includes(str[pos]!)) pos++;
  if (pos >= end) return { positive, num, denom, suffix: str.slice(suffixStart) };
  if (str[pos] === "-" || str[pos] === "+") pos++;
  while (pos < end && isDigit(str[pos])) pos++;
  if (pos >= end) return { positive, num, denom, suffix: str.slice(suffixStart) };
  return ERR_FORMAT_WRONG;
}

function interpretSuffix(s: string): { base: 10 | 2; exponent: number; format: QuantityFormat } | undefined {
  if (Object.hasOwn(DEC_SUFFIXES, s)) return { base: 10, exponent: DEC_SUFFIXES[s]!, format: "DecimalSI" };
  if (Object.hasOwn(BIN_SUFFIXES, s)) return { base: 2, exponent: BIN_SUFFIXES[s]!, format: "BinarySI" };
  if (s.length > 1 && (s[0] === "e" || s[0] === "E")) {
    const rest = s.slice(1);
    if (!/^[+-]?[0-9]+$/.test(rest)) return undefined;
    const n = BigInt(rest);
    if (n > MAX_INT64 || n < MIN_INT64) return undefined;
    // Go truncates the parsed int64 to int32.
    return { base: 10, exponent: Number(BigInt.asIntN(32, n)), format: "DecimalExponent" };
  }
  return undefined;
}

/** `resource.ParseQuantity`: a quantity, or the error text. */
export function parseQuantity(str: string): Quantity | string {
  if (str.length === 0) return ERR_FORMAT_WRONG;
  if (str === "0") return { mantissa: 0n, scale: 0, format: "DecimalSI" };
  const p = parseQuantityString(str);
  if (typeof p === "string") return p;
  const suf = interpretSuffix(p.suffix);
  if (!suf) return ERR_SUFFIX;
  let mantissa = BigInt(p.num + p.denom);
  let scale = -p.denom.length;
  if (suf.base === 10) scale += suf.exponent;
  else mantissa <<= BigInt(suf.exponent);
  if (!p.positive) mantissa = -mantissa;
  ({ mantissa, scale } = roundUpToNano(mantissa, scale));
  ({ mantissa, scale } = capInt64(mantissa, scale));
  const n = normalize(mantissa, scale);
  return { mantissa: n.mantissa, scale: n.scale, format: suf.format };
}

/** Rounds a non-zero magnitude up (away from zero) to a multiple of 10^-9. */
function roundUpToNano(mantissa: bigint, scale: number): { mantissa: bigint; scale: number } {
  if (scale >= -9 || mantissa === 0n) return { mantissa, scale };
  const div = 10n ** BigInt(-9 - scale);
  const neg = mantissa < 0n;
  const mag = neg ? -mantissa : mantissa;
  let q = mag / div;
  if (q * div !== mag) q += 1n;
  return { mantissa: neg ? -q : q, scale: -9 };
}

function capInt64(mantissa: bigint, scale: number): { mantissa: bigint; scale: number } {
  const neg = mantissa < 0n;
  const mag = neg ? -mantissa : mantissa;
  if (compareMagnitude(mag, scale, MAX_INT64, 0) > 0) return { mantissa: neg ? -MAX_INT64 : MAX_INT64, scale: 0 };
  return { mantissa, scale };
}

function align(a: bigint, as: number, b: bigint, bs: number): [bigint, bigint, number] {
  if (as === bs) return [a, b, as];
  if (as > bs) return [a * 10n ** BigInt(as - bs), b, bs];
  return [a, b * 10n ** BigInt(bs - as), as];
}

function compareMagnitude(a: bigint, as: number, b: bigint, bs: number): number {
  const [x, y] = align(a, as, b, bs);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** `q.Cmp(other)`: -1, 0 or 1. */
export function compareQuantity(a: Quantity, b: Quantity): number {
  return compareMagnitude(a.mantissa, a.scale, b.mantissa, b.scale);
}

/** `q.Sign()`. */
export function quantitySign(q: Quantity): number {
  return q.mantissa > 0n ? 1 : q.mantissa < 0n ? -1 : 0;
}

function combine(a: Quantity, b: Quantity, sign: 1n | -1n): Quantity {
  const [x, y, s] = align(a.mantissa, a.scale, b.mantissa, b.scale);
  const n = normalize(x + sign * y, s);
  return { mantissa: n.mantissa, scale: n.scale, format: a.format };
}

/** `q.Add(other)` on a copy. */
export function addQuantity(a: Quantity, b: Quantity): Quantity {
  return combine(a, b, 1n);
}

/** `q.Sub(other)` on a copy. */
export function subQuantity(a: Quantity, b: Quantity): Quantity {
  return combine(a, b, -1n);
}

/** `resource.NewQuantity(v, DecimalExponent)`. */
export function quantityFromInt(v: bigint): Quantity {
  const n = normalize(v, 0);
  return { mantissa: n.mantissa, scale: n.scale, format: "DecimalExponent" };
}

/** `q.AsInt64()`: the integer value, or undefined when it is not an integer or does not fit. */
export function quantityAsInt64(q: Quantity): bigint | undefined {
  if (q.scale < 0) return undefined; // normalised: a negative scale means a fractional part
  const v = q.mantissa * 10n ** BigInt(q.scale);
  return v > MAX_INT64 || v < MIN_INT64 ? undefined : v;
}

/** `q.AsApproximateFloat64()`. */
export function quantityAsApproximateFloat(q: Quantity): number {
  if (q.scale >= 0) return Number(q.mantissa) * 10 ** q.scale;
  return Number(q.mantissa) / 10 ** -q.scale;
}
