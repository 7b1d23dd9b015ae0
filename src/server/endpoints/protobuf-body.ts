/**
 * A custom resource body sent as `application/vnd.kubernetes.protobuf`: the API server negotiates the
 * protobuf serializer, which cannot decode into unstructured objects. Reproduces its 400 answers
 * (apimachinery `protobuf.Serializer.Decode`, apiserver `transformDecodeError`, `summarizeData`).
 */
import { apiErrors, type ApiError } from "./errors.js";
import { unrecognizedBody } from "./http-io.js";

const PREFIX = [0x6b, 0x38, 0x73, 0x00]; // "k8s\0"

/** The TypeMeta of a `runtime.Unknown` message, or undefined when it does not parse. */
function unknownTypeMeta(data: Buffer): { apiVersion: string; kind: string } | undefined {
  let i = 0;
  const varint = (): number | undefined => {
    let n = 0;
    let mul = 1;
    for (let k = 0; k < 10 && i < data.length; k++) {
      const b = data[i++]!;
      n += (b & 0x7f) * mul;
      if (b < 0x80) return n;
      mul *= 128;
    }
    return undefined;
  };
  const out = { apiVersion: "", kind: "" };
  const fields = (end: number, onString: (field: number, s: string) => void): boolean => {
    while (i < end) {
      const tag = varint();
      if (tag === undefined) return false;
      const wire = tag & 7;
      if (wire === 0) {
        if (varint() === undefined) return false;
      } else if (wire === 1 || wire === 5) {
        i += wire === 1 ? 8 : 4;
      } else if (wire === 2) {
        const len = varint();
        if (len === undefined || i + len > end) return false;
        onString(Math.floor(tag / 8), data.subarray(i, i + len).toString("utf8"));
        if (Math.floor(tag / 8) === 1 && end === data.length) {
          const save = i + len;
          const ok = fields(i + len, (f, s) => {
            if (f === 1) out.apiVersion = s;
            if (f === 2) out.kind = s;
          });
          if (!ok) return false;
          i = save;
          continue;
        }
        i += len;
      } else return false;
    }
    return i === end;
  };
  return fields(data.length, () => {}) ? out : undefined;
}

/** The 400 the API server answers for a protobuf body of a custom resource of `kind` (request version `version`). */
export function protobufBodyError(body: Buffer, kind: string, version: string): ApiError {
  const unrecognized = (err: string) => unrecognizedBody(kind, err, body);
  if (body.length === 0) return unrecognized("empty data");
  if (body.length < PREFIX.length || PREFIX.some((b, i) => body[i] !== b)) {
    return unrecognized(`provided data does not appear to be a protobuf message, expected prefix [${PREFIX.join(" ")}]`);
  }
  if (body.length === PREFIX.length) return unrecognized("empty body");
  const tm = unknownTypeMeta(body.subarray(PREFIX.length));
  if (!tm) return unrecognized("unexpected EOF");
  // copyKindDefaults: the request's kind and group/version fill what the message leaves out.
  const slash = tm.apiVersion.indexOf("/");
  const actualVersion = tm.apiVersion === "" ? version : slash < 0 ? tm.apiVersion : tm.apiVersion.slice(slash + 1);
  const actualKind = tm.kind === "" ? kind : tm.kind;
  return apiErrors.badRequest(
    `${actualKind} in version ${JSON.stringify(actualVersion)} cannot be handled as a ${kind}: Object 'Kind' is missing in 'object has no kind field '`,
  );
}
