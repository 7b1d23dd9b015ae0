/**
 * `GET /openapi/v2` as kube-openapi's handler answers it (`RegisterOpenAPIVersionedService` behind
 * NYTimes' gziphandler): the Accept clauses, best first (goautoneg), pick JSON or the protobuf form (both
 * spellings, `…spec.v2@v1.0+protobuf` and `…spec.v2.v1.0+protobuf`, answered as the latter); none → 406
 * with an empty body. Both forms share one ETag (the SHA-512 of the JSON text, in upper-case hex) and
 * `Vary: Accept`; `If-None-Match` with that ETag gets 304 (`http.ServeContent`); bodies of 1400 bytes or more
 * are gzipped when the client accepts gzip. Range requests are answered whole.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import type { JsonObject } from "../../value/json-value.js";
import { toJson } from "../endpoints/http-io.js";
import { openApiV2Protobuf } from "./openapi-v2-protobuf.js";

export const OPENAPI_V2_PROTOBUF = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

/** The subtypes the handler answers, in its order, with the media type each is answered as. */
const FORMATS: readonly { subType: string; contentType: string; proto: boolean }[] = [
  { subType: "json", contentType: "application/json", proto: false },
  { subType: "com.github.proto-openapi.spec.v2@v1.0+protobuf", contentType: OPENAPI_V2_PROTOBUF, proto: true },
  { subType: "com.github.proto-openapi.spec.v2.v1.0+protobuf", contentType: OPENAPI_V2_PROTOBUF, proto: true },
];

/** gziphandler's DefaultMinSize. */
const GZIP_MIN_SIZE = 1400;

interface Clause {
  type: string;
  subType: string;
  q: number;
}

/** goautoneg's `ParseAccept`: clauses sorted by quality, then by specificity (stable). */
function parseAccept(header: string): Clause[] {
  const out: Clause[] = [];
  for (const part of header.split(",")) {
    const [range = "", ...params] = part.trim().split(";");
    const [type = "", subType, extra] = range.trim().split("/");
    if (extra !== undefined) continue;
    const clause: Clause = { type: type.trim(), subType: (subType ?? (type.trim() === "*" ? "*" : "")).trim(), q: 1 };
    if (subType === undefined && clause.type !== "*") continue;
    for (const p of params) {
      const [k, v] = p.split("=").map((x) => x.trim());
      if (k === "q" && v !== undefined) {
        const q = Number.parseFloat(v);
        clause.q = Number.isNaN(q) ? 0 : q;
      }
    }
    out.push(clause);
  }
  const rank = (c: Clause) => (c.type === "*" ? 0 : c.subType === "*" ? 1 : 2);
  return out.map((c, i) => ({ c, i })).sort((a, b) => b.c.q - a.c.q || rank(b.c) - rank(a.c) || a.i - b.i).map((x) => x.c);
}

/** Whether the request accepts a gzipped answer (gziphandler's `acceptsGzip`: `gzip` with a non-zero quality). */
function acceptsGzip(header: string | undefined): boolean {
  for (const part of (header ?? "").split(",")) {
    const [coding = "", ...params] = part.trim().split(";");
    if (coding.trim() !== "gzip") continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    return q === undefined || Number.parseFloat(q.slice(2)) > 0;
  }
  return false;
}

/** One built answer: the document's JSON text, its protobuf form (built on first use) and their ETag. */
export class OpenApiV2Answer {
  readonly json: Buffer;
  readonly etag: string;
  readonly lastModified = new Date();
  private proto: Buffer | undefined;

  constructor(readonly text: string) {
    this.json = Buffer.from(text, "utf8");
    this.etag = createHash("sha512").update(this.json).digest("hex").toUpperCase();
  }

  protobuf(): Buffer {
    this.proto ??= Buffer.from(openApiV2Protobuf(JSON.parse(this.text) as JsonObject));
    return this.proto;
  }
}

/** The answer of the current document, kept (with its protobuf form and Last-Modified) while it is unchanged. */
export class OpenApiV2Cache {
  private last: OpenApiV2Answer | undefined;

  answer(doc: JsonObject): OpenApiV2Answer {
    const text = toJson(doc);
    if (this.last?.text !== text) this.last = new OpenApiV2Answer(text);
    return this.last;
  }
}

/** Answers `GET /openapi/v2` (the caller checked the method). */
export function serveOpenApiV2(req: IncomingMessage, res: ServerResponse, answer: OpenApiV2Answer): void {
  const gzip = acceptsGzip(req.headers["accept-encoding"]);
  const vary = ["Accept-Encoding", "Accept"];
  for (const clause of parseAccept(req.headers.accept || "*/*")) {
    const format = FORMATS.find((f) => (clause.type === "application" || clause.type === "*") && (clause.subType === f.subType || clause.subType === "*"));
    if (!format) continue;
    const etag = `"${answer.etag}"`;
    const headers: Record<string, string | string[]> = {
      "Cache-Control": "no-cache, private",
      "Content-Type": format.contentType,
      Etag: etag,
      "Last-Modified": answer.lastModified.toUTCString(),
      Vary: vary,
    };
    if (req.headers["if-none-match"]?.split(",").some((t) => t.trim() === etag || t.trim() === "*")) {
      delete headers["Content-Type"];
      res.writeHead(304, headers);
      res.end();
      return;
    }
    let body = format.proto ? answer.protobuf() : answer.json;
    if (gzip && body.length >= GZIP_MIN_SIZE) {
      body = gzipSync(body);
      headers["Content-Encoding"] = "gzip";
    }
    headers["Accept-Ranges"] = "bytes";
    headers["Content-Length"] = String(body.length);
    res.writeHead(200, headers);
    res.end(body);
    return;
  }
  res.writeHead(406, { "Cache-Control": "no-cache, private", Vary: vary, "Content-Length": "0" });
  res.end();
}
