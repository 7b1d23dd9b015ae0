/**
 * `metav1.Time` as the API server reads and writes it: Go's `time.Parse(time.RFC3339, s)` (the lenient
 * generic parser, with Go's exact `*time.ParseError` texts) and `Format(time.RFC3339)` in UTC with whole
 * seconds (what `Time.ToUnstructured` / `MarshalJSON` produce); `time.ParseDuration`.
 */
import { civilFromDays, daysFromCivil, daysInMonth } from "../value/civil-date.js";
import { goStringBytes } from "./utf8.js";

/** An instant: Unix seconds plus nanoseconds in [0, 1e9). */
export interface GoTime {
  readonly sec: number;
  readonly nsec: number;
}

/** Unix seconds of Go's zero time (January 1, year 1, 00:00:00 UTC). */
const ZERO_SEC = -62135596800;

/** Go's zero `time.Time`. */
export const ZERO_TIME: GoTime = { sec: ZERO_SEC, nsec: 0 };

/** `Time.IsZero()`. */
export function isZeroTime(t: GoTime): boolean {
  return t.sec === ZERO_SEC && t.nsec === 0;
}

/** `a.UTC() == b.UTC()` (the semantic equality Kubernetes registers for metav1.Time). */
export function timeEqual(a: GoTime, b: GoTime): boolean {
  return a.sec === b.sec && a.nsec === b.nsec;
}

const LAYOUT = "2006-01-02T15:04:05Z07:00";

/** The `quote` of Go's time package: bytes ≥ 0x80 and control bytes as `\xNN`. */
function timeQuote(bytes: Uint8Array): string {
  let out = '"';
  for (const b of bytes) {
    if (b >= 0x80 || b < 0x20) out += "\\x" + b.toString(16).padStart(2, "0");
    else {
      if (b === 0x22 || b === 0x5c) out += "\\";
      out += String.fromCharCode(b);
    }
  }
  return out + '"';
}

const enc = new TextEncoder();

function isDigit(v: Uint8Array, i: number): boolean {
  const c = v[i];
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** Go `getnum`: one or two digits (exactly two when `fixed`). */
function getnum(v: Uint8Array, fixed: boolean): [number, Uint8Array] | null {
  if (!isDigit(v, 0)) return null;
  if (!isDigit(v, 1)) {
    if (fixed) return null;
    return [v[0]! - 0x30, v.subarray(1)];
  }
  return [(v[0]! - 0x30) * 10 + (v[1]! - 0x30), v.subarray(2)];
}





/** Result of {@link parseRFC3339}: a time, or Go's error text. */
export type ParseTimeResult = { ok: true; time: GoTime } | { ok: false; error: string };

/**
 * Go `time.Parse(time.RFC3339, s)`: accepts what Go accepts (one-digit hours, fractional seconds, `Z` or
 * `±hh:mm`), and fails with Go's message, e.g. `parsing time "a" as "2006-01-02T15:04:05Z07:00": cannot
 * parse "a" as "2006"` or `parsing time "2020-13-01T00:00:00Z": month out of range`.
 */
export function parseRFC3339(s: string): ParseTimeResult {
  // Servers parse the same few timestamps over and over (creationTimestamp, managedFields times).
  const hit = recentTimes.get(s);
  if (hit) return hit;
  const r = parseUncached(s);
  if (recentTimes.size >= RECENT_TIMES) recentTimes.clear();
  recentTimes.set(s, Object.freeze(r));
  return r;
}

/** Recently parsed RFC 3339 texts and their (frozen) results. */
const recentTimes = new Map<string, ParseTimeResult>();
const RECENT_TIMES = 256;

function parseUncached(s: string): ParseTimeResult {
  const all = enc.encode(s);
  const q = timeQuote(all);
  const cannot = (valueElem: Uint8Array, layoutElem: string): ParseTimeResult => ({
    ok: false,
    error: `parsing time ${q} as "${LAYOUT}": cannot parse ${timeQuote(valueElem)} as "${layoutElem}"`,
  });
  const msg = (m: string): ParseTimeResult => ({ ok: false, error: `parsing time ${q}${m}` });
  let v: Uint8Array = all;
  const skip = (prefix: string): Uint8Array | null => {
    for (let i = 0; i < prefix.length; i++) {
      if (v.length === 0 || v[0] !== prefix.charCodeAt(i)) return null;
      v = v.subarray(1);
    }
    return v;
  };
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let offset = 0;
  const steps: [prefix: string, std: string][] = [
    ["", "2006"],
    ["-", "01"],
    ["-", "02"],
    ["T", "15"],
    [":", "04"],
    [":", "05"],
    ["", "Z07:00"],
  ];
  for (const [prefix, std] of steps) {
    if (skip(prefix) === null) return cannot(v, prefix);
    const hold = v;
    let bad = false;
    let range = "";
    switch (std) {
      case "2006": {
        if (v.length < 4 || !isDigit(v, 0)) {
          bad = true;
          break;
        }
        const p = v.subarray(0, 4);
        v = v.subarray(4);
        if (!p.every((c) => c >= 0x30 && c <= 0x39)) bad = true;
        else year = Number(String.fromCharCode(...p));
        break;
      }
      case "01": {
        const r = getnum(v, true);
        if (!r) bad = true;
        else {
          [month, v] = r;
          if (month <= 0 || month > 12) range = "month";
        }
        break;
      }
      case "02": {
        const r = getnum(v, true);
        if (!r) bad = true;
        else [day, v] = r;
        break;
      }
      case "15": {
        const r = getnum(v, false);
        if (!r) bad = true;
        else {
          [hour, v] = r;
          if (hour >= 24) range = "hour";
        }
        break;
      }
      case "04": {
        const r = getnum(v, true);
        if (!r) bad = true;
        else {
          [min, v] = r;
          if (min >= 60) range = "minute";
        }
        break;
      }
      case "05": {
        const r = getnum(v, true);
        if (!r) {
          bad = true;
          break;
        }
        [sec, v] = r;
        if (sec >= 60) {
          range = "second";
          break;
        }
        if (v.length >= 2 && (v[0] === 0x2e || v[0] === 0x2c) && isDigit(v, 1)) {
          let n = 2;
          while (n < v.length && isDigit(v, n)) n++;
          const digits = v.subarray(1, Math.min(n, 10));
          let ns = Number(String.fromCharCode(...digits));
          for (let i = 0; i < 10 - Math.min(n, 10); i++) ns *= 10;
          nsec = ns;
          v = v.subarray(n);
        }
        break;
      }
      default: {
        if (v.length >= 1 && v[0] === 0x5a) {
          v = v.subarray(1);
          break;
        }
        if (v.length < 6 || v[3] !== 0x3a) {
          bad = true;
          break;
        }
        const sign = v[0];
        const hh = getnum(v.subarray(1, 3), true);
        const mm = hh ? getnum(v.subarray(4, 6), true) : null;
        v = v.subarray(6);
        const hr = hh ? hh[0] : 0;
        const mn = mm ? mm[0] : 0;
        if (!hh || !mm) bad = true;
        if (hr > 24) range = "time zone offset hour";
        if (mn > 60) range = "time zone offset minute";
        offset = (hr * 60 + mn) * 60;
        if (sign === 0x2d) offset = -offset;
        else if (sign !== 0x2b) bad = true;
      }
    }
    if (range !== "") return msg(`: ${range} out of range`);
    if (bad) return cannot(hold, std);
  }
  if (v.length !== 0) return msg(`: extra text: ${timeQuote(v)}`);
  if (day < 1 || day > daysInMonth(year, month)) return msg(": day out of range");
  const secs = daysFromCivil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec - offset;
  return { ok: true, time: { sec: secs, nsec } };
}

function pad(n: number, w: number): string {
  return String(n).padStart(w, "0");
}

/** `t.UTC().Format(time.RFC3339)`: `2006-01-02T15:04:05Z` (fractional seconds dropped). */
export function formatRFC3339(t: GoTime): string {
  const days = Math.floor(t.sec / 86400);
  let rem = t.sec - days * 86400;
  const [y, m, d] = civilFromDays(days);
  const hh = Math.floor(rem / 3600);
  rem -= hh * 3600;
  const mi = Math.floor(rem / 60);
  const ss = rem - mi * 60;
  const year = y < 0 ? "-" + pad(-y, 4) : pad(y, 4);
  return `${year}-${pad(m, 2)}-${pad(d, 2)}T${pad(hh, 2)}:${pad(mi, 2)}:${pad(ss, 2)}Z`;
}

/** Go's `unitMap` (a Map: a unit such as `constructor` must not find Object.prototype's members). */
const UNIT_NS = new Map<string, bigint>([
  ["ns", 1n],
  ["us", 1000n],
  ["\u00b5s", 1000n],
  ["\u03bcs", 1000n],
  ["ms", 1000000n],
  ["s", 1000000000n],
  ["m", 60000000000n],
  ["h", 3600000000000n],
]);
const TWO63 = 1n << 63n;

function isDigitChar(c: string | undefined): boolean {
  return c !== undefined && c >= "0" && c <= "9";
}

/**
 * Go `time.ParseDuration(s)`: the duration in nanoseconds (int64 range), or `undefined` where Go
 * returns an error (`time: invalid duration`, `time: unknown unit`, overflow).
 */
export function parseGoDuration(orig: string): bigint | undefined {
  const d = goParseDuration(orig);
  return typeof d === "bigint" ? d : undefined;
}

/**
 * Go `time.ParseDuration(s)`: the duration in nanoseconds (int64 range), or Go's error text:
 * `time: invalid duration "…"`, `time: missing unit in duration "…"`, `time: unknown unit "…" in duration "…"`
 * (quoted as the time package quotes: bytes ≥ 0x80 and control bytes as `\xNN`).
 */
export function goParseDuration(orig: string): bigint | string {
  const quote = (t: string) => timeQuote(goStringBytes(t));
  const invalid = () => `time: invalid duration ${quote(orig)}`;
  let s = orig;
  let neg = false;
  if (s !== "" && (s[0] === "-" || s[0] === "+")) {
    neg = s[0] === "-";
    s = s.slice(1);
  }
  if (s === "0") return 0n;
  if (s === "") return invalid();
  let d = 0n;
  while (s !== "") {
    if (!(s[0] === "." || isDigitChar(s[0]))) return invalid();
    let i = 0;
    let v = 0n;
    while (isDigitChar(s[i])) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 48);
      if (v > TWO63) return invalid();
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
      while (isDigitChar(s[j])) {
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
    if (!pre && !post) return invalid();
    let k = 0;
    while (k < s.length && !(s[k] === "." || isDigitChar(s[k]))) k++;
    if (k === 0) return `time: missing unit in duration ${quote(orig)}`;
    const u = s.slice(0, k);
    const unit = UNIT_NS.get(u);
    s = s.slice(k);
    if (unit === undefined) return `time: unknown unit ${quote(u)} in duration ${quote(orig)}`;
    if (v > TWO63 / unit) return invalid();
    v *= unit;
    if (f > 0n) {
      v += BigInt(Math.trunc(Number(f) * (Number(unit) / scale)));
      if (v > TWO63) return invalid();
    }
    d += v;
    if (d > TWO63) return invalid();
  }
  if (neg) return -d;
  return d <= TWO63 - 1n ? d : invalid();
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY = "(Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY = "(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = `(${MONTHS.join("|")})`;
/** http.TimeFormat (`Mon, 02 Jan 2006 15:04:05 GMT`), time.RFC850 and time.ANSIC: day, month, year, h, m, s groups. */
const HTTP_TIME_LAYOUTS: readonly { re: RegExp; order: readonly [number, number, number, number, number, number] }[] = [
  { re: new RegExp(`^${DAY}, (\\d\\d) ${MONTH} (\\d{4}) (\\d\\d):(\\d\\d):(\\d\\d) GMT$`), order: [2, 3, 4, 5, 6, 7] },
  { re: new RegExp(`^${LONG_DAY}, (\\d\\d)-${MONTH}-(\\d\\d) (\\d\\d):(\\d\\d):(\\d\\d) [A-Z]{3,5}$`), order: [2, 3, 4, 5, 6, 7] },
  { re: new RegExp(`^${DAY} ${MONTH} ( \\d|\\d\\d?) (\\d\\d):(\\d\\d):(\\d\\d) (\\d{4})$`), order: [3, 2, 7, 4, 5, 6] },
];

/**
 * net/http's `ParseTime`: an HTTP date in one of the three layouts HTTP/1.1 allows, as Unix seconds; undefined
 * when none parses (or a field is out of range, as time.Parse refuses it). RFC 850's two-digit years are 1969–2068.
 */
export function parseHttpTime(s: string): number | undefined {
  for (const { re, order } of HTTP_TIME_LAYOUTS) {
    const m = re.exec(s);
    if (!m) continue;
    const [di, mi, yi, hi, ni, si] = order;
    const day = Number(m[di]!.trim());
    const month = MONTHS.indexOf(m[mi]!) + 1;
    let year = Number(m[yi]);
    if (m[yi]!.length === 2) year += year >= 69 ? 1900 : 2000;
    const [h, min, sec] = [Number(m[hi]), Number(m[ni]), Number(m[si])];
    if (h > 23 || min > 59 || sec > 59 || day < 1 || day > daysInMonth(year, month)) continue;
    return daysFromCivil(year, month, day) * 86_400 + h * 3600 + min * 60 + sec;
  }
  return undefined;
}
