/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition as protobuf (apiextensions-apiserver's generated.proto): the
 * field numbers, and how Go's `json.Marshal` writes each field of the decoded struct — `zero` where a field has
 * no `omitempty`, `keepEmpty` / plain `bool` / plain `int64` for pointers (written whenever set), `omitZero` /
 * `omitFalse` for plain fields with `omitempty`.
 */
import { OBJECT_META, type Schema } from "./protobuf-schema.js";

/** JSONSchemaProps refers to itself: filled in below. */
const PROPS: Schema = {};
const EXTERNAL_DOCS: Schema = { 1: { name: "description", type: "string" }, 2: { name: "url", type: "string" } };
const VALIDATION_RULE: Schema = {
  1: { name: "rule", type: "string", keepEmpty: true, zero: true },
  2: { name: "message", type: "string" },
  3: { name: "messageExpression", type: "string" },
  4: { name: "reason", type: "string", keepEmpty: true },
  5: { name: "fieldPath", type: "string" },
  6: { name: "optionalOldSelf", type: "bool" },
};
Object.assign(PROPS, {
  1: { name: "id", type: "string" },
  2: { name: "$schema", type: "string" },
  3: { name: "$ref", type: "string", keepEmpty: true },
  4: { name: "description", type: "string" },
  5: { name: "type", type: "string" },
  6: { name: "format", type: "string" },
  7: { name: "title", type: "string" },
  8: { name: "default", type: "json" },
  9: { name: "maximum", type: "double" },
  10: { name: "exclusiveMaximum", type: "bool", omitFalse: true },
  11: { name: "minimum", type: "double" },
  12: { name: "exclusiveMinimum", type: "bool", omitFalse: true },
  13: { name: "maxLength", type: "int64" },
  14: { name: "minLength", type: "int64" },
  15: { name: "pattern", type: "string" },
  16: { name: "maxItems", type: "int64" },
  17: { name: "minItems", type: "int64" },
  18: { name: "uniqueItems", type: "bool", omitFalse: true },
  19: { name: "multipleOf", type: "double" },
  20: { name: "enum", type: "jsons" },
  21: { name: "maxProperties", type: "int64" },
  22: { name: "minProperties", type: "int64" },
  23: { name: "required", type: "strings" },
  24: { name: "items", type: "schemaOrArray", schema: PROPS },
  25: { name: "allOf", type: "messages", schema: PROPS },
  26: { name: "oneOf", type: "messages", schema: PROPS },
  27: { name: "anyOf", type: "messages", schema: PROPS },
  28: { name: "not", type: "message", schema: PROPS },
  29: { name: "properties", type: "messageMap", schema: PROPS },
  30: { name: "additionalProperties", type: "schemaOrBool", schema: PROPS },
  31: { name: "patternProperties", type: "messageMap", schema: PROPS },
  32: { name: "dependencies", type: "schemaOrStringsMap", schema: PROPS },
  33: { name: "additionalItems", type: "schemaOrBool", schema: PROPS },
  34: { name: "definitions", type: "messageMap", schema: PROPS },
  35: { name: "externalDocs", type: "message", schema: EXTERNAL_DOCS },
  36: { name: "example", type: "json" },
  37: { name: "nullable", type: "bool", omitFalse: true },
  38: { name: "x-kubernetes-preserve-unknown-fields", type: "bool" },
  39: { name: "x-kubernetes-embedded-resource", type: "bool", omitFalse: true },
  40: { name: "x-kubernetes-int-or-string", type: "bool", omitFalse: true },
  41: { name: "x-kubernetes-list-map-keys", type: "strings" },
  42: { name: "x-kubernetes-list-type", type: "string", keepEmpty: true },
  43: { name: "x-kubernetes-map-type", type: "string", keepEmpty: true },
  44: { name: "x-kubernetes-validations", type: "messages", schema: VALIDATION_RULE },
} satisfies Schema);

const NAMES: Schema = {
  1: { name: "plural", type: "string", keepEmpty: true, zero: true },
  2: { name: "singular", type: "string" },
  3: { name: "shortNames", type: "strings" },
  4: { name: "kind", type: "string", keepEmpty: true, zero: true },
  5: { name: "listKind", type: "string" },
  6: { name: "categories", type: "strings" },
};
const COLUMN: Schema = {
  1: { name: "name", type: "string", keepEmpty: true, zero: true },
  2: { name: "type", type: "string", keepEmpty: true, zero: true },
  3: { name: "format", type: "string" },
  4: { name: "description", type: "string" },
  5: { name: "priority", type: "int32", omitZero: true },
  6: { name: "jsonPath", type: "string", keepEmpty: true, zero: true },
};
const VERSION: Schema = {
  1: { name: "name", type: "string", keepEmpty: true, zero: true },
  2: { name: "served", type: "bool", zero: true },
  3: { name: "storage", type: "bool", zero: true },
  7: { name: "deprecated", type: "bool", omitFalse: true },
  8: { name: "deprecationWarning", type: "string", keepEmpty: true },
  4: { name: "schema", type: "message", schema: { 1: { name: "openAPIV3Schema", type: "message", schema: PROPS } } },
  5: {
    name: "subresources",
    type: "message",
    schema: {
      1: { name: "status", type: "message", schema: {} },
      2: {
        name: "scale",
        type: "message",
        schema: {
          1: { name: "specReplicasPath", type: "string", keepEmpty: true, zero: true },
          2: { name: "statusReplicasPath", type: "string", keepEmpty: true, zero: true },
          3: { name: "labelSelectorPath", type: "string", keepEmpty: true },
        },
      },
    },
  },
  6: { name: "additionalPrinterColumns", type: "messages", schema: COLUMN },
  9: { name: "selectableFields", type: "messages", schema: { 1: { name: "jsonPath", type: "string", keepEmpty: true, zero: true } } },
};
const WEBHOOK_CLIENT_CONFIG: Schema = {
  3: { name: "url", type: "string", keepEmpty: true },
  1: {
    name: "service",
    type: "message",
    schema: {
      1: { name: "namespace", type: "string", keepEmpty: true, zero: true },
      2: { name: "name", type: "string", keepEmpty: true, zero: true },
      3: { name: "path", type: "string", keepEmpty: true },
      4: { name: "port", type: "int32" },
    },
  },
  2: { name: "caBundle", type: "bytes" },
};
const CONDITION: Schema = {
  1: { name: "type", type: "string", keepEmpty: true, zero: true },
  2: { name: "status", type: "string", keepEmpty: true, zero: true },
  3: { name: "lastTransitionTime", type: "time", zero: true },
  4: { name: "reason", type: "string" },
  5: { name: "message", type: "string" },
  6: { name: "observedGeneration", type: "int64", omitZero: true },
};

export const CRD_SCHEMA: Schema = {
  1: { name: "metadata", type: "message", schema: OBJECT_META },
  2: {
    name: "spec",
    type: "message",
    zero: true,
    schema: {
      1: { name: "group", type: "string", keepEmpty: true, zero: true },
      3: { name: "names", type: "message", zero: true, schema: NAMES },
      4: { name: "scope", type: "string", keepEmpty: true, zero: true },
      7: { name: "versions", type: "messages", zero: true, schema: VERSION },
      9: {
        name: "conversion",
        type: "message",
        schema: {
          1: { name: "strategy", type: "string", keepEmpty: true, zero: true },
          2: {
            name: "webhook",
            type: "message",
            schema: {
              2: { name: "clientConfig", type: "message", schema: WEBHOOK_CLIENT_CONFIG },
              3: { name: "conversionReviewVersions", type: "strings", zero: true },
            },
          },
        },
      },
      10: { name: "preserveUnknownFields", type: "bool", omitFalse: true },
    },
  },
  3: {
    name: "status",
    type: "message",
    zero: true,
    schema: {
      1: { name: "conditions", type: "messages", zero: true, schema: CONDITION },
      2: { name: "acceptedNames", type: "message", zero: true, schema: NAMES },
      3: { name: "storedVersions", type: "strings", zero: true },
      4: { name: "observedGeneration", type: "int64", omitZero: true },
    },
  },
};
