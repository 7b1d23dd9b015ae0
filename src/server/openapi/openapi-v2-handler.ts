/**
 * `GET /openapi/v2` as kube-openapi's handler answers it (`RegisterOpenAPIVersionedService` behind
 * NYTimes' gziphandler): the Accept clauses, best first (goautoneg), pick JSON or the protobuf form (both
 * spellings, `…spec.v2@v1.0+protobuf` and `…spec.v2.v1.0+protobuf`, answered as the latter); none → 406
 * with an empty body. Both forms share one ETag (the SHA-512 of the JSON text, in upper-case hex) and
 * `Vary: Accept`; conditional and range requests as `http.ServeContent` answers them (endpoints/serve-content.ts);
 * bodies of 1400 bytes or more are gzipped when the client accepts gzip.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import type { JsonObject } from "../../value/json-value.js";
import { toJson } from "../endpoints/http-io.js";
import { openApiV2Protobuf } from "./openapi-v2-protobuf.js";
import { serveContent } from "../endpoints/serve-content.js";

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

/** goautoneg's `Less`: not a strict order, so its result depends on the sort (below, Go's). */
function less(a: Clause, b: Clause): boolean {
  return a.q > b.q || (a.type !== "*" && b.type === "*") || (a.subType !== "*" && b.subType === "*");
}

/**
 * goautoneg's `ParseAccept`: clauses sorted by `sort.Sort` with its `Less` (Go's insertion sort, which
 * pdqsort uses for up to 12 elements; longer headers are sorted the same way here).
 */
function parseAccept(header: string): Clause[] {
  const out: Clause[] = [];
  for (const part of header.split(",")) {
    const [range = "", ...params] = part.trim().split(";");
    const [type = "", subType, extra] = range.split("/");
    if (extra !== undefined) continue;
    const clause: Clause = { type: type.trim(), subType: subType === undefined ? "*" : subType.trim(), q: 1 };
    if (subType === undefined && clause.type !== "*") continue;
    for (const p of params) {
      const kv = p.split("=");
      if (kv.length !== 2 || kv[0]!.trim() !== "q") continue;
      // strconv.ParseFloat of the untrimmed text; an error leaves 0.
      clause.q = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(kv[1]!) ? Number(kv[1]) : 0;
    }
    out.push(clause);
  }
  for (let i = 1; i < out.length; i++) {
    for (let j = i; j > 0 && less(out[j]!, out[j - 1]!); j--) [out[j - 1], out[j]] = [out[j]!, out[j - 1]!];
  }
  return out;
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
    res.setHeader("Cache-Control", "no-cache, private");
    res.setHeader("Content-Type", format.contentType);
    res.setHeader("Etag", `"${answer.etag}"`);
    res.setHeader("Vary", vary);
    // gziphandler compresses what ServeContent writes (a whole body or a range) from 1400 bytes.
    const encode = (sent: Buffer): Buffer => {
      if (!gzip || sent.length < GZIP_MIN_SIZE) return sent;
      res.setHeader("Content-Encoding", "gzip");
      return gzipSync(sent);
    };
    serveContent(req, res, answer.lastModified, format.proto ? answer.protobuf() : answer.json, encode);
    return;
  }
  res.writeHead(406, { "Cache-Control": "no-cache, private", Vary: vary, "Content-Length": "0" });
  res.end();
}
