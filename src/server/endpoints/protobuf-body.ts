/**
 * Request bodies in Kubernetes' protobuf encoding (`application/vnd.kubernetes.protobuf`), read with one
 * wire reader (protobufjs', the library the etcd client already uses):
 * - the `k8s\0` envelope (`runtime.Unknown`: typeMeta, raw);
 * - the built-in kinds typed clients send (protobuf-kinds.ts: kubectl's RBAC kinds and reviews, client-go's
 *   CustomResourceDefinitions and DeleteOptions), decoded to their JSON form (what Go's JSON encoding of the
 *   decoded struct writes: empty `omitempty` fields dropped, fields without it written even when absent);
 * - custom resources, which the API server's protobuf serializer cannot decode into unstructured objects:
 *   its 400 answers (apimachinery `protobuf.Serializer.Decode`, apiserver `transformDecodeError`,
 *   `summarizeData`).
 */
import protobuf from "protobufjs";
import { type JsonObject, type JsonValue, setKey } from "../../value/json-value.js";
import { MAX_DEPTH } from "../../io/yaml-decode.js";
import { decodeJsonStream } from "../../io/json-decode.js";
import { goJsonFloat } from "../../go/json.js";
import { DELETE_OPTIONS_SCHEMA, PROTOBUF_KINDS } from "./protobuf-kinds.js";
import type { Field, Schema } from "./protobuf-schema.js";
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

/** A JSON text held in a message (apiextensions' JSON, FieldsV1), as the JSON decoder reads it. */
function jsonBytes(bytes: Uint8Array, what: string): JsonValue {
  if (bytes.length === 0) return null; // JSON.MarshalJSON of an empty Raw
  const r = decodeJsonStream(Buffer.from(bytes).toString("utf8"));
  const doc = r.documents[0];
  if (r.problem || !doc || r.documents.length !== 1) throw new ProtobufBodyError(`${what}: invalid JSON`);
  return doc.value;
}

/** The raw bytes of a `{ 1: bytes }` message (JSON, FieldsV1). */
function rawOf(bytes: Uint8Array): Uint8Array {
  let raw: Uint8Array = new Uint8Array();
  eachField(bytes, (n, w, t) => {
    if (n === 1 && w === BYTES) raw = t.bytes();
    else t.skipType(w);
  });
  return raw;
}

/** A float64 as the JSON decoder reads Go's encoding of it (`10` an integer, `1e+21` a float). */
function doubleValue(x: number): JsonValue {
  if (!Number.isFinite(x)) throw new ProtobufBodyError(`json: unsupported value: ${x}`);
  return decodeJsonStream(goJsonFloat(x)).documents[0]!.value;
}

/** The wire type a field's values come in. */
function wireOf(f: Field): number {
  switch (f.type) {
    case "int64":
    case "int32":
    case "bool":
      return VARINT;
    case "double":
      return FIXED64;
    default:
      return BYTES;
  }
}

/** A map entry's key (field 1) and the bytes of its value (field 2). */
function entryOf(bytes: Uint8Array): { key: string; value: Uint8Array } {
  const e: { key: string; value: Uint8Array } = { key: "", value: new Uint8Array() };
  eachField(bytes, (n, w, t) => {
    if (n === 1 && w === BYTES) e.key = t.string();
    else if (n === 2 && w === BYTES) e.value = t.bytes();
    else t.skipType(w);
  });
  return e;
}

/** JSONSchemaPropsOrBool's JSON (its MarshalJSON): the schema (field 2) when there is one, else `allows` (field 1). */
function schemaOrBool(bytes: Uint8Array, schema: Schema, depth: number): JsonValue {
  let allows = false;
  let props: JsonObject | undefined;
  eachField(bytes, (n, w, t) => {
    if (n === 1 && w === VARINT) allows = t.bool();
    else if (n === 2 && w === BYTES) props = decodeMessage(t.bytes(), schema, depth + 1);
    else t.skipType(w);
  });
  return props ?? allows;
}

/** JSONSchemaPropsOrArray's JSON: the list (field 2) when it has items, else the schema (field 1), else null. */
function schemaOrArray(bytes: Uint8Array, schema: Schema, depth: number): JsonValue {
  const list: JsonValue[] = [];
  let props: JsonObject | undefined;
  eachField(bytes, (n, w, t) => {
    if (n === 1 && w === BYTES) props = decodeMessage(t.bytes(), schema, depth + 1);
    else if (n === 2 && w === BYTES) list.push(decodeMessage(t.bytes(), schema, depth + 1));
    else t.skipType(w);
  });
  return list.length > 0 ? list : (props ?? null);
}

/** JSONSchemaPropsOrStringArray's JSON: the property list (field 2) when it has one, else the schema (field 1), else null. */
function schemaOrStrings(bytes: Uint8Array, schema: Schema, depth: number): JsonValue {
  const list: JsonValue[] = [];
  let props: JsonObject | undefined;
  eachField(bytes, (n, w, t) => {
    if (n === 1 && w === BYTES) props = decodeMessage(t.bytes(), schema, depth + 1);
    else if (n === 2 && w === BYTES) list.push(t.string());
    else t.skipType(w);
  });
  return list.length > 0 ? list : (props ?? null);
}

/** Go's zero value of a field without `omitempty`, as JSON. */
function zeroOf(f: Field, depth: number): JsonValue {
  switch (f.type) {
    case "string":
      return "";
    case "bool":
      return false;
    case "int64":
    case "int32":
      return 0;
    case "message":
      return decodeMessage(new Uint8Array(), f.schema, depth + 1);
    default:
      return null;
  }
}

function decodeMessage(bytes: Uint8Array, schema: Schema, depth: number): JsonObject {
  // The JSON decoder's nesting limit (one message is at least one level of its JSON).
  if (depth > MAX_DEPTH) throw new ProtobufBodyError("message nested too deeply");
  const out: JsonObject = {};
  eachField(bytes, (no, wt, r) => {
    const f = schema[no];
    if (!f) {
      r.skipType(wt);
      return;
    }
    if (wt !== wireOf(f)) throw new ProtobufBodyError(`field ${f.name}: wrong wire type ${wt}`);
    switch (f.type) {
      case "string": {
        const s = r.string();
        if (s !== "" || f.keepEmpty) out[f.name] = s;
        break;
      }
      case "strings":
        ((out[f.name] ??= []) as JsonValue[]).push(r.string());
        break;
      case "int64":
      case "int32": {
        const n = f.type === "int32" ? r.int32() : Number(r.int64().toString());
        if (n !== 0 || !f.omitZero) out[f.name] = n;
        else delete out[f.name];
        break;
      }
      case "bool": {
        const b = r.bool();
        if (b || !f.omitFalse) out[f.name] = b;
        else delete out[f.name];
        break;
      }
      case "double":
        out[f.name] = doubleValue(r.double());
        break;
      case "bytes": {
        const b = r.bytes();
        if (b.length > 0) out[f.name] = Buffer.from(b).toString("base64");
        break;
      }
      case "json":
        out[f.name] = jsonBytes(rawOf(r.bytes()), f.name);
        break;
      case "jsons":
        ((out[f.name] ??= []) as JsonValue[]).push(jsonBytes(rawOf(r.bytes()), f.name));
        break;
      case "map": {
        const { key, value } = entryOf(r.bytes());
        const m = (out[f.name] ??= {}) as JsonObject;
        setKey(m, key, Buffer.from(value).toString("utf8"));
        break;
      }
      case "messageMap": {
        const { key, value } = entryOf(r.bytes());
        setKey((out[f.name] ??= {}) as JsonObject, key, decodeMessage(value, f.schema, depth + 1));
        break;
      }
      case "schemaOrStringsMap": {
        const { key, value } = entryOf(r.bytes());
        setKey((out[f.name] ??= {}) as JsonObject, key, schemaOrStrings(value, f.schema, depth + 1));
        break;
      }
      case "schemaOrArray":
        out[f.name] = schemaOrArray(r.bytes(), f.schema, depth);
        break;
      case "schemaOrBool":
        out[f.name] = schemaOrBool(r.bytes(), f.schema, depth);
        break;
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
  for (const f of Object.values(schema)) if (f.zero && !Object.hasOwn(out, f.name)) out[f.name] = zeroOf(f, depth);
  return out;
}

function hasPrefix(body: Uint8Array): boolean {
  return body.length >= PREFIX.length && PREFIX.every((b, i) => body[i] === b);
}

const NOT_PROTOBUF = `provided data does not appear to be a protobuf message, expected prefix [${PREFIX.join(" ")}]`;

/** The protobuf reader's failure as Go's decoder words it: a message cut short is `unexpected EOF`. */
function goDecodeError(e: unknown): ProtobufBodyError {
  if (e instanceof ProtobufBodyError) return e;
  if (e instanceof RangeError) return new ProtobufBodyError("unexpected EOF");
  return new ProtobufBodyError(e instanceof Error ? e.message : String(e));
}

/**
 * An enveloped protobuf body in its JSON form (with apiVersion and kind): its message decoded with the schema
 * `schemaOf` gives for its TypeMeta (null: the TypeMeta alone; undefined: a kind crdkit has no protobuf for).
 */
function decodeEnveloped(body: Uint8Array, schemaOf: (apiVersion: string, kind: string) => Schema | null | undefined): JsonObject {
  if (!hasPrefix(body)) throw new ProtobufBodyError(NOT_PROTOBUF);
  try {
    const { apiVersion, kind, raw } = readEnvelope(body.subarray(PREFIX.length));
    const schema = schemaOf(apiVersion, kind);
    if (schema === undefined) throw new ProtobufBodyError(`${apiVersion}, Kind=${kind} has no protobuf encoding in crdkit`, true);
    return { apiVersion, kind, ...(schema === null ? {} : decodeMessage(raw, schema, 0)) };
  } catch (e) {
    throw goDecodeError(e);
  }
}

/** Decodes an enveloped protobuf body of a built-in kind to the object's JSON form (with apiVersion and kind). */
export function decodeProtobufBody(body: Uint8Array): JsonObject {
  return decodeEnveloped(body, (apiVersion, kind) => PROTOBUF_KINDS[`${apiVersion}/${kind}`]);
}

/**
 * {@link decodeProtobufBody} with the API server's answers: 415 for kinds without protobuf, else the handler's
 * 400 (`the object provided is unrecognized (must be of type …): unexpected EOF (6b38…)`).
 */
export function protobufRequestBody(body: Buffer, describe: string): JsonObject {
  try {
    const obj = decodeProtobufBody(body);
    // A kind other than the endpoint's is as unsupported as an unknown one (the endpoint has no protobuf
    // codec for it).
    if (obj["kind"] !== describe) throw new ProtobufBodyError(`${String(obj["kind"])} sent to a ${describe} endpoint`, true);
    return obj;
  } catch (e) {
    if (e instanceof ProtobufBodyError && e.unsupportedKind) throw apiErrors.unsupportedMediaType(["application/json", "application/yaml"]);
    throw unrecognizedBody(describe, e instanceof Error ? e.message : String(e), body);
  }
}

/**
 * A DELETE's protobuf DeleteOptions in its JSON form, for delete-options.ts (which checks the kind as for
 * JSON: DeleteOptions of any apiVersion; client-go sends its group's). Malformed: the decoder's error as the 400.
 */
export function protobufDeleteOptions(body: Buffer): JsonObject {
  try {
    return decodeEnveloped(body, (_apiVersion, kind) => (kind === "DeleteOptions" ? DELETE_OPTIONS_SCHEMA : null));
  } catch (e) {
    throw apiErrors.badRequest(e instanceof Error ? e.message : String(e));
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
