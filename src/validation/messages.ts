/**
 * kube-openapi `pkg/validation/errors` as crdkit holds them: a validation error keeps its code, name
 * (dotted path inside the validated value), Go value and message text. `plain` errors (composite
 * anyOf/oneOf/allOf/not, range sanity) are Go `error`s that are not `*errors.Validation`.
 */
import type { BadValue } from "../errors/field-error.js";
import { GoNumber } from "../errors/field-error.js";
import type { JsonValue } from "../value/json-value.js";
import { formatGoFloat, goQuote } from "../go/fmt.js";
import { goSprint } from "../go/fmt.js";

/** kube-openapi error codes (only their identity matters). */
export const Code = {
  Composite: 422,
  InvalidType: 601,
  Required: 602,
  TooLong: 603,
  TooShort: 604,
  Pattern: 605,
  Enum: 606,
  MultipleOf: 607,
  Max: 608,
  Min: 609,
  Unique: 610,
  MaxItems: 611,
  MinItems: 612,
  NoAdditionalItems: 613,
  TooFewProperties: 614,
  TooManyProperties: 615,
  UnallowedProperty: 616,
  FailedAllPatternProps: 617,
  MultipleOfMustBePositive: 618,
} as const;

/** One kube-openapi error. */
export interface VErr {
  /** True for `*errors.Validation`, false for plain errors (composites, range sanity). */
  readonly validation: boolean;
  readonly code: number;
  /** `err.Name` (dotted path, `""` for the validator root). */
  readonly name: string;
  readonly message: string;
  /** `err.Value` (`undefined` = Go nil). */
  readonly value?: BadValue;
  /** `err.Valid` for TooLong / MaxItems / TooManyProperties. */
  readonly valid?: number;
  /** `err.Values` for enum failures. */
  readonly values?: readonly JsonValue[];
}

const IN = "body";

function v(code: number, name: string, message: string, value?: BadValue, valid?: number): VErr {
  return { validation: true, code, name, message, value, valid };
}

/** A Go number as held in `err.Value` / printed by `%v`. */
export type GoNum = { kind: "int"; v: number | bigint } | { kind: "float"; v: number };

function numText(n: GoNum): string {
  return n.kind === "int" ? String(n.v) : formatGoFloat(n.v);
}
function numValue(n: GoNum): BadValue {
  return n.kind === "int" ? n.v : new GoNumber(n.v, "float64");
}

export const verr = {
  /** `InvalidType(name, in, typeName, value)` with a string value (`%q`). */
  invalidType: (name: string, typeName: string, value: string): VErr =>
    v(Code.InvalidType, name, `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}`, value),
  required: (name: string): VErr => v(Code.Required, name, `${name} in ${IN} is required`),
  tooLong: (name: string, max: number, value: string): VErr =>
    v(Code.TooLong, name, `${name} in ${IN} should be at most ${max} chars long`, value, max),
  tooShort: (name: string, min: number, value: string): VErr =>
    v(Code.TooShort, name, `${name} in ${IN} should be at least ${min} chars long`, value, min),
  failedPattern: (name: string, pattern: string, value: string): VErr =>
    v(Code.Pattern, name, `${name} in ${IN} should match '${pattern}'`, value),
  enumFail: (name: string, value: JsonValue, values: readonly JsonValue[]): VErr => ({
    validation: true,
    code: Code.Enum,
    name,
    message: `${name} in ${IN} should be one of ${goSprint(values as JsonValue[])}`,
    value,
    values,
  }),
  notMultipleOf: (name: string, factor: GoNum, value: GoNum): VErr =>
    v(Code.MultipleOf, name, `${name} in ${IN} should be a multiple of ${numText(factor)}`, numValue(value)),
  multipleOfMustBePositive: (name: string, factor: GoNum): VErr =>
    v(Code.MultipleOfMustBePositive, name, `factor MultipleOf declared for ${name} must be positive: ${numText(factor)}`, numValue(factor)),
  exceedsMaximum: (name: string, max: GoNum, exclusive: boolean, value: GoNum): VErr =>
    v(Code.Max, name, `${name} in ${IN} should be less than ${exclusive ? "" : "or equal to "}${numText(max)}`, numValue(value)),
  exceedsMinimum: (name: string, min: GoNum, exclusive: boolean, value: GoNum): VErr =>
    v(Code.Min, name, `${name} in ${IN} should be greater than ${exclusive ? "" : "or equal to "}${numText(min)}`, numValue(value)),
  duplicateItems: (name: string): VErr => v(Code.Unique, name, `${name} in ${IN} shouldn't contain duplicates`),
  tooManyItems: (name: string, max: number, size: number): VErr =>
    v(Code.MaxItems, name, `${name} in ${IN} should have at most ${max} items`, size, max),
  tooFewItems: (name: string, min: number, size: number): VErr =>
    v(Code.MinItems, name, `${name} in ${IN} should have at least ${min} items`, size, min),
  tooManyProperties: (name: string, max: number, size: number): VErr =>
    v(Code.TooManyProperties, name, `${name} in ${IN} should have at most ${max} properties`, size, max),
  tooFewProperties: (name: string, min: number, size: number): VErr =>
    v(Code.TooFewProperties, name, `${name} in ${IN} should have at least ${min} properties`, size, min),
  propertyNotAllowed: (name: string, key: string): VErr =>
    v(Code.UnallowedProperty, name, `${name}.${key} in ${IN} is a forbidden property`, key),
  /** A plain (non-Validation) error. */
  plain: (message: string): VErr => ({ validation: false, code: Code.Composite, name: "", message }),
};

/** `"%q must validate at least one schema (anyOf)"` etc. (plain composite errors). */
export const compositeMessages = {
  anyOf: (path: string) => `${goQuote(path)} must validate at least one schema (anyOf)`,
  oneOf: (path: string, additional: string) => `${goQuote(path)} must validate one and only one schema (oneOf). ${additional}`,
  allOf: (path: string, additional: string) => `${goQuote(path)} must validate all the schemas (allOf)${additional}`,
  not: (path: string) => `${goQuote(path)} must not validate the schema (not)`,
  dependency: (path: string, key: string) => `${goQuote(path)} has a dependency on ${key}`,
  noAdditionalItems: () => "array doesn't allow for additional items",
};
