/**
 * Requests given as the raw JSON body the API server receives (rather than a decoded object): bodies that
 * are not JSON, not an object, or that repeat keys are handled as the server does. The body is read like
 * the server's JSON decoder (int64 / float64, repeated keys → strict decoding errors `duplicate field
 * "spec.a"`), then the object goes through the ordinary {@link CompiledCrd} pipeline.
 */
import { decodeJsonStream } from "../io/json-decode.js";
import { goJsonTypeWord, goQuote } from "../go/fmt.js";
import type { JsonObject } from "../value/json-value.js";
import { isObject } from "../value/json-value.js";
import type { CompiledCrd, PipelineResult, RequestOptions } from "./types.js";

/** apimachinery's `summarizeData(data, 30)`: a `{`-body as text, anything else as hex, cut at 30 bytes. */
function summarize(body: string): string {
  const bytes = new TextEncoder().encode(body);
  if (bytes.length === 0) return "<empty>";
  const cut = bytes.length > 30;
  const head = cut ? bytes.slice(0, 30) : bytes;
  const text = body.startsWith("{") ? new TextDecoder().decode(head) : Array.from(head, (b) => b.toString(16).padStart(2, "0")).join("");
  return cut ? `${text} ...` : text;
}

const TYPE_META_STRUCT = 'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';

function unrecognized(kind: string, body: string, err: string): PipelineResult {
  return {
    object: null,
    decodeError: `the object provided is unrecognized (must be of type ${kind}): couldn't get version/kind; json parse error: ${err} (${summarize(body)})`,
    errors: [],
    warnings: [],
    unknownFields: [],
  };
}

/** Offset just after the JSON value starting at `from` (the value is known to be well-formed). */
function valueEnd(body: string, from: number): number {
  // A top-level literal is its word; a number ends at its first character that cannot continue it.
  const first = body[from] ?? "";
  if (first === "t" || first === "n") return from + 4;
  if (first === "f") return from + 5;
  if (/[-0-9]/.test(first)) {
    let j = from + 1;
    while (j < body.length && /[-+.0-9eE]/.test(body[j]!)) j++;
    return j;
  }
  let depth = 0;
  let i = from;
  for (; i < body.length; i++) {
    const c = body[i]!;
    if (depth === 0 && i > from && (c === "{" || c === "[" || c === '"')) return i;
    if (c === '"') {
      for (i++; i < body.length && body[i] !== '"'; i++) if (body[i] === "\\") i++;
      if (depth === 0) return i + 1;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return i + 1;
    } else if (depth === 0 && /[\s,]/.test(c)) return i;
  }
  return i;
}

/** encoding/json's quoting of the offending character. */
function quoteChar(c: string): string {
  // strconv.Quote of the character (a control character is escaped: '\x01', '\u0084')
  return c === "'" ? "'\\''" : c === '"' ? "'\"'" : `'${goQuote(c).slice(1, -1)}'`;
}

/**
 * `json.Unmarshal`'s error for a body with more than its first value (the value at `offset` is well-formed):
 * `invalid character 'x' after top-level value`, naming the first character after it that is not a space.
 */
export function trailingDataError(body: string, offset: number): string {
  let k = valueEnd(body, offset);
  while (k < body.length && " \t\r\n".includes(body[k]!)) k++;
  return `invalid character ${quoteChar(body[k] ?? "")} after top-level value`;
}

/** Decodes a request body as `json.Unmarshal` does: an object plus its strict errors, or the 400 result. */
function decodeBody(c: CompiledCrd, body: string): { obj: JsonObject; strict: string[] } | PipelineResult {
  const kind = c.crd.spec.names.kind;
  const r = decodeJsonStream(body);
  const doc = r.documents[0];
  if (!doc) return unrecognized(kind, body, r.problem?.message ?? "unexpected end of JSON input");
  if (r.problem || r.documents.length > 1) return unrecognized(kind, body, trailingDataError(body, doc.offset));
  const v = doc.value;
  if (v === null) return missingKind(kind, body);
  if (!isObject(v)) return unrecognized(kind, body, `json: cannot unmarshal ${goJsonTypeWord(v)} into Go value of type ${TYPE_META_STRUCT}`);
  return { obj: v, strict: doc.duplicateFields };
}

function missingKind(kind: string, body: string): PipelineResult {
  return {
    object: null,
    decodeError: `the object provided is unrecognized (must be of type ${kind}): Object 'Kind' is missing in '${body}' (${summarize(body)})`,
    errors: [],
    warnings: [],
    unknownFields: [],
  };
}

function withStrict(opts: RequestOptions | undefined, strict: string[]): RequestOptions {
  const o: RequestOptions = { ...opts };
  if (strict.length > 0) o.strictDecodingErrors = [...strict, ...(opts?.strictDecodingErrors ?? [])];
  return o;
}

/** Create (POST) from the raw JSON request body. */
export function createFromJson(c: CompiledCrd, body: string, opts?: RequestOptions): PipelineResult {
  const d = decodeBody(c, body);
  if (!("obj" in d)) return d;
  return c.create(d.obj, withStrict(opts, d.strict));
}

/** Update (PUT) from the raw JSON request body over the stored `oldObj`. */
export function updateFromJson(c: CompiledCrd, body: string, oldObj: JsonObject, opts?: RequestOptions): PipelineResult {
  const d = decodeBody(c, body);
  if (!("obj" in d)) return d;
  return c.update(d.obj, oldObj, withStrict(opts, d.strict));
}

/** `/status` update from the raw JSON request body over the stored `oldObj`. */
export function updateStatusFromJson(c: CompiledCrd, body: string, oldObj: JsonObject, opts?: RequestOptions): PipelineResult {
  const d = decodeBody(c, body);
  if (!("obj" in d)) return d;
  return c.updateStatus(d.obj, oldObj, withStrict(opts, d.strict));
}
