/**
 * Go `net/url`: `url.ParseRequestURI` acceptance (the `uri` string format and Kubernetes' CEL `url()` /
 * `isURL()`), its error text, and the parts of `url.URL` that Kubernetes' CEL URL library exposes.
 */
import { goQuote } from "./fmt.js";
import { parseIP } from "./net.js";
import { goStringFromBytes } from "./utf8.js";

export interface GoURL {
  scheme: string;
  opaque: string;
  host: string;
  /** Escaped path as written (RawPath or Path re-escaped; input was accepted, so the raw form is used). */
  rawPath: string;
  rawQuery: string;
}

/** Splits an accepted request URI into its parts (Go `url.Parse` without the fragment rules of ParseRequestURI). */
export function splitURL(raw: string): GoURL {
  let rest = raw;
  let rawQuery = "";
  let scheme = "";
  // Parse (unlike ParseRequestURI) cuts the fragment first.
  const hash = rest.indexOf("#");
  if (hash >= 0) rest = rest.slice(0, hash);
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  }
  const q = rest.indexOf("?");
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (scheme !== "" && !rest.startsWith("/")) return { scheme, opaque: rest, host: "", rawPath: "", rawQuery };
  let host = "";
  if (rest.startsWith("//")) {
    const r = rest.slice(2);
    const slash = r.indexOf("/");
    const authority = slash >= 0 ? r.slice(0, slash) : r;
    rest = slash >= 0 ? r.slice(slash) : "";
    const at = authority.lastIndexOf("@");
    host = decodeHost(at >= 0 ? authority.slice(at + 1) : authority);
  }
  return { scheme, opaque: "", host, rawPath: rest, rawQuery };
}

function decodeHost(h: string): string {
  return h.replace(/%([0-9a-fA-F]{2})/g, (_, x: string) => String.fromCharCode(Number.parseInt(x, 16)));
}

/** `URL.Hostname()`. */
export function urlHostname(u: GoURL): string {
  const h = u.host;
  const [host] = splitHostPort(h);
  if (host.startsWith("[") && host.endsWith("]")) return host.slice(1, -1);
  return host;
}

/** `URL.Port()`. */
export function urlPort(u: GoURL): string {
  return splitHostPort(u.host)[1];
}

function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = "";
  const colon = host.lastIndexOf(":");
  if (colon !== -1 && /^:[0-9]*$/.test(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  return [host, port];
}

/** `url.ParseQuery`: key → values (invalid pairs skipped, as Go's `Query()` ignores the error). */
export function parseQuery(q: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [k, v] of queryPairs(q)) {
    const arr = out.get(k);
    if (arr) arr.push(v);
    else out.set(k, [v]);
  }
  return out;
}

/**
 * The pairs `url.ParseQuery` keeps, in their order: split at `&`, empty parts and parts with a `;` or a bad
 * `%` escape skipped, key and value (split at the first `=`) unescaped with `+` as a space.
 */
export function queryPairs(q: string, keepBytes = false): [string, string][] {
  const out: [string, string][] = [];
  for (const part of q.split("&")) {
    if (part === "" || part.includes(";")) continue;
    const eq = part.indexOf("=");
    const k = queryUnescape(eq >= 0 ? part.slice(0, eq) : part, keepBytes);
    const v = queryUnescape(eq >= 0 ? part.slice(eq + 1) : "", keepBytes);
    if (k === undefined || v === undefined) continue;
    out.push([k, v]);
  }
  return out;
}

/**
 * `url.QueryUnescape`. `keepBytes`: bytes that are not UTF-8 stay bytes, as in a Go string (lone surrogates, see
 * utf8.ts `goStringFromBytes`); otherwise they read as U+FFFD.
 */
function queryUnescape(s: string, keepBytes: boolean): string | undefined {
  // Surrogates (a lone one reads as U+FFFD) take the byte-wise way below.
  const surrogates = /[\ud800-\udfff]/.test(s);
  if (!surrogates && !s.includes("%")) return s.includes("+") ? s.replaceAll("+", " ") : s;
  if (/%(?![0-9a-fA-F]{2})/.test(s)) return undefined;
  if (!surrogates) {
    try {
      return decodeURIComponent(s.replaceAll("+", " "));
    } catch {
      // Invalid UTF-8 after decoding: read byte by byte below (invalid sequences as U+FFFD).
    }
  }
  const bytes: number[] = [];
  const utf8 = new TextEncoder();
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "%") {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c === "+") bytes.push(0x20);
    else {
      // A whole code point (a surrogate pair is one character; a lone surrogate encodes as U+FFFD).
      const cp = s.codePointAt(i)!;
      for (const b of utf8.encode(String.fromCodePoint(cp))) bytes.push(b);
      if (cp > 0xffff) i++;
    }
  }
  return keepBytes ? goStringFromBytes(new Uint8Array(bytes)) : new TextDecoder().decode(new Uint8Array(bytes));
}

/** Go's ParseRequestURI error text for a rejected string (best effort; the common case). */
export function requestURIError(raw: string): string {
  if (raw === "") return `parse "": empty url`;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return `parse ${goQuote(raw)}: net/url: invalid control character in URL`;
  }
  if (raw.startsWith(":")) return `parse ${goQuote(raw)}: missing protocol scheme`;
  return `parse ${goQuote(raw)}: invalid URI for request`;
}

/** Go `shouldEscape(c, encodePath)` for one byte. */
function pathShouldEscape(b: number): boolean {
  const c = String.fromCharCode(b);
  if (/^[A-Za-z0-9\-_.~]$/.test(c)) return false;
  if ("$&+,/:;=@".includes(c)) return false;
  return true;
}

/** `URL.EscapedPath()` from the raw (as written) path. */
export function escapedPath(rawPath: string): string {
  const bytes = new TextEncoder().encode(rawPath);
  let valid = true;
  for (const b of bytes) {
    const c = String.fromCharCode(b);
    if ("!$&'()*+,;=:@[]%".includes(c)) continue;
    if (pathShouldEscape(b)) {
      valid = false;
      break;
    }
  }
  if (valid) return rawPath;
  const decoded = rawPath.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  const raw = new Uint8Array([...decoded].flatMap((ch) => (ch.charCodeAt(0) < 0x100 && ch.length === 1 ? [ch.charCodeAt(0)] : [...new TextEncoder().encode(ch)])));
  let out = "";
  for (const b of raw) out += pathShouldEscape(b) ? `%${b.toString(16).toUpperCase().padStart(2, "0")}` : String.fromCharCode(b);
  return out;
}

/**
 * Go `net/url.ParseRequestURI` acceptance (the `uri` string format): an absolute URI or an absolute
 * path, no fragment splitting, `%` escapes checked, host characters checked as Go does.
 */

function isHex(c: string | undefined): boolean {
  return c !== undefined && /^[0-9a-fA-F]$/.test(c);
}

type Mode = "path" | "host" | "zone" | "user";

/** Go `shouldEscape(c, encodeHost)` for ASCII bytes. */
function hostShouldEscape(c: string): boolean {
  if (/^[a-zA-Z0-9]$/.test(c)) return false;
  if ("!$&'()*+,;=:[]<>\"".includes(c)) return false;
  if ("-_.~".includes(c)) return false;
  return true;
}

/** Go `unescape(s, mode)` succeeds. Works on UTF-16 units; non-ASCII is always fine. */
function unescapeOk(s: string, mode: Mode): boolean {
  for (let i = 0; i < s.length; ) {
    const c = s[i]!;
    if (c === "%") {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2])) return false;
      const hi = Number.parseInt(s[i + 1]!, 16);
      const v = Number.parseInt(s.slice(i + 1, i + 3), 16);
      if (mode === "host" && hi < 8 && s.slice(i, i + 3) !== "%25") return false;
      if (mode === "zone" && s.slice(i, i + 3) !== "%25" && v !== 0x20 && v < 0x80 && hostShouldEscape(String.fromCharCode(v)))
        return false;
      i += 3;
      continue;
    }
    if ((mode === "host" || mode === "zone") && s.charCodeAt(i) < 0x80 && hostShouldEscape(c)) return false;
    i++;
  }
  return true;
}

function validOptionalPort(port: string): boolean {
  if (port === "") return true;
  if (port[0] !== ":") return false;
  return /^[0-9]*$/.test(port.slice(1));
}

/** Go `unescape` result text (only called on input that `unescapeOk` accepted). */
function unescaped(s: string): string {
  return s.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
}

/** `netip.ParseAddr(s)` yields an IPv6 address (zone allowed, IPv4 and errors rejected). */
function isIPv6Literal(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "." || c === "%") return false;
    if (c === ":") {
      const z = s.indexOf("%");
      if (z === s.length - 1) return false;
      return parseIP(z >= 0 ? s.slice(0, z) : s) && (z >= 0 ? s.slice(0, z) : s).includes(":");
    }
  }
  return false;
}

/**
 * Go `parseHost` (Go ≥ 1.24.8 / 1.25.2, CVE-2025-47912): a bracketed host must be the whole host and an
 * IPv6 literal; otherwise the port starts at the first colon (http/https) or the last one.
 */
function parseHostOk(host: string, scheme: string): boolean {
  const open = host.lastIndexOf("[");
  if (open > 0) return false;
  if (open === 0) {
    const close = host.lastIndexOf("]");
    if (close < 0) return false;
    const colonPort = host.slice(close + 1);
    if (!validOptionalPort(colonPort) || !unescapeOk(colonPort, "host")) return false;
    const hostname = host.slice(1, close);
    const zone = hostname.indexOf("%25");
    let addr: string;
    if (zone >= 0) {
      if (!unescapeOk(hostname.slice(0, zone), "host") || !unescapeOk(hostname.slice(zone), "zone")) return false;
      addr = unescaped(hostname.slice(0, zone)) + unescaped(hostname.slice(zone));
    } else {
      if (!unescapeOk(hostname, "host")) return false;
      addr = unescaped(hostname);
    }
    return isIPv6Literal(addr);
  }
  let i = host.indexOf(":");
  if (i !== -1) {
    // Several colons: the first starts the port for http/https, the last one otherwise (host lists).
    const last = host.lastIndexOf(":");
    if (last !== i && scheme !== "http" && scheme !== "https") i = last;
    if (!validOptionalPort(host.slice(i))) return false;
  }
  return unescapeOk(host, "host");
}

function validUserinfo(s: string): boolean {
  return /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);
}

function parseAuthorityOk(authority: string, scheme: string): boolean {
  const i = authority.lastIndexOf("@");
  if (!parseHostOk(i < 0 ? authority : authority.slice(i + 1), scheme)) return false;
  if (i < 0) return true;
  const userinfo = authority.slice(0, i);
  if (!validUserinfo(userinfo)) return false;
  return unescapeOk(userinfo, "user");
}

/** Go `getScheme`: [scheme, rest] or null for "missing protocol scheme". */
function getScheme(raw: string): [string, string] | null {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z")) continue;
    if ((c >= "0" && c <= "9") || c === "+" || c === "-" || c === ".") {
      if (i === 0) return ["", raw];
      continue;
    }
    if (c === ":") {
      if (i === 0) return null;
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ["", raw];
  }
  return ["", raw];
}

/** The parts of a URL that Go `url.ParseRequestURI` accepted which a server routes on. */
export interface GoRequestURI {
  /** `URL.Path`: the path with its `%` escapes decoded (bytes read as UTF-8; "" for an opaque URI). */
  path: string;
  /** `URL.RawQuery`: after the first `?`, as written (`#` and all; "" for a lone trailing `?`). */
  rawQuery: string;
}

/** True when Go `url.ParseRequestURI(raw)` returns no error. */
export function isRequestURI(raw: string): boolean {
  return acceptRequestURI(raw) !== undefined;
}

/**
 * Go `url.ParseRequestURI(raw)` (`parse(raw, viaRequest=true)`): undefined where Go returns an error, else its
 * path and raw query. No fragment is cut (`#` is part of the path or query), `//x` is a path unless a scheme
 * precedes it, a scheme without `/` is opaque (path ""), and `*` is the path `*`.
 */
export function parseRequestURI(raw: string): GoRequestURI | undefined {
  const u = acceptRequestURI(raw);
  if (u === undefined || !u.path.includes("%")) return u;
  return { path: unescapePath(u.path), rawQuery: u.rawQuery };
}

/** `parseRequestURI` with the path as written (its escapes checked, not decoded). */
function acceptRequestURI(raw: string): GoRequestURI | undefined {
  // stringContainsCTLByte
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return undefined;
  }
  if (raw === "") return undefined;
  if (raw === "*") return { path: "*", rawQuery: "" };
  const sch = getScheme(raw);
  if (!sch) return undefined;
  const scheme = sch[0].toLowerCase();
  let rest = sch[1];
  let rawQuery = "";
  const q = rest.indexOf("?");
  // A lone trailing `?` is ForceQuery: an empty query either way.
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith("/")) return scheme !== "" ? { path: "", rawQuery } : undefined;
  if (scheme !== "" && rest.startsWith("//")) {
    let authority = rest.slice(2);
    rest = "";
    const i = authority.indexOf("/");
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    if (!parseAuthorityOk(authority, scheme)) return undefined;
  }
  if (rest.includes("%") && !unescapeOk(rest, "path")) return undefined;
  return { path: rest, rawQuery };
}

/**
 * Go `unescape(s, encodePath)` of an accepted path: `%XX` to its byte, the bytes kept as a Go string keeps them
 * (an invalid UTF-8 byte as a lone surrogate, see `goStringFromBytes`).
 */
function unescapePath(s: string): string {
  const bytes: number[] = [];
  const utf8 = new TextEncoder();
  for (let i = 0; i < s.length; ) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 3;
    } else if (c < 0x80) {
      bytes.push(c);
      i++;
    } else {
      const cp = s.codePointAt(i)!;
      for (const b of utf8.encode(String.fromCodePoint(cp))) bytes.push(b);
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return goStringFromBytes(new Uint8Array(bytes));
}
