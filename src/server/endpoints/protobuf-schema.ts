/**
 * How protobuf messages map to their JSON form (endpoints/protobuf-body.ts decodes them with these
 * tables), and the messages several kinds share (meta/v1 ObjectMeta).
 */

/**
 * How one message field maps to JSON. Scalars and lists on the wire are written as they come, except:
 * `keepEmpty`: an empty string is kept (a field without `omitempty`, or a pointer); `omitZero` / `omitFalse`:
 * a plain Go field with `omitempty`, whose zero value JSON leaves out; `zero`: a field without `omitempty`
 * that JSON writes even when the message leaves it out (Go's zero value: "", false, 0, null for lists and
 * maps, the empty message's JSON for a struct). `messageMap`: a `map<string, Message>`; `schemaOrArray`,
 * `schemaOrBool`, `schemaOrStringsMap`: apiextensions' JSONSchemaPropsOrArray / OrBool / map of OrStringArray,
 * whose JSON is one of their fields (their `MarshalJSON`); `json`: a message holding JSON bytes (apiextensions'
 * JSON, meta's FieldsV1), `jsons` a list of them; `bytes`: base64 as Go writes a []byte.
 */
export type Field = (
  | { name: string; type: "string"; keepEmpty?: boolean }
  | { name: string; type: "int64" | "int32"; omitZero?: boolean }
  | { name: string; type: "bool"; omitFalse?: boolean }
  | { name: string; type: "strings" | "map" | "time" | "double" | "json" | "jsons" | "bytes" }
  | { name: string; type: "message" | "messages" | "messageMap" | "schemaOrArray" | "schemaOrBool" | "schemaOrStringsMap"; schema: Schema }
) & { zero?: boolean };
export type Schema = Record<number, Field>;

const OWNER_REFERENCE: Schema = {
  1: { name: "kind", type: "string", keepEmpty: true },
  3: { name: "name", type: "string", keepEmpty: true },
  4: { name: "uid", type: "string", keepEmpty: true },
  5: { name: "apiVersion", type: "string", keepEmpty: true },
  6: { name: "controller", type: "bool" },
  7: { name: "blockOwnerDeletion", type: "bool" },
};
const MANAGED_FIELDS_ENTRY: Schema = {
  1: { name: "manager", type: "string" },
  2: { name: "operation", type: "string" },
  3: { name: "apiVersion", type: "string" },
  4: { name: "time", type: "time" },
  6: { name: "fieldsType", type: "string" },
  // FieldsV1 is a message holding JSON bytes, as apiextensions' JSON is
  7: { name: "fieldsV1", type: "json" },
  8: { name: "subresource", type: "string" },
};
export const OBJECT_META: Schema = {
  1: { name: "name", type: "string" },
  2: { name: "generateName", type: "string" },
  3: { name: "namespace", type: "string" },
  4: { name: "selfLink", type: "string" },
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
  17: { name: "managedFields", type: "messages", schema: MANAGED_FIELDS_ENTRY },
};
