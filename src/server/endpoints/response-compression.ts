/**
 * API response compression, as kube-apiserver's APIResponseCompression (on by default) does it in
 * `SerializeObject`: the answer of an API object (objects, lists, tables, errors, discovery documents; not
 * watches, `/version` or OpenAPI, which has gziphandler's own rule) whose encoding is longer than 128 KiB is
 * gzipped at level 1 when the client accepts it, with `Content-Encoding: gzip` and `Vary: Accept-Encoding`.
 */
import type { IncomingMessage } from "node:http";
import { gzipSync } from "node:zlib";

/** `defaultGzipThresholdBytes`: an answer is compressed only when it is longer. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/**
 * `ContentEncodingSupported`: whether `Accept-Encoding` names `gzip` as one of its comma-separated tokens,
 * spaces trimmed and nothing else (`gzip;q=0.5`, `GZIP` and `*` do not count).
 */
export function acceptsGzipToken(header: string | undefined): boolean {
  if (header === undefined || header === "") return false;
  for (const token of header.split(",")) if (token.trim() === "gzip") return true;
  return false;
}

/** The gzipped answer when `body` is longer than the threshold and the request accepts gzip, else undefined. */
export function compressedAnswer(req: IncomingMessage | undefined, body: string | Buffer, length = typeof body === "string" ? Buffer.byteLength(body) : body.length): Buffer | undefined {
  if (length <= GZIP_THRESHOLD_BYTES || req === undefined || !acceptsGzipToken(req.headers["accept-encoding"])) return undefined;
  return gzipSync(typeof body === "string" ? Buffer.from(body, "utf8") : body, { level: 1 });
}
