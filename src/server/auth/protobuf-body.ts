/**
 * Request bodies in Kubernetes' protobuf encoding (`application/vnd.kubernetes.protobuf`), which kubectl's
 * typed clients send for built-in kinds (`kubectl create role`, `auth can-i`, `auth whoami`): the `k8s\0`
 * envelope (`runtime.Unknown`) and the messages of the kinds crdkit serves, decoded to their JSON form
 * (empty `omitempty` fields dropped, as Go's JSON encoding of the decoded struct would).
 */
import { BinaryReader, WireType } from "@bufbuild/protobuf/wire";
import type { JsonObject, JsonValue } from "../../value/json-value.js";
import { apiErrors } from "../endpoints/errors.js";

export const PROTOBUF_MEDIA_TYPE = "application/vnd.kubernetes.protobuf";

type Field =
  | { name: string; type: "string"; keepEmpty?: boolean }
  | { name: string; type: "int64"; omitZero?: boolean }
  | { name: string; type: "strings" | "map" | "bool" | "time" }
  | { name: string; type: "message" | "messages"; schema: Schema };
type Schema = Record<number, Field>;

const OWNER_REFERENCE: Schema = {
  1: { name: "kind", type: "string", keepEmpty: true },
  3: { name: "name", type: "string", keepEmpty: true },
  4: { name: "uid", type: "string", keepEmpty: true },
  5: { name: "apiVersion", type: "string", keepEmpty: true },
  6: { name: "controller", type: "bool" },
  7: { name: "blockOwnerDeletion", type: "bool" },
};
const OBJECT_META: Schema = {
  1: { name: "name", type: "string" },
  2: { name: "generateName", type: "string" },
  3: { name: "namespace", type: "string" },
  5: { name: "uid", type: "string" },
  6: { name: "resourceVersion", type: "string" },
  // A plain int64 (always on the wire): 0 is Go's zero value, which JSON omits.
  7: { name: "generation", type: "int64", omitZero: true },
  8: { name: "creationTimestamp", type: "time" },
  9: { name: "deletionTimestamp", type: "time" },
  10: { name: "deletionGracePeriodSeconds", type: "int64" },
  11: { name: "labels", type: "map" },
  12: { name: "annotations", type: "map" },
  13: { name: "ownerReferences", type: "messages", schema: OWNER_REFERENCE },
  14: { name: "finalizers", type: "strings" },
};
const POLICY_RULE: Schema = {
  1: { name: "verbs", type: "strings" },
  2: { name: "apiGroups", type: "strings" },
  3: { name: "resources", type: "strings" },
  4: { name: "resourceNames", type: "strings" },
  5: { name: "nonResourceURLs", type: "strings" },
};
const LABEL_SELECTOR: Schema = {
  1: { name: "matchLabels", type: "map" },
  2: {
    name: "matchExpressions",
    type: "messages",
    schema: { 1: { name: "key", type: "string", keepEmpty: true }, 2: { name: "operator", type: "string", keepEmpty: true }, 3: { name: "values", type: "strings" } },
  },
};
const SUBJECT: Schema = {
  1: { name: "kind", type: "string", keepEmpty: true },
  2: { name: "apiGroup", type: "string" },
  3: { name: "name", type: "string", keepEmpty: true },
  4: { name: "namespace", type: "string" },
};
const ROLE_REF: Schema = {
  1: { name: "apiGroup", type: "string", keepEmpty: true },
  2: { name: "kind", type: "string", keepEmpty: true },
  3: { name: "name", type: "string", keepEmpty: true },
};
const META = { name: "metadata", type: "message", schema: OBJECT_META } as const;
const BINDING: Schema = { 1: META, 2: { name: "subjects", type: "messages", schema: SUBJECT }, 3: { name: "roleRef", type: "message", schema: ROLE_REF } };

const NAMESPACE_CONDITION: Schema = {
  1: { name: "type", type: "string", keepEmpty: true },
  2: { name: "status", type: "string", keepEmpty: true },
  4: { name: "lastTransitionTime", type: "time" },
  5: { name: "reason", type: "string" },
  6: { name: "message", type: "string" },
};

/** The kinds crdkit decodes from protobuf, by `apiVersion/kind`. */
const KINDS: Record<string, Schema> = {
  "v1/Namespace": {
    1: META,
    2: { name: "spec", type: "message", schema: { 1: { name: "finalizers", type: "strings" } } },
    3: {
      name: "status",
      type: "message",
      schema: { 1: { name: "phase", type: "string" }, 2: { name: "conditions", type: "messages", schema: NAMESPACE_CONDITION } },
    },
  },
  "rbac.authorization.k8s.io/v1/Role": { 1: META, 2: { name: "rules", type: "messages", schema: POLICY_RULE } },
  "rbac.authorization.k8s.io/v1/ClusterRole": {
    1: META,
    2: { name: "rules", type: "messages", schema: POLICY_RULE },
    3: { name: "aggregationRule", type: "message", schema: { 1: { name: "clusterRoleSelectors", type: "messages", schema: LABEL_SELECTOR } } },
  },
  "rbac.authorization.k8s.io/v1/RoleBinding": BINDING,
  "rbac.authorization.k8s.io/v1/ClusterRoleBinding": BINDING,
  "authorization.k8s.io/v1/SelfSubjectAccessReview": {
    1: META,
    2: {
      name: "spec",
      type: "message",
      schema: {
        1: {
          name: "resourceAttributes",
          type: "message",
          schema: {
            1: { name: "namespace", type: "string" },
            2: { name: "verb", type: "string" },
            3: { name: "group", type: "string" },
            4: { name: "version", type: "string" },
            5: { name: "resource", type: "string" },
            6: { name: "subresource", type: "string" },
            7: { name: "name", type: "string" },
          },
        },
        2: { name: "nonResourceAttributes", type: "message", schema: { 1: { name: "path", type: "string" }, 2: { name: "verb", type: "string" } } },
      },
    },
  },
  "authorization.k8s.io/v1/SelfSubjectRulesReview": { 1: META, 2: { name: "spec", type: "message", schema: { 1: { name: "namespace", type: "string" } } } },
  "authentication.k8s.io/v1/SelfSubjectReview": { 1: META },
};

/** Why a protobuf body cannot be decoded (answered as 400 / 415 by the caller). */
export class ProtobufBodyError extends Error {
  constructor(
    message: string,
    readonly unsupportedKind = false,
  ) {
    super(message);
  }
}

function rfc3339(seconds: bigint | string): string {
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}Z`;
}

function decodeMessage(bytes: Uint8Array, schema: Schema, depth: number): JsonObject {
  if (depth > 16) throw new ProtobufBodyError("message nested too deeply");
  const r = new BinaryReader(bytes);
  const out: JsonObject = {};
  while (r.pos < r.len) {
    const [no, wt] = r.tag();
    const f = schema[no];
    if (!f) {
      r.skip(wt, no);
      continue;
    }
    const want = f.type === "int64" || f.type === "bool" ? WireType.Varint : WireType.LengthDelimited;
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
        const n = Number(r.int64());
        if (n !== 0 || !f.omitZero) out[f.name] = n;
        break;
      }
      case "bool":
        out[f.name] = r.bool();
        break;
      case "map": {
        const e = new BinaryReader(r.bytes());
        let k = "";
        let v = "";
        while (e.pos < e.len) {
          const [n, w] = e.tag();
          if (n === 1 && w === WireType.LengthDelimited) k = e.string();
          else if (n === 2 && w === WireType.LengthDelimited) v = e.string();
          else e.skip(w, n);
        }
        const m = (out[f.name] ??= {}) as JsonObject;
        m[k] = v;
        break;
      }
      case "time": {
        const t = new BinaryReader(r.bytes());
        let secs: bigint | string = 0n;
        while (t.pos < t.len) {
          const [n, w] = t.tag();
          if (n === 1 && w === WireType.Varint) secs = t.int64();
          else t.skip(w, n);
        }
        if (BigInt(secs) !== 0n) out[f.name] = rfc3339(secs);
        break;
      }
      case "message":
        out[f.name] = decodeMessage(r.bytes(), f.schema, depth + 1);
        break;
      case "messages":
        ((out[f.name] ??= []) as JsonValue[]).push(decodeMessage(r.bytes(), f.schema, depth + 1));
        break;
    }
  }
  return out;
}

/** Decodes an enveloped protobuf body to the object's JSON form (with apiVersion and kind). */
export function decodeProtobufBody(body: Uint8Array): JsonObject {
  if (body.length < 4 || body[0] !== 0x6b || body[1] !== 0x38 || body[2] !== 0x73 || body[3] !== 0) {
    throw new ProtobufBodyError("provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]");
  }
  try {
    const env = decodeMessage(body.subarray(4), { 1: { name: "typeMeta", type: "message", schema: { 1: { name: "apiVersion", type: "string" }, 2: { name: "kind", type: "string" } } } }, 0);
    const r = new BinaryReader(body.subarray(4));
    let raw: Uint8Array = new Uint8Array();
    while (r.pos < r.len) {
      const [n, w] = r.tag();
      if (n === 2 && w === WireType.LengthDelimited) raw = r.bytes();
      else r.skip(w, n);
    }
    const tm = (env["typeMeta"] ?? {}) as JsonObject;
    const apiVersion = typeof tm["apiVersion"] === "string" ? tm["apiVersion"] : "";
    const kind = typeof tm["kind"] === "string" ? tm["kind"] : "";
    const schema = KINDS[`${apiVersion}/${kind}`];
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
