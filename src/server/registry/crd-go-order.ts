/**
 * A stored v1 CustomResourceDefinition with its keys in the order Go's `json.Marshal` writes the typed object
 * (`runtime.Encode` of the current object before a JSON or merge patch): struct fields in declaration order, Go
 * maps (labels, annotations, `properties`, …) with sorted keys, raw JSON values (`default`, `enum`, `example`,
 * `fieldsV1`) as they are. The values themselves are not changed: the stored object already omits what Go omits.
 */
import { compareGoStrings } from "../../go/fmt.js";
import { isObject, setKey, type JsonObject, type JsonValue } from "../../value/json-value.js";

/** How a member is ordered: a struct, a list or a Go map of one, or a value kept as it is. */
type Shape = Struct | { list: Shape } | { map: Shape } | "raw" | "sorted" | "schemaOrBool" | "schemaOrArray" | "dependencies";
interface Struct {
  fields: [string, Shape][];
}

const struct = (fields: [string, Shape][]): Struct => ({ fields });

const OWNER_REFERENCE = struct([["apiVersion", "raw"], ["kind", "raw"], ["name", "raw"], ["uid", "raw"], ["controller", "raw"], ["blockOwnerDeletion", "raw"]]);
const MANAGED_FIELDS_ENTRY = struct([
  ["manager", "raw"], ["operation", "raw"], ["apiVersion", "raw"], ["time", "raw"], ["fieldsType", "raw"], ["fieldsV1", "raw"], ["subresource", "raw"],
]);
const OBJECT_META = struct([
  ["name", "raw"], ["generateName", "raw"], ["namespace", "raw"], ["selfLink", "raw"], ["uid", "raw"], ["resourceVersion", "raw"],
  ["generation", "raw"], ["creationTimestamp", "raw"], ["deletionTimestamp", "raw"], ["deletionGracePeriodSeconds", "raw"],
  ["labels", "sorted"], ["annotations", "sorted"], ["ownerReferences", { list: OWNER_REFERENCE }], ["finalizers", "raw"],
  ["managedFields", { list: MANAGED_FIELDS_ENTRY }],
]);

const VALIDATION_RULE = struct([["rule", "raw"], ["message", "raw"], ["messageExpression", "raw"], ["reason", "raw"], ["fieldPath", "raw"], ["optionalOldSelf", "raw"]]);
const SCHEMA: Struct = struct([]);
SCHEMA.fields.push(
  ["id", "raw"], ["$schema", "raw"], ["$ref", "raw"], ["description", "raw"], ["type", "raw"], ["format", "raw"], ["title", "raw"],
  ["default", "raw"], ["maximum", "raw"], ["exclusiveMaximum", "raw"], ["minimum", "raw"], ["exclusiveMinimum", "raw"],
  ["maxLength", "raw"], ["minLength", "raw"], ["pattern", "raw"], ["maxItems", "raw"], ["minItems", "raw"], ["uniqueItems", "raw"],
  ["multipleOf", "raw"], ["enum", "raw"], ["maxProperties", "raw"], ["minProperties", "raw"], ["required", "raw"],
  ["items", "schemaOrArray"], ["allOf", { list: SCHEMA }], ["oneOf", { list: SCHEMA }], ["anyOf", { list: SCHEMA }], ["not", SCHEMA],
  ["properties", { map: SCHEMA }], ["additionalProperties", "schemaOrBool"], ["patternProperties", { map: SCHEMA }],
  ["dependencies", "dependencies"], ["additionalItems", "schemaOrBool"], ["definitions", { map: SCHEMA }],
  ["externalDocs", struct([["description", "raw"], ["url", "raw"]])], ["example", "raw"], ["nullable", "raw"],
  ["x-kubernetes-preserve-unknown-fields", "raw"], ["x-kubernetes-embedded-resource", "raw"], ["x-kubernetes-int-or-string", "raw"],
  ["x-kubernetes-list-map-keys", "raw"], ["x-kubernetes-list-type", "raw"], ["x-kubernetes-map-type", "raw"],
  ["x-kubernetes-validations", { list: VALIDATION_RULE }],
);

const NAMES = struct([["plural", "raw"], ["singular", "raw"], ["shortNames", "raw"], ["kind", "raw"], ["listKind", "raw"], ["categories", "raw"]]);
const VERSION = struct([
  ["name", "raw"], ["served", "raw"], ["storage", "raw"], ["deprecated", "raw"], ["deprecationWarning", "raw"],
  ["schema", struct([["openAPIV3Schema", SCHEMA]])],
  ["subresources", struct([["status", "raw"], ["scale", struct([["specReplicasPath", "raw"], ["statusReplicasPath", "raw"], ["labelSelectorPath", "raw"]])]])],
  ["additionalPrinterColumns", { list: struct([["name", "raw"], ["type", "raw"], ["format", "raw"], ["description", "raw"], ["priority", "raw"], ["jsonPath", "raw"]]) }],
  ["selectableFields", { list: struct([["jsonPath", "raw"]]) }],
]);
const CLIENT_CONFIG = struct([["url", "raw"], ["service", struct([["namespace", "raw"], ["name", "raw"], ["path", "raw"], ["port", "raw"]])], ["caBundle", "raw"]]);
const CONVERSION = struct([["strategy", "raw"], ["webhook", struct([["clientConfig", CLIENT_CONFIG], ["conversionReviewVersions", "raw"]])]]);
const SPEC = struct([["group", "raw"], ["names", NAMES], ["scope", "raw"], ["versions", { list: VERSION }], ["conversion", CONVERSION], ["preserveUnknownFields", "raw"]]);
const CONDITION = struct([["type", "raw"], ["status", "raw"], ["lastTransitionTime", "raw"], ["reason", "raw"], ["message", "raw"]]);
const STATUS = struct([["conditions", { list: CONDITION }], ["acceptedNames", NAMES], ["storedVersions", "raw"]]);
const CRD = struct([["apiVersion", "raw"], ["kind", "raw"], ["metadata", OBJECT_META], ["spec", SPEC], ["status", STATUS]]);

function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(compareGoStrings);
}

function ordered(v: JsonValue, shape: Shape, maps: WeakSet<object>): JsonValue {
  if (shape === "raw") return v;
  if (Array.isArray(v)) {
    if (shape === "schemaOrArray") return v.map((x) => ordered(x, SCHEMA, maps));
    return typeof shape === "object" && "list" in shape ? v.map((x) => ordered(x, shape.list, maps)) : v;
  }
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  if (shape === "schemaOrBool" || shape === "schemaOrArray") return ordered(v, SCHEMA, maps);
  if (shape === "sorted" || shape === "dependencies" || "map" in shape) {
    // A Go map: json.Marshal sorts its keys (integer-like keys come first in a JS object: `maps` says to sort).
    maps.add(out);
    // dependencies: JSONSchemaPropsOrStringArray, a schema or a list of property names.
    const item: Shape = shape === "sorted" ? "raw" : shape === "dependencies" ? SCHEMA : shape.map;
    for (const k of sortedKeys(v)) setKey(out, k, ordered(v[k]!, item, maps));
    return out;
  }
  if ("list" in shape) return v;
  for (const [k, s] of shape.fields) if (Object.hasOwn(v, k)) setKey(out, k, ordered(v[k]!, s, maps));
  // Members the struct does not have (none in a stored object) keep their place after the known ones.
  for (const k of Object.keys(v)) if (!Object.hasOwn(out, k)) setKey(out, k, v[k]!);
  return out;
}

/**
 * The stored CRD `crd` with its keys in Go's encoding order (a copy that shares the raw values); the Go maps in it
 * are added to `maps` (objects to print with sorted keys).
 */
export function goOrderedCrd(crd: JsonObject, maps: WeakSet<object>): JsonObject {
  return ordered(crd, CRD, maps) as JsonObject;
}
