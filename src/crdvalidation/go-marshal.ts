/**
 * `json.Marshal` of internal apiextensions Go structs (no json tags: Go field names, every field, struct
 * order), as they appear in `field.Invalid` bad values, e.g. `spec.versions: Invalid value: [{"Name":"v1",...}]`.
 */
import type { JSONSchemaProps, ValidationRule } from "../crd/types.js";
import type { InternalVersion } from "../crd/internal.js";
import { RawJson } from "../errors/field-error.js";
import { compareGoStrings } from "../go/fmt.js";
import { goJsonFloat, goJsonMarshal, goJsonString } from "../go/json.js";
import type { JsonValue } from "../value/json-value.js";

type Field = [string, string];

function obj(fields: Field[]): string {
  return "{" + fields.map(([k, v]) => `${goJsonString(k)}:${v}`).join(",") + "}";
}

const str = (s: string | undefined): string => goJsonString(s ?? "");
const strPtr = (s: string | undefined): string => (s === undefined ? "null" : goJsonString(s));
const bool = (b: boolean | undefined): string => (b ? "true" : "false");
const boolPtr = (b: boolean | undefined): string => (b === undefined ? "null" : bool(b));
const num = (n: number | undefined): string => (n === undefined ? "null" : goJsonFloat(n));
const int = (n: number | undefined): string => (n === undefined ? "null" : String(n));
const strs = (a: string[] | undefined): string => (a === undefined ? "null" : "[" + a.map((x) => goJsonString(x)).join(",") + "]");
const json = (v: JsonValue | undefined): string => (v === undefined ? "null" : goJsonMarshal(v));

function schemaList(a: JSONSchemaProps[] | undefined): string {
  return a === undefined ? "null" : "[" + a.map(goSchema).join(",") + "]";
}

function schemaMap(m: Record<string, JSONSchemaProps> | undefined): string {
  if (m === undefined) return "null";
  return "{" + Object.keys(m).sort(compareGoStrings).map((k) => `${goJsonString(k)}:${goSchema(m[k]!)}`).join(",") + "}";
}

function orBool(v: JSONSchemaProps | boolean | undefined): string {
  if (v === undefined) return "null";
  if (typeof v === "boolean") return obj([["Allows", bool(v)], ["Schema", "null"]]);
  return obj([["Allows", "true"], ["Schema", goSchema(v)]]);
}

/** Go ValidationRule struct JSON. */
export function goValidationRule(r: ValidationRule): string {
  return obj([
    ["Rule", str(r.rule)],
    ["Message", str(r.message)],
    ["MessageExpression", str(r.messageExpression)],
    ["Reason", strPtr(r.reason)],
    ["FieldPath", str(r.fieldPath)],
    ["OptionalOldSelf", boolPtr(r.optionalOldSelf)],
  ]);
}

/** Go internal JSONSchemaPropsOrArray JSON (`items`). */
export function goItems(items: JSONSchemaProps | JSONSchemaProps[] | undefined): string {
  if (items === undefined) return "null";
  if (Array.isArray(items)) return obj([["Schema", "null"], ["JSONSchemas", schemaList(items)]]);
  return obj([["Schema", goSchema(items)], ["JSONSchemas", "null"]]);
}

/** Go internal JSONSchemaProps JSON. */
export function goSchema(s: JSONSchemaProps): string {
  let deps = "null";
  if (s.dependencies !== undefined) {
    const d = s.dependencies;
    deps = "{" + Object.keys(d).sort(compareGoStrings).map((k) => {
      const v = d[k]!;
      const val = Array.isArray(v) ? obj([["Schema", "null"], ["Property", strs(v)]]) : obj([["Schema", goSchema(v)], ["Property", "null"]]);
      return `${goJsonString(k)}:${val}`;
    }).join(",") + "}";
  }
  const ed = s.externalDocs === undefined ? "null" : obj([["Description", str(s.externalDocs.description)], ["URL", str(s.externalDocs.url)]]);
  const xv = s["x-kubernetes-validations"];
  return obj([
    ["ID", str(s.id)], ["Schema", str(s.$schema)], ["Ref", strPtr(s.$ref)], ["Description", str(s.description)], ["Type", str(s.type)],
    ["Nullable", bool(s.nullable)], ["Format", str(s.format)], ["Title", str(s.title)], ["Default", json(s.default)],
    ["Maximum", num(s.maximum)], ["ExclusiveMaximum", bool(s.exclusiveMaximum)], ["Minimum", num(s.minimum)],
    ["ExclusiveMinimum", bool(s.exclusiveMinimum)], ["MaxLength", int(s.maxLength)], ["MinLength", int(s.minLength)],
    ["Pattern", str(s.pattern)], ["MaxItems", int(s.maxItems)], ["MinItems", int(s.minItems)], ["UniqueItems", bool(s.uniqueItems)],
    ["MultipleOf", num(s.multipleOf)], ["Enum", s.enum === undefined ? "null" : "[" + s.enum.map((e) => json(e)).join(",") + "]"],
    ["MaxProperties", int(s.maxProperties)], ["MinProperties", int(s.minProperties)], ["Required", strs(s.required)],
    ["Items", goItems(s.items)], ["AllOf", schemaList(s.allOf)], ["OneOf", schemaList(s.oneOf)], ["AnyOf", schemaList(s.anyOf)],
    ["Not", s.not === undefined ? "null" : goSchema(s.not)], ["Properties", schemaMap(s.properties)],
    ["AdditionalProperties", orBool(s.additionalProperties)], ["PatternProperties", schemaMap(s.patternProperties)],
    ["Dependencies", deps], ["AdditionalItems", orBool(s.additionalItems)], ["Definitions", schemaMap(s.definitions)],
    ["ExternalDocs", ed], ["Example", json(s.example)], ["XPreserveUnknownFields", boolPtr(s["x-kubernetes-preserve-unknown-fields"])],
    ["XEmbeddedResource", bool(s["x-kubernetes-embedded-resource"])], ["XIntOrString", bool(s["x-kubernetes-int-or-string"])],
    ["XListMapKeys", strs(s["x-kubernetes-list-map-keys"])], ["XListType", strPtr(s["x-kubernetes-list-type"])],
    ["XMapType", strPtr(s["x-kubernetes-map-type"])], ["XValidations", xv === undefined ? "null" : "[" + xv.map(goValidationRule).join(",") + "]"],
  ]);
}

/** Go internal []CustomResourceDefinitionVersion JSON. */
export function goVersions(versions: InternalVersion[]): RawJson {
  const parts = versions.map((v) => {
    const schema = v.schema === undefined ? "null" : obj([["OpenAPIV3Schema", v.schema.openAPIV3Schema === undefined ? "null" : goSchema(v.schema.openAPIV3Schema)]]);
    const sr = v.subresources;
    const subs = sr === undefined ? "null" : obj([
      ["Status", sr.status === undefined ? "null" : "{}"],
      ["Scale", sr.scale === undefined ? "null" : obj([
        ["SpecReplicasPath", str(sr.scale.specReplicasPath)], ["StatusReplicasPath", str(sr.scale.statusReplicasPath)],
        ["LabelSelectorPath", strPtr(sr.scale.labelSelectorPath)],
      ])],
    ]);
    const cols = v.additionalPrinterColumns === undefined ? "null" : "[" + v.additionalPrinterColumns.map((c) => obj([
      ["Name", str(c.name)], ["Type", str(c.type)], ["Format", str(c.format)], ["Description", str(c.description)],
      ["Priority", String(c.priority ?? 0)], ["JSONPath", str(c.jsonPath)],
    ])).join(",") + "]";
    const sf = v.selectableFields === undefined ? "null" : "[" + v.selectableFields.map((f) => obj([["JSONPath", str(f.jsonPath)]])).join(",") + "]";
    return obj([
      ["Name", str(v.name)], ["Served", bool(v.served)], ["Storage", bool(v.storage)], ["Deprecated", bool(v.deprecated)],
      ["DeprecationWarning", strPtr(v.deprecationWarning)], ["Schema", schema], ["Subresources", subs],
      ["AdditionalPrinterColumns", cols], ["SelectableFields", sf],
    ]);
  });
  return new RawJson("[" + parts.join(",") + "]");
}

/** A Go pointer-to-string / string slice bad value rendered with json.Marshal. */
export function goJsonValue(v: JsonValue | undefined): RawJson {
  return new RawJson(v === undefined ? "null" : goJsonMarshal(v));
}
