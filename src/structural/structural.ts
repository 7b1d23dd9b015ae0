/**
 * The structural-schema model (Kubernetes `pkg/apiserver/schema/structural.go`): the "shape" of a
 * schema (type, properties, items, additionalProperties, x-kubernetes extensions) separated from the
 * "logic" (value validations, which may also appear in allOf/anyOf/oneOf/not). Pruning, defaulting,
 * ObjectMeta coercion, list types and CEL walk this model; the OpenAPI value validator uses the raw
 * {@link JSONSchemaProps}.
 */
import type { JSONSchemaProps, ValidationRule } from "../crd/types.js";
import type { JsonValue } from "../value/json-value.js";

export interface Structural {
  /** `""` when unset. */
  type: string;
  items?: Structural;
  properties?: Map<string, Structural>;
  /** `additionalProperties`: a schema (`schema` set, `allows` true) or a boolean. */
  additionalProperties?: { schema?: Structural; allows: boolean };
  description?: string;
  title?: string;
  /** True when `default` is set to a non-null value (`default: null` means no default). */
  hasDefault: boolean;
  default?: JsonValue;
  nullable: boolean;
  xPreserveUnknownFields: boolean;
  xEmbeddedResource: boolean;
  xIntOrString: boolean;
  xListMapKeys?: string[];
  xListType?: string;
  xMapType?: string;
  xValidations?: ValidationRule[];
  /** Value validations of this node, plus the nested allOf/anyOf/oneOf/not clauses. */
  valueValidation?: ValueValidation;
  /** The raw schema node this structural node was built from (for value validation and publishing). */
  raw: JSONSchemaProps;
  /** `externalDocs` (generic, kept for publishing and the metadata-restriction check). */
  externalDocs?: { description?: string; url?: string };
  /** `example` when set to a non-null value. */
  example?: JsonValue;
}

export interface ValueValidation {
  format?: string;
  maximum?: number;
  exclusiveMaximum?: boolean;
  minimum?: number;
  exclusiveMinimum?: boolean;
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  maxItems?: number;
  minItems?: number;
  uniqueItems?: boolean;
  multipleOf?: number;
  enum?: JsonValue[];
  maxProperties?: number;
  minProperties?: number;
  required?: string[];
  allOf?: NestedValueValidation[];
  oneOf?: NestedValueValidation[];
  anyOf?: NestedValueValidation[];
  not?: NestedValueValidation;
}

/** What may appear inside allOf/anyOf/oneOf/not. Forbidden* record what must not be there. */
export interface NestedValueValidation {
  valueValidation: ValueValidation;
  xValidations?: ValidationRule[];
  items?: NestedValueValidation;
  properties?: Map<string, NestedValueValidation>;
  additionalProperties?: NestedValueValidation;
  forbiddenGenerics: { type?: string; description?: string; title?: string; nullable?: boolean; hasDefault?: boolean; additionalProperties?: boolean };
  forbiddenExtensions: {
    xPreserveUnknownFields?: boolean;
    xEmbeddedResource?: boolean;
    xIntOrString?: boolean;
    xListMapKeys?: string[];
    xListType?: string;
    xMapType?: string;
  };
  raw: JSONSchemaProps;
}
