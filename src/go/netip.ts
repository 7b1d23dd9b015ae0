/**
 * Go `net/netip` address and prefix parsing, formatting and classification, as used by Kubernetes'
 * CEL `ip()` and `cidr()` libraries. Parse failures return Go's exact error text.
 */
import { goQuote } from "./fmt.js";

export interface Addr {
  /** 4 bytes for IPv4, 16 for IPv6 (including IPv4-mapped IPv6). */
  readonly bytes: Uint8Array;
  readonly zone: string;
}

export interface Prefix {
  readonly addr: Addr;
  readonly bits: number;
}

function addrError(input: string, msg: string, at = ""): string {
  return at !== ""
    ? `ParseAddr(${goQuote(input)}): ${msg} (at ${goQuote(at)})`
    : `ParseAddr(${goQuote(input)}): ${msg}`;
}

function parseIPv4Fields(input: string, off: number, end: number, out: Uint8Array, o: number): string | undefined {
  let val = 0;
  let pos = 0;
  let digLen = 0;
  const s = input.slice(off, end);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digLen === 1 && val === 0) return addrError(input, "IPv4 field has octet with leading zero");
      val = val * 10 + (c - 48);
      digLen++;
      if (val > 255) return addrError(input, "IPv4 field has value >255");
    } else if (c === 46) {
      if (i === 0 || i === s.length - 1 || s.charCodeAt(i - 1) === 46)
        return addrError(input, "IPv4 field must have at least one digit", s.slice(i));
      if (pos === 3) return addrError(input, "IPv4 address too long");
      out[o + pos] = val;
      pos++;
      val = 0;
      digLen = 0;
    } else {
      return addrError(input, "unexpected character", s.slice(i));
    }
  }
  if (pos < 3) return addrError(input, "IPv4 address too short");
  out[o + 3] = val;
  return undefined;
}

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function parseIPv6(input: string): Addr | string {
  let s = input;
  let zone = "";
  const zi = s.indexOf("%");
  if (zi !== -1) {
    zone = s.slice(zi + 1);
    s = s.slice(0, zi);
    if (zone === "") return addrError(input, "zone must be a non-empty string");
  }
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ":" && s[1] === ":") {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { bytes: ip, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexVal(s.charCodeAt(off));
      if (h < 0) break;
      if (off > 3) return addrError(input, "each group must have 4 or less digits", s);
      acc = acc * 16 + h;
    }
    if (off === 0) return addrError(input, "each colon-separated field must have at least one digit", s);
    if (off < s.length && s[off] === ".") {
      if (ellipsis < 0 && i !== 12)
        return addrError(input, "embedded IPv4 address must replace the final 2 fields of the address", s);
      if (i + 4 > 16)
        return addrError(input, "too many hex fields to fit an embedded IPv4 at the end of the address", s);
      let end = input.length;
      if (zone.length > 0) end -= zone.length + 1;
      const err = parseIPv4Fields(input, end - s.length, end, ip, i);
      if (err) return err;
      s = "";
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ":") return addrError(input, "unexpected character, want colon", s);
    if (s.length === 1) return addrError(input, "colon must be followed by more characters", s);
    s = s.slice(1);
    if (s[0] === ":") {
      if (ellipsis >= 0) return addrError(input, "multiple :: in address", s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return addrError(input, "trailing garbage after address", s);
  if (i < 16) {
    if (ellipsis < 0) return addrError(input, "address string too short");
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return addrError(input, "the :: must expand to at least one field of zeros");
  }
  return { bytes: ip, zone };
}

/** `netip.ParseAddr`: an address or Go's error text. */
export function parseAddr(s: string): Addr | string {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === ".") {
      const b = new Uint8Array(4);
      const err = parseIPv4Fields(s, 0, s.length, b, 0);
      return err ?? { bytes: b, zone: "" };
    }
    if (c === ":") return parseIPv6(s);
    if (c === "%") return addrError(s, "missing IPv6 address");
  }
  return addrError(s, "unable to parse IP");
}

export function is4(a: Addr): boolean {
  return a.bytes.length === 4;
}

/** An IPv6 address of the form ::ffff:a.b.c.d. */
export function is4In6(a: Addr): boolean {
  if (a.bytes.length !== 16) return false;
  for (let i = 0; i < 10; i++) if (a.bytes[i] !== 0) return false;
  return a.bytes[10] === 0xff && a.bytes[11] === 0xff;
}

function word(a: Addr, i: number): number {
  return (a.bytes[2 * i]! << 8) | a.bytes[2 * i + 1]!;
}

/** `Addr.String()`. */
export function addrString(a: Addr): string {
  if (is4(a)) return Array.from(a.bytes).join(".");
  if (is4In6(a)) return "::ffff:" + Array.from(a.bytes.subarray(12)).join(".") + (a.zone ? "%" + a.zone : "");
  let zs = 255;
  let ze = 255;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && word(a, j) === 0) j++;
    if (j - i >= 2 && j - i > ze - zs) {
      zs = i;
      ze = j;
    }
  }
  let out = "";
  for (let i = 0; i < 8; i++) {
    if (i === zs) {
      out += "::";
      i = ze;
      if (i >= 8) break;
    } else if (i > 0) out += ":";
    out += word(a, i).toString(16);
  }
  return a.zone ? `${out}%${a.zone}` : out;
}

export function isUnspecified(a: Addr): boolean {
  return a.bytes.every((b) => b === 0);
}

export function isLoopback(a: Addr): boolean {
  if (is4(a)) return a.bytes[0] === 127;
  return !is4In6(a) && a.bytes.subarray(0, 15).every((b) => b === 0) && a.bytes[15] === 1;
}

export function isLinkLocalMulticast(a: Addr): boolean {
  if (is4(a)) return a.bytes[0] === 224 && a.bytes[1] === 0 && a.bytes[2] === 0;
  return !is4In6(a) && a.bytes[0] === 0xff && (a.bytes[1]! & 0x0f) === 0x02;
}

export function isLinkLocalUnicast(a: Addr): boolean {
  if (is4(a)) return a.bytes[0] === 169 && a.bytes[1] === 254;
  return !is4In6(a) && a.bytes[0] === 0xfe && (a.bytes[1]! & 0xc0) === 0x80;
}

/** `Addr.IsGlobalUnicast()` (Go semantics: not the broadcast address, not unspecified/loopback/multicast/link-local). */
export function isGlobalUnicast(a: Addr): boolean {
  if (is4(a)) {
    if (a.bytes.every((b) => b === 255)) return false;
    if (a.bytes[0]! >= 224 && a.bytes[0]! <= 239) return false;
  } else if (a.bytes[0] === 0xff) return false;
  return !isUnspecified(a) && !isLoopback(a) && !isLinkLocalUnicast(a);
}

function prefixError(input: string, msg: string): string {
  return `netip.ParsePrefix(${goQuote(input)}): ${msg}`;
}

/** `netip.ParsePrefix`: a prefix or Go's error text. */
export function parsePrefix(s: string): Prefix | string {
  const i = s.lastIndexOf("/");
  if (i < 0) return prefixError(s, "no '/'");
  const addr = parseAddr(s.slice(0, i));
  if (typeof addr === "string") return prefixError(s, addr);
  if (!is4(addr) && addr.zone !== "") return prefixError(s, "IPv6 zones cannot be present in a prefix");
  const bitsStr = s.slice(i + 1);
  const bad = prefixError(s, "bad bits after slash: " + goQuote(bitsStr));
  if (bitsStr.length > 1 && (bitsStr[0]! < "1" || bitsStr[0]! > "9")) return bad;
  if (!/^[+-]?[0-9]+$/.test(bitsStr)) return bad;
  const bits = Number(bitsStr);
  const max = is4(addr) ? 32 : 128;
  if (bits < 0 || bits > max) return prefixError(s, "prefix length out of range");
  return { addr, bits };
}

/** `Prefix.Masked()`. */
export function maskedPrefix(p: Prefix): Prefix {
  const b = new Uint8Array(p.addr.bytes);
  for (let i = 0; i < b.length; i++) {
    const keep = Math.max(0, Math.min(8, p.bits - i * 8));
    b[i] = b[i]! & ((0xff << (8 - keep)) & 0xff);
  }
  return { addr: { bytes: b, zone: "" }, bits: p.bits };
}

/** `Prefix.Contains(ip)`: same family, no zone, and the masked bits match. */
export function prefixContains(p: Prefix, a: Addr): boolean {
  if (a.zone !== "" || a.bytes.length !== p.addr.bytes.length) return false;
  const m1 = maskedPrefix(p).addr.bytes;
  const m2 = maskedPrefix({ addr: a, bits: p.bits }).addr.bytes;
  return m1.every((x, i) => x === m2[i]);
}

/** `Prefix.Overlaps(o)`. */
export function prefixOverlaps(p: Prefix, o: Prefix): boolean {
  if (p.addr.bytes.length !== o.addr.bytes.length) return false;
  const bits = Math.min(p.bits, o.bits);
  const a = maskedPrefix({ addr: p.addr, bits }).addr.bytes;
  const b = maskedPrefix({ addr: o.addr, bits }).addr.bytes;
  return a.every((x, i) => x === b[i]);
}

/** `Prefix.String()`. */
export function prefixString(p: Prefix): string {
  return `${addrString(p.addr)}/${p.bits}`;
}

/** Kubernetes' `parseIPAddr` for the CEL ip library. */
export function parseKubernetesIP(raw: string): Addr | string {
  const a = parseAddr(raw);
  if (typeof a === "string") return `IP Address ${goQuote(raw)} parse error during conversion from string: ${a}`;
  if (a.zone !== "") return `IP address ${goQuote(raw)} with zone value is not allowed`;
  if (is4In6(a)) return `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`;
  return a;
}

/** Kubernetes' `parseCIDR` for the CEL cidr library. */
export function parseKubernetesCIDR(raw: string): Prefix | string {
  const p = parsePrefix(raw);
  if (typeof p === "string") return `network address parse error during conversion from string: ${p}`;
  if (is4In6(p.addr)) return `IPv4-mapped IPv6 address ${goQuote(raw)} is not allowed`;
  return p;
}
