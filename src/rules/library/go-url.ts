/**
 * The parts of Go `net/url.URL` that Kubernetes' CEL URL library exposes, for strings already accepted
 * by `url.ParseRequestURI` (see `src/validation/go-url.ts`).
 */
import { goQuote } from "../../value/go-format.js";

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
  for (const part of q.split("&")) {
    if (part === "" || part.includes(";")) continue;
    const eq = part.indexOf("=");
    const k = queryUnescape(eq >= 0 ? part.slice(0, eq) : part);
    const v = queryUnescape(eq >= 0 ? part.slice(eq + 1) : "");
    if (k === undefined || v === undefined) continue;
    const arr = out.get(k);
    if (arr) arr.push(v);
    else out.set(k, [v]);
  }
  return out;
}

function queryUnescape(s: string): string | undefined {
  if (/%(?![0-9a-fA-F]{2})/.test(s)) return undefined;
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "%") {
      bytes.push(Number.parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c === "+") bytes.push(0x20);
    else for (const b of new TextEncoder().encode(c)) bytes.push(b);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
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
