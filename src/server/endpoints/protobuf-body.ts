/**
 * Request bodies in Kubernetes' protobuf encoding (`application/vnd.kubernetes.protobuf`), read with one
 * wire reader (protobufjs', the library the etcd client already uses):
 * - the `k8s\0` envelope (`runtime.Unknown`: typeMeta, raw);
 * - the built-in kinds kubectl's typed clients send (auth/protobuf-kinds.ts), decoded to their JSON form
 *   (empty `omitempty` fields dropped, as Go's JSON encoding of the decoded struct would);
 * - custom resources, which the API server's protobuf serializer cannot decode into unstructured objects:
 *   its 400 answers (apimachinery `protobuf.Serializer.Decode`, apiserver `transformDecodeError`,
 *   `summarizeData`).
 */
import protobuf from "protobufjs";
import type { JsonObject, JsonValue } from "../../value/json-value.js";
import { PROTOBUF_KINDS, type Schema } from "../auth/protobuf-kinds.js";
import { apiErrors, type ApiError } from "./errors.js";
import { unrecognizedBody } from "./http-io.js";

export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

const PREFIX = [0x6b, 0x38, 0x73, 0x00]; // "k8s\0"

const VARINT = 0;
const FIXED64 = 1;
const BYTES = 2;
const FIXED32 = 5;

/** Why a protobuf body cannot be decoded (answered as 400 / 415 by the caller). */
export class ProtobufBodyError extends Error {
  constructor(
    message: string,
    readonly unsupportedKind = false,
  ) {
    super(message);
  }
}

/** Reads the fields of one message, calling `onField` with the reader positioned at each value. */
function eachField(bytes: Uint8Array, onField: (no: number, wire: number, r: protobuf.Reader) => void): void {
  const r = protobuf.Reader.create(bytes);
  while (r.pos < r.len) {
    const tag = r.uint32();
    const no = tag >>> 3;
    const wire = tag & 7;
    // Groups (wire types 3 and 4) are not part of Kubernetes' messages: refused like a truncated body.
    if (wire !== VARINT && wire !== FIXED64 && wire !== BYTES && wire !== FIXED32) throw new ProtobufBodyError(`field ${no}: unexpected wire type ${wire}`);
    onField(no, wire, r);
  }
}

/** The envelope's TypeMeta and raw message. Throws on a malformed envelope. */
function readEnvelope(body: Uint8Array): { apiVersion: string; kind: string; raw: Uint8Array } {
  const out: { apiVersion: string; kind: string; raw: Uint8Array } = { apiVersion: "", kind: "", raw: new Uint8Array() };
  eachField(body, (no, wire, r) => {
    if (no === 1 && wire === BYTES) {
      eachField(r.bytes(), (n, w, t) => {
        if (n === 1 && w === BYTES) out.apiVersion = t.string();
        else if (n === 2 && w === BYTES) out.kind = t.string();
        else t.skipType(w);
      });
    } else if (no === 2 && wire === BYTES) out.raw = r.bytes();
    else r.skipType(wire);
  });
  return out;
}

function rfc3339(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}Z`;
}

function decodeMessage(bytes: Uint8Array, schema: Schema, depth: number): JsonObject {
  if (depth > 16) throw new ProtobufBodyError("message nested too deeply");
  const out: JsonObject = {};
  eachField(bytes, (no, wt, r) => {
    const f = schema[no];
    if (!f) {
      r.skipType(wt);
      return;
    }
    const want = f.type === "int64" || f.type === "bool" ? VARINT : BYTES;
    if (wt !== want) throw new ProtobufBodyError(`field ${f.name}: wrong wire type ${wt}`);
    switch (f.type) {
      case "string": {
        const s = r.string();
        if (s !== "" || f.keepEmpty) out[f.name] = s;
        break;
      }
      case "strings":
        ((out[f.name] ??= []) as JsonValue[]).push(r.string());
        break;
      case "int64": {
        const n = Number(r.int64().toString());
        if (n !== 0 || !f.omitZero) out[f.name] = n;
        break;
      }
      case "bool":
        out[f.name] = r.bool();
        break;
      case "map": {
        let k = "";
        let v = "";
        eachField(r.bytes(), (n, w, e) => {
          if (n === 1 && w === BYTES) k = e.string();
          else if (n === 2 && w === BYTES) v = e.string();
          else e.skipType(w);
        });
        const m = (out[f.name] ??= {}) as JsonObject;
        m[k] = v;
        break;
      }
      case "time": {
        let secs = 0;
        eachField(r.bytes(), (n, w, t) => {
          if (n === 1 && w === VARINT) secs = Number(t.int64().toString());
          else t.skipType(w);
        });
        if (secs !== 0) out[f.name] = rfc3339(secs);
        break;
      }
      case "message":
        out[f.name] = decodeMessage(r.bytes(), f.schema, depth + 1);
        break;
      case "messages":
        ((out[f.name] ??= []) as JsonValue[]).push(decodeMessage(r.bytes(), f.schema, depth + 1));
        break;
    }
  });
  return out;
}

function hasPrefix(body: Uint8Array): boolean {
  return body.length >= PREFIX.length && PREFIX.every((b, i) => body[i] === b);
}

/** Decodes an enveloped protobuf body of a built-in kind to the object's JSON form (with apiVersion and kind). */
export function decodeProtobufBody(body: Uint8Array): JsonObject {
  if (!hasPrefix(body)) {
    throw new ProtobufBodyError(`provided data does not appear to be a protobuf message, expected prefix [${PREFIX.join(" ")}]`);
  }
  try {
    const { apiVersion, kind, raw } = readEnvelope(body.subarray(PREFIX.length));
    const schema = PROTOBUF_KINDS[`${apiVersion}/${kind}`];
    if (!schema) throw new ProtobufBodyError(`${apiVersion}, Kind=${kind} has no protobuf encoding in crdkit`, true);
    return { apiVersion, kind, ...decodeMessage(raw, schema, 0) };
  } catch (e) {
    if (e instanceof ProtobufBodyError) throw e;
    throw new ProtobufBodyError(e instanceof Error ? e.message : String(e));
  }
}

/** {@link decodeProtobufBody} with the API server's answers: 415 for kinds without protobuf, else 400. */
export function protobufRequestBody(body: Uint8Array, describe: string): JsonObject {
  try {
    const obj = decodeProtobufBody(body);
    // A kind other than the endpoint's is as unsupported as an unknown one (the endpoint has no protobuf
    // codec for it).
    if (obj["kind"] !== describe) throw new ProtobufBodyError(`${String(obj["kind"])} sent to a ${describe} endpoint`, true);
    return obj;
  } catch (e) {
    if (e instanceof ProtobufBodyError && e.unsupportedKind) throw apiErrors.unsupportedMediaType(["application/json", "application/yaml"]);
    throw apiErrors.badRequest(`the object provided is unrecognized (must be of type ${describe}): ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** The 400 the API server answers for a protobuf body of a custom resource of `kind` (request version `version`). */
export function protobufBodyError(body: Buffer, kind: string, version: string): ApiError {
  const unrecognized = (err: string) => unrecognizedBody(kind, err, body);
  if (body.length === 0) return unrecognized("empty data");
  if (!hasPrefix(body)) return unrecognized(`provided data does not appear to be a protobuf message, expected prefix [${PREFIX.join(" ")}]`);
  if (body.length === PREFIX.length) return unrecognized("empty body");
  let tm: { apiVersion: string; kind: string };
  try {
    tm = readEnvelope(body.subarray(PREFIX.length));
  } catch {
    return unrecognized("unexpected EOF");
  }
  // copyKindDefaults: the request's kind and group/version fill what the message leaves out.
  const slash = tm.apiVersion.indexOf("/");
  const actualVersion = tm.apiVersion === "" ? version : slash < 0 ? tm.apiVersion : tm.apiVersion.slice(slash + 1);
  const actualKind = tm.kind === "" ? kind : tm.kind;
  return apiErrors.badRequest(
    `${actualKind} in version ${JSON.stringify(actualVersion)} cannot be handled as a ${kind}: Object 'Kind' is missing in 'object has no kind field '`,
  );
}
