/**
 * Go time parsing used by string formats: `time.Parse("2006-01-02")` (date), strfmt's `IsDateTime`,
 * `time.ParseDuration` and strfmt's extended duration grammar.
 */
import { daysInMonth } from "../value/civil-date.js";


const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

/** Go `time.Parse("2006-01-02", s)` succeeds. */
export function isDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12) return false;
  return day >= 1 && day <= daysInMonth(year, month);
}

const DATE_TIME = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u;

function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** Byte length of a string in UTF-8 (Go `len(s)`). */
export { utf8Length };

/** strfmt `IsDateTime`. */
export function isDateTime(s: string): boolean {
  if (utf8Length(s) < 4) return false;
  const parts = s.toLowerCase().split("t");
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = DATE_TIME.exec(parts[1]!);
  if (!m) return false;
  return m[1]! <= "23" && m[2]! <= "59" && m[3]! <= "59";
}

const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1000n,
  "\u00b5s": 1000n,
  "\u03bcs": 1000n,
  ms: 1000000n,
  s: 1000000000n,
  m: 60000000000n,
  h: 3600000000000n,
};
const TWO63 = 1n << 63n;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/** Go `time.ParseDuration(s)` succeeds. */
export function isGoDuration(orig: string): boolean {
  let s = orig;
  let neg = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return true;
  if (s === "") return false;
  let d = 0n;
  while (s !== "") {
    if (!(s[0] === "." || isDigit(s[0]))) return false;
    let i = 0;
    let v = 0n;
    while (isDigit(s[i])) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > TWO63) return false;
      i++;
    }
    const pre = i > 0;
    s = s.slice(i);
    let f = 0n;
    let scale = 1;
    let post = false;
    if (s !== "" && s[0] === ".") {
      s = s.slice(1);
      let j = 0;
      let overflow = false;
      while (isDigit(s[j])) {
        if (!overflow) {
          const y = f * 10n + BigInt(s.charCodeAt(j) - 48);
          if (y > TWO63) overflow = true;
          else {
            f = y;
            scale *= 10;
          }
        }
        j++;
      }
      post = j > 0;
      s = s.slice(j);
    }
    if (!pre && !post) return false;
    let k = 0;
    while (k < s.length && !(s[k] === "." || isDigit(s[k]))) k++;
    if (k === 0) return false;
    const unit = UNIT_NS[s.slice(0, k)];
    s = s.slice(k);
    if (unit === undefined) return false;
    if (v > TWO63 / unit) return false;
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO63) return false;
    }
    d += v;
    if (d > TWO63) return false;
  }
  if (neg) return true;
  return d <= TWO63 - 1n;
}

const UNIT_VARIANTS: readonly (readonly string[])[] = [
  ["ns", "nano"],
  ["us", "\u00b5s", "micro"],
  ["ms", "milli"],
  ["s", "sec"],
  ["m", "min"],
  ["h", "hr", "hour"],
  ["d", "day"],
  ["w", "wk", "week"],
];
const INT64_MAX = (1n << 63n) - 1n;

/** Go `strings.EqualFold` for the (ASCII + µ) unit strings. */
function equalFold(a: string, b: string): boolean {
  const fold = (x: string) => x.toLowerCase().replace(/\u03bc/g, "\u00b5");
  return fold(a) === fold(b);
}

/** strfmt `IsDuration`: Go `time.ParseDuration`, else the `(\d+)\s*([A-Za-zµ]+)` unit grammar. */
export function isDuration(s: string): boolean {
  if (isGoDuration(s)) return true;
  const re = /([0-9]+)[\t\n\f\r ]*([A-Za-z\u00b5]+)/g;
  let ok = false;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    if (BigInt(m[1]!) > INT64_MAX) return false;
    const unit = m[2]!.toLowerCase().trim();
    for (const variants of UNIT_VARIANTS) {
      const last = variants.length - 1;
      variants.forEach((variant, i) => {
        if ((last === i && unit.startsWith(variant)) || equalFold(variant, unit)) ok = true;
      });
    }
  }
  return ok;
}
