/** Reading request bodies and writing JSON responses with node:http. */
import { parseSimpleJsonBody } from "./json-body-fast.js";
import { trailingDataError } from "../../pipeline/request-body.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import { decodeDocuments } from "../../io/decode.js";
import { decodeJsonStream } from "../../io/json-decode.js";
import { goJsonIndent, goJsonMarshal } from "../../go/json.js";
import { parseGoBool } from "../../go/strconv.js";
import { parseQuery } from "../../go/url.js";
import { goYamlMarshal } from "../../go/yaml.js";
import { MAX_DEPTH } from "../../io/yaml-decode.js";
import { depthExceeds } from "../../value/json-depth.js";
import { isStatus, statusJson, statusValue } from "./status-json.js";
import { typedJson } from "../typed/typed-json.js";
import type { JsonValue } from "../../value/json-value.js";
import { PROTOBUF_MEDIA_TYPE, protobufRequestBody } from "./protobuf-body.js";
import { ApiError, apiErrors } from "./errors.js";
import { warningHeaders } from "./warning-headers.js";
import { compressedAnswer } from "./response-compression.js";
import { auditHeader, auditIdOf } from "../filters/audit-id.js";

/** A YAML body that is one null scalar (`null`, `~`), optionally after a `---`. */
const YAML_NULL = /^\s*(?:---\s+)?(?:null|Null|NULL|~)\s*$/;

/** Kubernetes' request body limit (3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** Bodies read so far: a handler run again (an update retried after a storage conflict) reads the same body. */
const bodies = new WeakMap<IncomingMessage, Promise<Buffer>>();

/** Reads the whole body (once per request); rejects with 413 past `limit` bytes. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  let body = bodies.get(req);
  if (body === undefined) {
    body = readBodyOnce(req, limit);
    bodies.set(req, body);
  }
  return body;
}

function readBodyOnce(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    if (declared > limit) {
      req.resume();
      reject(apiErrors.tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(apiErrors.tooLarge(limit));
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on("error", (e) => {
      if (!failed) reject(e);
    });
  });
}

/** The media type of a Content-Type header, lower-cased, without parameters ("" when absent). */
export function mediaType(header: string | undefined): string {
  return (header ?? "").split(";")[0]!.trim().toLowerCase();
}

/** A decoded request body and its strict-decoding problems (duplicate fields). */
export interface DecodedBody {
  value: JsonValue;
  strictErrors: string[];
  /** With `allowOutOfRange`: the first number literal beyond float64 (decoded as ±Infinity). */
  outOfRange?: string;
}

/**
 * Decodes a body as the API server does (int64 vs float64, duplicate fields reported), as JSON or, for
 * YAML media types, YAML. Throws {@link ApiError} 400 naming `describe` (the expected kind) on bad input.
 */
export function decodeBody(body: Buffer, contentType: string, describe: string, allowOutOfRange = false): DecodedBody {
  if (contentType === PROTOBUF_MEDIA_TYPE) return { value: protobufRequestBody(body, describe), strictErrors: [] };
  const text = body.toString("utf8");
  const yamlish = contentType === "application/yaml" || contentType === "application/apply-patch+yaml";
  const bad = (msg: string) =>
    apiErrors.badRequest(`the object provided is unrecognized (must be of type ${describe}): couldn't get version/kind; json parse error: ${msg}`);
  if (!yamlish) {
    const simple = parseSimpleJsonBody(text);
    if (simple !== undefined && !depthExceeds(simple, MAX_DEPTH)) return { value: simple, strictErrors: [] };
    const jsonBad = (msg: string) => unrecognizedBody(describe, `couldn't get version/kind; json parse error: ${msg}`, body);
    const r = decodeJsonStream(text, { recordRangeErrors: true });
    const doc = r.documents[0];
    if (!doc) throw jsonBad(r.problem?.message ?? "unexpected end of JSON input");
    // json.Unmarshal checks the whole body first: anything after the first value is its error
    if (r.problem || r.documents.length > 1) throw jsonBad(trailingDataError(text, doc.offset));
    if (r.outOfRange !== undefined) {
      if (!allowOutOfRange) throw jsonBad(`strconv.ParseFloat: parsing ${JSON.stringify(r.outOfRange)}: value out of range`);
      return { value: doc.value, strictErrors: doc.duplicateFields, outOfRange: r.outOfRange };
    }
    // The server keeps its request objects within crdkit's 1,000-level limit (the JSON reader itself goes to
    // Kubernetes' 10,000): answered as the JSON scanner answers its own limit.
    if (depthExceeds(doc.value, MAX_DEPTH)) throw jsonBad("invalid character '{' exceeded max depth");
    return { value: doc.value, strictErrors: doc.duplicateFields };
  }
  const docs = decodeDocuments(text, { format: "yaml", whole: true });
  const doc = docs[0];
  // A document that is YAML's null (which a list of documents leaves out) converts to JSON `null`.
  if (!doc && YAML_NULL.test(text)) return { value: null, strictErrors: [] };
  if (!doc) throw bad("empty body");
  if (doc.problem || doc.value === undefined) throw bad(doc.problem?.message ?? "empty body");
  // Aliases can nest a value deeper than the text does.
  if (depthExceeds(doc.value, MAX_DEPTH)) throw bad(`yaml: exceeded max depth of ${MAX_DEPTH}`);
  return { value: doc.value, strictErrors: doc.strictErrors };
}

/** `summarizeData(body, 30)` of the API server's decode errors: JSON text, other bodies as hex. */
export function summarizeBody(body: Buffer, max = 30): string {
  if (body.length === 0) return "<empty>";
  const part = body.length > max ? body.subarray(0, max) : body;
  const more = body.length > max ? " ..." : "";
  return body[0] === 0x7b ? part.toString("utf8") + more : part.toString("hex") + more;
}

/** `transformDecodeError` for a body whose kind could not be read: 400 with a summary of the body. */
export function unrecognizedBody(describe: string, err: string, body: Buffer): ApiError {
  return apiErrors.badRequest(`the object provided is unrecognized (must be of type ${describe}): ${err} (${summarizeBody(body)})`);
}

/**
 * JSON text as Go's encoding/json writes the answer: unstructured objects (custom resources) with sorted keys,
 * typed objects (Status, CRDs, discovery documents, Table, Scale, …) in their struct's field order.
 */
export function toJson(v: JsonValue): string {
  return isStatus(v) ? statusJson(v) : (typedJson(v) ?? goJsonMarshal(v));
}

/** x/net/http2's `handlerChunkWriteSize`: the response bytes buffered before the head is written. */
const H2_BUFFERED_BODY = 4096;

/**
 * Sends `body` as JSON (`json`: its text, already encoded, with json.Encoder's newline; as YAML when
 * `contentType` is `application/yaml`)
 * with `code`, plus `Warning` headers.
 */
export function sendJson(
  res: ServerResponse,
  code: number,
  body: JsonValue,
  opts: { contentType?: string; warnings?: readonly string[]; cacheControl?: string; json?: string; pretty?: boolean } = {},
): void {
  // Go's json.Encoder ends the text with a newline (`opts.json` has it already); the pretty serializer
  // (json.MarshalIndent) does not (goJsonIndent skips the newline as any space between tokens).
  const text =
    opts.contentType === "application/yaml"
      ? goYamlMarshal(isStatus(body) ? statusValue(body) : body)
      : opts.pretty
        ? goJsonIndent(opts.json ?? toJson(body))
        : (opts.json ?? `${toJson(body)}\n`);
  const headers: Record<string, string | string[]> = { "Content-Type": opts.contentType ?? "application/json" };
  const textLength = Buffer.byteLength(text);
  const gzipped = compressedAnswer(res.req, text, textLength);
  const length = gzipped?.length ?? textLength;
  // x/net/http2 declares the length only of a body its 4 KiB write buffer held when the handler returned;
  // a larger one is sent without (HTTP/1.1 answers keep Content-Length).
  if (length <= H2_BUFFERED_BODY || res.req?.httpVersionMajor !== 2) headers["Content-Length"] = String(length);
  headers["Cache-Control"] = opts.cacheControl ?? "no-cache, private";
  const auditId = auditIdOf(res);
  if (auditId !== undefined) headers["Audit-Id"] = auditId;
  if (gzipped) {
    headers["Content-Encoding"] = "gzip";
    headers["Vary"] = "Accept-Encoding";
  }
  const warnings = opts.warnings && opts.warnings.length > 0 ? warningHeaders(opts.warnings) : [];
  if (warnings.length > 0) headers["Warning"] = warnings;
  try {
    res.writeHead(code, headers);
  } catch {
    // A header Node refuses must not turn a committed write into a failure: answer without warnings.
    delete headers["Warning"];
    for (const name of res.getHeaderNames()) if (name === "warning") res.removeHeader(name);
    res.writeHead(code, headers);
  }
  // A string body is sent with the head in one write (a Buffer goes as a second chunk, a writev); but Node
  // then encodes the head with the body's encoding, and Warning values carry UTF-8 as bytes (one char per
  // byte): with a warning the body goes as a Buffer, the head as the bytes it holds.
  if (gzipped) res.end(gzipped);
  else if (warnings.length === 0 && !res.hasHeader("warning")) res.end(text, "utf8");
  else res.end(Buffer.from(text, "utf8"));
}

/**
 * `isPrettyPrint`: whether an answer is indented — `?pretty=` as strconv.ParseBool reads it (a malformed value
 * is false), else for the user agents of browsers and command-line HTTP tools (curl, Wget).
 */
export function isPrettyPrint(rawQuery: string, userAgent: string | undefined): boolean {
  if (rawQuery.includes("pretty")) {
    const v = parseQuery(rawQuery).get("pretty")?.[0] ?? "";
    if (v !== "") return parseGoBool(v) === true;
  }
  const ua = userAgent ?? "";
  return ua.startsWith("curl") || ua.startsWith("Wget") || ua.startsWith("Mozilla/5.0");
}

/** Sends an {@link ApiError}'s Status. */
export function sendError(res: ServerResponse, err: ApiError, warnings?: readonly string[], yaml = false, pretty = false): void {
  if (err.encoded !== undefined) {
    const encoded = typeof err.encoded.body === "string" ? Buffer.from(err.encoded.body, "utf8") : Buffer.from(err.encoded.body);
    const gzipped = compressedAnswer(res.req, encoded);
    const body = gzipped ?? encoded;
    const headers: Record<string, string | string[]> = {
      "Cache-Control": "no-cache, private",
      "Content-Type": err.encoded.contentType,
      "Content-Length": String(body.length),
      ...(gzipped ? { "Content-Encoding": "gzip", Vary: "Accept-Encoding" } : {}),
      ...auditHeader(res),
    };
    // The request's warnings (decoding's unknown fields) go with the error in any encoding.
    const w = warnings && warnings.length > 0 ? warningHeaders(warnings) : [];
    if (w.length > 0) headers["Warning"] = w;
    try {
      res.writeHead(err.status.code, headers);
    } catch {
      delete headers["Warning"];
      for (const name of res.getHeaderNames()) if (name === "warning") res.removeHeader(name);
      res.writeHead(err.status.code, headers);
    }
    res.end(body);
    return;
  }
  if (err.plainText !== undefined) {
    res.writeHead(err.status.code, {
      "Cache-Control": "no-cache, private",
      "Content-Type": "text/plain; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
      "Content-Length": String(Buffer.byteLength(err.plainText)),
      ...auditHeader(res),
    });
    res.end(err.plainText);
    return;
  }
  sendJson(res, err.status.code, err.status as unknown as JsonValue, { ...(warnings ? { warnings } : {}), ...(yaml ? { contentType: "application/yaml" } : {}), pretty });
}

export { ApiError };
