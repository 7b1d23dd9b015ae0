/**
 * kube-openapi strfmt's time formats: `date` (Go `time.Parse("2006-01-02")`), `IsDateTime`, and
 * `IsDuration` (Go `time.ParseDuration`, from src/go/time.ts, else strfmt's extended duration grammar).
 */
import { parseGoDuration } from "../go/time.js";
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
  if (parseGoDuration(s) !== undefined) return true;
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
