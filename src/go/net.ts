/**
 * Go network-address parsers used by string formats: `k8s.io/utils/net` ParseIPSloppy / ParseCIDRSloppy
 * (the Go 1.16 parser, leading zeros allowed), `net.ParseIP` (strict: no leading zeros, zones rejected)
 * and `net.ParseMAC`. All work on ASCII; any other character makes the input invalid.
 */

const BIG = 0xffffff;

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Go `dtoi`: decimal prefix → [value, consumed, ok]. */
function dtoi(s: string, from: number): [number, number, boolean] {
  let n = 0;
  let i = from;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) break;
    n = n * 10 + (c - 0x30);
    if (n >= BIG) return [BIG, i - from, false];
  }
  if (i === from) return [0, 0, false];
  return [n, i - from, true];
}

function hexVal(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** Go `xtoi`: hexadecimal prefix → [value, consumed, ok]. */
function xtoi(s: string, from: number, end = s.length): [number, number, boolean] {
  let n = 0;
  let i = from;
  for (; i < end; i++) {
    const v = hexVal(s.charCodeAt(i));
    if (v < 0) break;
    n = n * 16 + v;
    if (n >= BIG) return [0, i - from, false];
  }
  if (i === from) return [0, 0, false];
  return [n, i - from, true];
}

/** IPv4 dotted quad; `strict` rejects fields with leading zeros (modern Go). */
function parseIPv4(s: string, strict: boolean): boolean {
  let pos = 0;
  for (let i = 0; i < 4; i++) {
    if (pos >= s.length) return false;
    if (i > 0) {
      if (s[pos] !== ".") return false;
      pos++;
    }
    const [n, c, ok] = dtoi(s, pos);
    if (!ok || n > 0xff) return false;
    if (strict && (c > 3 || (c > 1 && s[pos] === "0"))) return false;
    pos += c;
  }
  return pos === s.length;
}

/** IPv6 (no zone); `strict` limits hex groups to 4 digits and embedded IPv4 to strict form. */
function parseIPv6(s: string, strict: boolean): boolean {
  let ellipsis = -1;
  let pos = 0;
  if (s.length >= 2 && s[0] === ":" && s[1] === ":") {
    ellipsis = 0;
    pos = 2;
    if (pos === s.length) return true;
  }
  let i = 0;
  while (i < 16) {
    const [n, c, ok] = xtoi(s, pos);
    if (!ok || n > 0xffff) return false;
    if (pos + c < s.length && s[pos + c] === ".") {
      if (ellipsis < 0 && i !== 12) return false;
      if (i + 4 > 16) return false;
      if (!parseIPv4(s.slice(pos), strict)) return false;
      pos = s.length;
      i += 4;
      break;
    }
    if (strict && c > 4) return false;
    i += 2;
    pos += c;
    if (pos === s.length) break;
    if (s[pos] !== ":" || pos + 1 === s.length) return false;
    pos++;
    if (s[pos] === ":") {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      pos++;
      if (pos === s.length) break;
    }
  }
  if (pos !== s.length) return false;
  if (i < 16) return ellipsis >= 0;
  return ellipsis < 0;
}

function parseIPGeneric(s: string, strict: boolean): boolean {
  if (!isAscii(s)) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === ".") return parseIPv4(s, strict);
    if (c === ":") return parseIPv6(s, strict);
  }
  return false;
}

/** `netutils.ParseIPSloppy(s) != nil`: IPv4 (leading zeros allowed, decimal) or IPv6. */
export function parseIPSloppy(s: string): boolean {
  return parseIPGeneric(s, false);
}

/** `net.ParseIP(s) != nil` (modern Go: no leading zeros in IPv4 fields, no zones). */
export function parseIP(s: string): boolean {
  return parseIPGeneric(s, true);
}

/** `netutils.ParseCIDRSloppy(s)` succeeds. */
export function parseCIDRSloppy(s: string): boolean {
  if (!isAscii(s)) return false;
  const slash = s.indexOf("/");
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  let iplen = 4;
  let ok = parseIPv4(addr, false);
  if (!ok) {
    iplen = 16;
    ok = parseIPv6(addr, false);
  }
  const [n, c, mok] = dtoi(mask, 0);
  return ok && mok && c === mask.length && n >= 0 && n <= 8 * iplen;
}

/** Go `xtoi2(s, e)`: two hex digits at `from`, followed by `e` (or the end of the string). */
function xtoi2(s: string, from: number, e: string | null, end = s.length): boolean {
  if (end - from > 2 && s[from + 2] !== e) return false;
  const [, ei, ok] = xtoi(s, from, Math.min(end, from + 2));
  return ok && ei === 2;
}

/** `net.ParseMAC(s)` succeeds (EUI-48, EUI-64, 20-octet InfiniBand; `:`, `-`, `.` or bare-hex forms). */
export function parseMAC(s: string): boolean {
  if (!isAscii(s) || s.length < 12) return false;
  if (s[2] === ":" || s[2] === "-") {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let x = 0, i = 0; i < n; i++, x += 3) if (!xtoi2(s, x, s[2])) return false;
    return true;
  }
  if (s[4] === ".") {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = (2 * (s.length + 1)) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let x = 0, i = 0; i < n; i += 2, x += 5) {
      if (!xtoi2(s, x, null, x + 2)) return false;
      if (!xtoi2(s, x + 2, s[4])) return false;
    }
    return true;
  }
  // Go ≥ 1.25: bare hex digits (`0123456789ab`).
  if (s.length % 2 !== 0) return false;
  const n = s.length / 2;
  if (n !== 6 && n !== 8 && n !== 20) return false;
  for (let x = 0; x < s.length; x += 2) if (!xtoi2(s, x, null, x + 2)) return false;
  return true;
}
