/**
 * The apiVersion and kind of a typed object's (a CRD's) JSON or merge-patched document, as the patch handler's
 * `runtime.DecodeInto(codec, patched, &internal)` reads them: the JSON serializer fills what the document lacks from
 * the type it decodes into — the internal version of the group. So a document without a kind decodes as the
 * resource's kind; one without an apiVersion (or with an empty one) is decoded into the internal Go struct itself,
 * whose fields have no JSON names: only TypeMeta's and ObjectMeta's inline fields and the Go names `Spec` and
 * `Status` are known, every other key (`metadata`, `spec`, `status`) is an unknown field; an apiVersion of a group
 * version the scheme does not have is the scheme's error.
 */
import { goQuote } from "../../go/fmt.js";
import { bodyGvk } from "../../pipeline/body-gvk.js";
import type { JsonObject } from "../../value/json-value.js";
import type { ResourceType } from "../registry/resource-type.js";
import type { TypedScheme } from "../registry/typed-scheme.js";

const INTERNAL_VERSION = "__internal";

/** The JSON names the internal type's inline ObjectMeta gives it. */
const OBJECT_META_FIELDS = new Set([
  "name",
  "generateName",
  "namespace",
  "selfLink",
  "uid",
  "resourceVersion",
  "generation",
  "creationTimestamp",
  "deletionTimestamp",
  "deletionGracePeriodSeconds",
  "labels",
  "annotations",
  "ownerReferences",
  "finalizers",
  "managedFields",
]);

/** The internal type's other known fields: TypeMeta's (inline) and the untagged Go fields. */
const OTHER_FIELDS = new Set(["apiVersion", "kind", "Spec", "Status"]);

/** What decoding the patched document gives. */
export type PatchedTypeMeta =
  /** A versioned object of the resource's kind (the kind filled in when it had none). */
  | { decoded: "versioned"; object: JsonObject }
  /** The internal struct: its unknown fields (in the text's order) and the object it holds (ObjectMeta only). */
  | { decoded: "internal"; unknownFields: string[]; object: JsonObject }
  /** The scheme has no such type, or cannot convert it: the decoder's error text. */
  | { decoded: "refused"; message: string };

/**
 * `patched` (keys in the order of its text) decoded into the internal type of `rt`, a typed resource whose scheme is
 * `scheme`; undefined when the apiVersion does not parse (or is no string: the caller's earlier errors).
 */
export function decodePatchedTypeMeta(patched: JsonObject, rt: ResourceType, scheme: TypedScheme): PatchedTypeMeta | undefined {
  const gvk = bodyGvk(patched, { group: rt.group, version: INTERNAL_VERSION, kind: rt.kind });
  if (gvk === undefined) return undefined;
  const { group, version, kind } = gvk;
  const gvText = group === "" ? version : `${group}/${version}`;
  const goType = scheme.goType(group, version, kind);
  if (goType === undefined) return { decoded: "refused", message: `no kind ${goQuote(kind)} is registered for version ${goQuote(gvText)} in scheme "pkg/runtime/scheme.go:111"` };
  if (!scheme.converts(goType)) return { decoded: "refused", message: `converting (${goType}) to (${scheme.internalType}): unknown conversion` };
  if (version === INTERNAL_VERSION) {
    const meta: JsonObject = {};
    for (const key of Object.keys(patched)) if (OBJECT_META_FIELDS.has(key)) meta[key] = patched[key]!;
    const unknownFields = Object.keys(patched).filter((key) => !OBJECT_META_FIELDS.has(key) && !OTHER_FIELDS.has(key));
    return { decoded: "internal", unknownFields, object: { apiVersion: `${rt.group}/${rt.version}`, kind, metadata: meta } };
  }
  return { decoded: "versioned", object: patched["kind"] === kind ? patched : { ...patched, kind } };
}
