/**
 * Go's `http.ServeContent` as kube-openapi's handlers call it for `/openapi/v2`, `/openapi/v3` and its documents:
 * `Last-Modified`; the conditional requests (`If-Match`, `If-Unmodified-Since` → 412, `If-None-Match`,
 * `If-Modified-Since` → 304 without Content-Type, Content-Length, Content-Encoding, and without Last-Modified when
 * there is an ETag); byte ranges (`Range`, `If-Range`: one range → 206 with `Content-Range`, several →
 * `multipart/byteranges`, none overlapping → 416 `invalid range: failed to overlap` with a Content-Range of
 * `*` over the size, a malformed one → 416 `invalid range`); `Accept-Ranges: bytes` and `Content-Length`; no body for HEAD.
 * The caller sets the other headers (ETag, Content-Type, Cache-Control, Vary) on `res` first.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseHttpTime } from "../../go/time.js";

interface ByteRange {
  start: number;
  length: number;
}

/** A precondition's verdict (Go's condResult). */
type Cond = "none" | "true" | "false";

/** textproto.TrimString: ASCII spaces and tabs (and CR, LF) off both ends. */
function trim(s: string): string {
  return s.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, "");
}

/** `scanETag`: a leading `"…"` or `W/"…"` entity tag, and the rest; undefined when there is none. */
function scanETag(s0: string): { etag: string; rest: string } | undefined {
  const s = trim(s0);
  let start = 0;
  if (s.startsWith("W/")) start = 2;
  if (s.length - start < 2 || s[start] !== '"') return undefined;
  for (let i = start + 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) return { etag: s.slice(0, i + 1), rest: s.slice(i + 1) };
    // Character values allowed in ETags: %x21 / %x23-7E / obs-text.
    if (!(c === 0x21 || (c >= 0x23 && c <= 0x7e) || c >= 0x80)) return undefined;
  }
  return undefined;
}

const strongMatch = (a: string, b: string) => a === b && a !== "" && a[0] === '"';
const weakMatch = (a: string, b: string) => a.replace(/^W\//, "") === b.replace(/^W\//, "");

/** The ETags of an If-Match / If-None-Match list: true on `*` or when `match` accepts one. */
function anyETag(list: string, match: (etag: string) => boolean): boolean {
  let s = list;
  for (;;) {
    s = trim(s);
    if (s === "") return false;
    if (s[0] === ",") {
      s = s.slice(1);
      continue;
    }
    if (s[0] === "*") return true;
    const scanned = scanETag(s);
    if (!scanned) return false;
    if (match(scanned.etag)) return true;
    s = scanned.rest;
  }
}

function header(req: IncomingMessage, name: string): string {
  const v = req.headers[name];
  return typeof v === "string" ? v : "";
}

/** Whether the content, modified at `modSec`, is at or before the time in `value` (undefined: no usable time). */
function notAfter(value: string, modSec: number | undefined): boolean | undefined {
  if (value === "" || modSec === undefined) return undefined;
  const t = parseHttpTime(value);
  return t === undefined ? undefined : modSec <= t;
}

/** `parseRange`: the ranges of a Range header over `size` bytes, or the 416's text. */
function parseRange(s: string, size: number): ByteRange[] | string {
  if (s === "") return [];
  if (!s.startsWith("bytes=")) return "invalid range";
  const ranges: ByteRange[] = [];
  let noOverlap = false;
  const int = (x: string) => (/^[+-]?\d+$/.test(x) ? Number(x) : Number.NaN);
  for (const part of s.slice(6).split(",")) {
    const ra = trim(part);
    if (ra === "") continue;
    const dash = ra.indexOf("-");
    if (dash < 0) return "invalid range";
    const startText = trim(ra.slice(0, dash));
    const endText = trim(ra.slice(dash + 1));
    if (startText === "") {
      if (endText === "" || endText[0] === "-") return "invalid range";
      let n = int(endText);
      if (!(n >= 0)) return "invalid range";
      if (n > size) n = size;
      ranges.push({ start: size - n, length: n });
      continue;
    }
    const start = int(startText);
    if (!(start >= 0)) return "invalid range";
    if (start >= size) {
      noOverlap = true;
      continue;
    }
    if (endText === "") {
      ranges.push({ start, length: size - start });
      continue;
    }
    let end = int(endText);
    if (Number.isNaN(end) || start > end) return "invalid range";
    if (end >= size) end = size - 1;
    ranges.push({ start, length: end - start + 1 });
  }
  if (noOverlap && ranges.length === 0) return "invalid range: failed to overlap";
  return ranges;
}

/** `writeNotModified`. */
function notModified(res: ServerResponse): void {
  for (const h of ["Content-Type", "Content-Length", "Content-Encoding"]) res.removeHeader(h);
  if (res.hasHeader("Etag")) res.removeHeader("Last-Modified");
  res.writeHead(304);
  res.end();
}

/**
 * Serves `body` (modified at `modified`) for `req` as http.ServeContent does; `encode` (optional) turns the bytes
 * to send into what goes on the wire (gziphandler around the handler), called only when a body is sent.
 */
export function serveContent(req: IncomingMessage, res: ServerResponse, modified: Date | undefined, body: Buffer, encode?: (sent: Buffer) => Buffer): void {
  const modSec = modified === undefined ? undefined : Math.floor(modified.getTime() / 1000);
  if (modified !== undefined) res.setHeader("Last-Modified", modified.toUTCString());
  const method = req.method ?? "GET";
  const getOrHead = method === "GET" || method === "HEAD";
  const etag = String(res.getHeader("Etag") ?? "");
  // checkPreconditions
  const im = header(req, "if-match");
  let cond: Cond = im === "" ? "none" : anyETag(im, (e) => strongMatch(e, etag)) ? "true" : "false";
  if (cond === "none") {
    const ius = notAfter(header(req, "if-unmodified-since"), modSec);
    cond = ius === undefined ? "none" : ius ? "true" : "false";
  }
  if (cond === "false") {
    res.writeHead(412, { "Content-Length": "0" });
    res.end();
    return;
  }
  const inm = header(req, "if-none-match");
  if (inm !== "") {
    if (anyETag(inm, (e) => weakMatch(e, etag))) {
      if (getOrHead) {
        notModified(res);
        return;
      }
      res.writeHead(412, { "Content-Length": "0" });
      res.end();
      return;
    }
  } else if (getOrHead && notAfter(header(req, "if-modified-since"), modSec) === true) {
    notModified(res);
    return;
  }
  let rangeHeader = header(req, "range");
  if (rangeHeader !== "" && getOrHead) {
    const ir = header(req, "if-range");
    if (ir !== "") {
      const scanned = scanETag(ir);
      const t = scanned ? undefined : parseHttpTime(ir);
      const ok = scanned ? strongMatch(scanned.etag, etag) : modSec !== undefined && t === modSec;
      if (!ok) rangeHeader = "";
    }
  }
  // serveContent
  const size = body.length;
  const ranges = parseRange(rangeHeader, size);
  if (typeof ranges === "string") {
    if (ranges.endsWith("failed to overlap")) res.setHeader("Content-Range", `bytes */${size}`);
    for (const h of ["Etag", "Last-Modified", "Content-Encoding"]) res.removeHeader(h);
    const text = `${ranges}\n`;
    res.writeHead(416, { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff", "Content-Length": String(text.length) });
    res.end(text);
    return;
  }
  let sent = body;
  let code = 200;
  const total = ranges.reduce((n, r) => n + r.length, 0);
  if (total <= size && ranges.length === 1) {
    const r = ranges[0]!;
    sent = body.subarray(r.start, r.start + r.length);
    code = 206;
    res.setHeader("Content-Range", `bytes ${r.start}-${r.start + r.length - 1}/${size}`);
  } else if (total <= size && ranges.length > 1) {
    // mime/multipart's writer: a random 30-byte boundary in hex, each part's headers in sorted order.
    const boundary = randomBytes(30).toString("hex");
    const type = String(res.getHeader("Content-Type") ?? "");
    const parts: Buffer[] = [];
    ranges.forEach((r, i) => {
      const head = `${i > 0 ? "\r\n" : ""}--${boundary}\r\nContent-Range: bytes ${r.start}-${r.start + r.length - 1}/${size}\r\n${type !== "" ? `Content-Type: ${type}\r\n` : ""}\r\n`;
      parts.push(Buffer.from(head, "latin1"), body.subarray(r.start, r.start + r.length));
    });
    parts.push(Buffer.from(`\r\n--${boundary}--\r\n`, "latin1"));
    sent = Buffer.concat(parts);
    code = 206;
    res.setHeader("Content-Type", `multipart/byteranges; boundary=${boundary}`);
  }
  res.setHeader("Accept-Ranges", "bytes");
  const wire = encode ? encode(sent) : sent;
  res.setHeader("Content-Length", String(wire.length));
  res.writeHead(code);
  if (method === "HEAD") res.end();
  else res.end(wire);
}
