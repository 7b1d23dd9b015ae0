/**
 * The Go structs of a v1 CustomResourceDefinition (JSON field names in declaration order, their types, and the
 * `omitempty` slices and maps), and the two things they drive:
 * - {@link omitEmptyCrdSpec}: the spec without the empty `omitempty` lists and maps Go's `json.Marshal` drops when
 *   the API server encodes the typed object (to store it and to answer): an empty `enum`, `required`, `allOf`/
 *   `anyOf`/`oneOf`, `properties`, `patternProperties`, `dependencies`, `definitions`, `x-kubernetes-list-map-keys`
 *   or `x-kubernetes-validations` of a schema, empty `shortNames`/`categories` of the names, empty
 *   `additionalPrinterColumns`/`selectableFields` of a version, and a false `preserveUnknownFields`. The decoded spec
 *   keeps them (an empty list that was sent is not a missing one for validation); the stored object does not.
 * - {@link goOrderedCrd}: a stored CRD with its keys in the order Go's `json.Marshal` writes the typed object
 *   (`runtime.Encode` of the current object before a JSON or merge patch): struct fields in declaration order, Go
 *   maps (labels, annotations, `properties`, …) with sorted keys, raw JSON values (`default`, `enum`, `example`,
 *   `fieldsV1`) as they are. The values themselves are not changed: the stored object already omits what Go omits.
 */
import { compareGoStrings } from "../../go/fmt.js";
import { goOmitEmptyCollections, goStruct, goStructAppend, type GoField, type GoShape, type GoStruct } from "../../go/json-struct.js";
import { isObject, setKey, type JsonObject, type JsonValue } from "../../value/json-value.js";

const struct = (fields: GoField[]): GoStruct => goStruct(fields);
/** A Go map of strings (labels, annotations). */
const SORTED: GoShape = { map: "any" };

// Tags: O omitempty (an empty slice or map is dropped), N nullable (a pointer, slice or map: null sets nil; other
// fields keep their value on null), R replaces (its own UnmarshalJSON builds a new value).
const O = "omitempty";
const N = "nullable";
const R = "replaces";
const OWNER_REFERENCE = struct([["apiVersion", "any"], ["kind", "any"], ["name", "any"], ["uid", "any"], ["controller", "any", N], ["blockOwnerDeletion", "any", N]]);
const MANAGED_FIELDS_ENTRY = struct([
  ["manager", "any"], ["operation", "any"], ["apiVersion", "any"], ["time", "any", N], ["fieldsType", "any"], ["fieldsV1", "any", N], ["subresource", "any"],
]);
const OBJECT_META = struct([
  ["name", "any"], ["generateName", "any"], ["namespace", "any"], ["selfLink", "any"], ["uid", "any"], ["resourceVersion", "any"],
  // (metav1.Time resets on null)
  ["generation", "any"], ["creationTimestamp", "any", N], ["deletionTimestamp", "any", N], ["deletionGracePeriodSeconds", "any", N],
  ["labels", SORTED, N], ["annotations", SORTED, N], ["ownerReferences", OWNER_REFERENCE, N], ["finalizers", "any", N],
  ["managedFields", MANAGED_FIELDS_ENTRY, N],
]);

const VALIDATION_RULE = struct([["rule", "any"], ["message", "any"], ["messageExpression", "any"], ["reason", "any", N], ["fieldPath", "any"], ["optionalOldSelf", "any", N]]);
// JSONSchemaProps refers to itself: its fields are filled in below. A schema shape applies to either member of
// JSONSchemaPropsOrBool and JSONSchemaPropsOrArray (an object, or each element of a list), and to the schemas of
// JSONSchemaPropsOrStringArray (`dependencies`: a list of property names is kept as it is).
const SCHEMA: GoStruct = goStruct([]);
goStructAppend(SCHEMA, [
  ["id", "any"], ["$schema", "any"], ["$ref", "any", N], ["description", "any"], ["type", "any"], ["format", "any"], ["title", "any"],
  ["default", "any", N], ["maximum", "any", N], ["exclusiveMaximum", "any"], ["minimum", "any", N], ["exclusiveMinimum", "any"],
  ["maxLength", "any", N], ["minLength", "any", N], ["pattern", "any"], ["maxItems", "any", N], ["minItems", "any", N], ["uniqueItems", "any"],
  ["multipleOf", "any", N], ["enum", "any", O, N], ["maxProperties", "any", N], ["minProperties", "any", N], ["required", "any", O, N],
  ["items", SCHEMA, N, R], ["allOf", SCHEMA, O, N], ["oneOf", SCHEMA, O, N], ["anyOf", SCHEMA, O, N], ["not", SCHEMA, N],
  ["properties", { map: SCHEMA }, O, N], ["additionalProperties", SCHEMA, N, R], ["patternProperties", { map: SCHEMA }, O, N],
  ["dependencies", { map: SCHEMA }, O, N], ["additionalItems", SCHEMA, N, R], ["definitions", { map: SCHEMA }, O, N],
  ["externalDocs", struct([["description", "any"], ["url", "any"]]), N], ["example", "any", N], ["nullable", "any"],
  ["x-kubernetes-preserve-unknown-fields", "any", N], ["x-kubernetes-embedded-resource", "any"], ["x-kubernetes-int-or-string", "any"],
  ["x-kubernetes-list-map-keys", "any", O, N], ["x-kubernetes-list-type", "any", N], ["x-kubernetes-map-type", "any", N],
  ["x-kubernetes-validations", VALIDATION_RULE, O, N],
]);

const NAMES = struct([["plural", "any"], ["singular", "any"], ["shortNames", "any", O, N], ["kind", "any"], ["listKind", "any"], ["categories", "any", O, N]]);
const VERSION = struct([
  ["name", "any"], ["served", "any"], ["storage", "any"], ["deprecated", "any"], ["deprecationWarning", "any", N],
  ["schema", struct([["openAPIV3Schema", SCHEMA, N]]), N],
  ["subresources", struct([["status", "any", N], ["scale", struct([["specReplicasPath", "any"], ["statusReplicasPath", "any"], ["labelSelectorPath", "any", N]]), N]]), N],
  ["additionalPrinterColumns", struct([["name", "any"], ["type", "any"], ["format", "any"], ["description", "any"], ["priority", "any"], ["jsonPath", "any"]]), O, N],
  ["selectableFields", struct([["jsonPath", "any"]]), O, N],
]);
const SERVICE = struct([["namespace", "any"], ["name", "any"], ["path", "any", N], ["port", "any", N]]);
const CLIENT_CONFIG = struct([["url", "any", N], ["service", SERVICE, N], ["caBundle", "any", N]]);
const CONVERSION = struct([["strategy", "any"], ["webhook", struct([["clientConfig", CLIENT_CONFIG, N], ["conversionReviewVersions", "any", N]]), N]]);
const SPEC = struct([["group", "any"], ["names", NAMES], ["scope", "any"], ["versions", VERSION, N], ["conversion", CONVERSION, N], ["preserveUnknownFields", "any"]]);
const CONDITION = struct([["type", "any"], ["status", "any"], ["lastTransitionTime", "any", N], ["reason", "any"], ["message", "any"]]);
const STATUS = struct([["conditions", CONDITION, N], ["acceptedNames", NAMES], ["storedVersions", "any", N]]);
/** Drops the empty omitempty lists and maps of a CRD `spec`, at every depth, and a false `preserveUnknownFields` (in place). */
export function omitEmptyCrdSpec(spec: JsonObject): void {
  // `PreserveUnknownFields bool \`json:"preserveUnknownFields,omitempty"\``: false is not written (nor, since the field
  // manager sees the typed object through the same tags, managed).
  if (spec["preserveUnknownFields"] === false) delete spec["preserveUnknownFields"];
  goOmitEmptyCollections(spec, SPEC);
}

/** ObjectMeta. */
export const OBJECT_META_SHAPE: GoShape = OBJECT_META;
/**
 * The CRD as the patch handler encodes the current object (apiVersion before kind, as the real server quotes it in
 * test/golden/server/34-fuzz-findings-2.json).
 */
const CRD = struct([["apiVersion", "any"], ["kind", "any"], ["metadata", OBJECT_META], ["spec", SPEC], ["status", STATUS]]);
/** A CustomResourceDefinition as the API server answers it (TypeMeta first: kind, apiVersion). */
export const CRD_SHAPE: GoShape = struct([["kind", "any"], ["apiVersion", "any"], ["metadata", OBJECT_META], ["spec", SPEC], ["status", STATUS]]);

function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(compareGoStrings);
}

function ordered(v: JsonValue, shape: GoShape, maps: WeakSet<object>): JsonValue {
  if (shape === "any") return v;
  // A slice of the shape's type (or either form of JSONSchemaPropsOrArray/OrStringArray).
  if (Array.isArray(v)) return v.map((x) => ordered(x, shape, maps));
  if (!isObject(v)) return v;
  if ("pick" in shape) return ordered(v, shape.pick(v), maps);
  const out: JsonObject = {};
  if ("map" in shape) {
    // A Go map: json.Marshal sorts its keys (integer-like keys come first in a JS object: `maps` says to sort).
    maps.add(out);
    for (const k of sortedKeys(v)) setKey(out, k, ordered(v[k]!, shape.map, maps));
    return out;
  }
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
