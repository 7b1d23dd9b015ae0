/**
 * apimachinery's `field.Error`: a problem with a user-supplied value at a field path, rendered exactly as
 * Kubernetes renders it (`spec.replicas: Invalid value: 15: spec.replicas in body should be ...`).
 */
import { Float64, type JsonValue, isObject } from "../value/json-value.js";
import { formatGoFloat, formatGoNumber, goQuote } from "../go/fmt.js";
import { goJsonMarshal } from "../go/json.js";
import { type FieldPath, pathString } from "./field-path.js";

/** The error types, with their Kubernetes wire names (`metav1.CauseType`). */
export const ErrorType = {
  NotFound: "FieldValueNotFound",
  Required: "FieldValueRequired",
  Duplicate: "FieldValueDuplicate",
  Invalid: "FieldValueInvalid",
  NotSupported: "FieldValueNotSupported",
  Forbidden: "FieldValueForbidden",
  TooLong: "FieldValueTooLong",
  TooShort: "FieldValueTooShort",
  TooMany: "FieldValueTooMany",
  TooFew: "FieldValueTooFew",
  Internal: "InternalError",
  TypeInvalid: "FieldValueTypeInvalid",
} as const;
export type ErrorType = (typeof ErrorType)[keyof typeof ErrorType];

const TYPE_TEXT: Record<ErrorType, string> = {
  FieldValueNotFound: "Not found",
  FieldValueRequired: "Required value",
  FieldValueDuplicate: "Duplicate value",
  FieldValueInvalid: "Invalid value",
  FieldValueNotSupported: "Unsupported value",
  FieldValueForbidden: "Forbidden",
  FieldValueTooLong: "Too long",
  FieldValueTooShort: "Too short",
  FieldValueTooMany: "Too many",
  FieldValueTooFew: "Too few",
  InternalError: "Internal error",
  FieldValueTypeInvalid: "Invalid value",
};

/** `field.OmitValueType{}`: the value is not printed. */
export const OMIT = Symbol("omit-value");

/** A value already rendered as JSON (e.g. a Go struct marshaled with its own field order). */
export class RawJson {
  constructor(readonly json: string) {}
}

/** A Go float64 / int64 / int32 whose Go type must be kept for `%v` (e.g. schema bounds). */
export class GoNumber {
  constructor(
    readonly value: number,
    readonly goType: "float64" | "int64",
  ) {}
}

/**
 * A bad value as Go would hold it. Strings print with `%q`, numbers and booleans with `%v`,
 * everything else as JSON; {@link OMIT} prints nothing.
 */
export type BadValue = JsonValue | typeof OMIT | RawJson | GoNumber | undefined;

export interface FieldError {
  readonly type: ErrorType;
  /** The rendered field path (`<nil>` for a nil path). */
  readonly field: string;
  readonly badValue: BadValue;
  readonly detail: string;
}

function renderValue(v: BadValue): string {
  if (v === undefined || v === null) return "null";
  if (typeof v === "string") return goQuote(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "number" || typeof v === "bigint" || v instanceof Float64) return formatGoNumber(v);
  if (v instanceof GoNumber) return v.goType === "float64" ? formatGoFloat(v.value) : String(v.value);
  if (v instanceof RawJson) return v.json;
  if (v === OMIT) return "";
  if (Array.isArray(v) || isObject(v)) return goJsonMarshal(v);
  return "null";
}

const VALUE_PRINTED = new Set<ErrorType>([
  "FieldValueInvalid",
  "FieldValueTypeInvalid",
  "FieldValueNotSupported",
  "FieldValueNotFound",
  "FieldValueDuplicate",
  "FieldValueTooMany",
  "FieldValueTooFew",
]);

/** `ErrorBody()`: the message without the field path. */
export function errorBody(e: FieldError): string {
  let s = TYPE_TEXT[e.type];
  if (VALUE_PRINTED.has(e.type) && e.badValue !== OMIT) s += `: ${renderValue(e.badValue)}`;
  if (e.detail.length > 0) s += `: ${e.detail}`;
  return s;
}

/** `Error()`: `<field>: <body>`. */
export function errorString(e: FieldError): string {
  return `${e.field}: ${errorBody(e)}`;
}

function make(type: ErrorType, path: FieldPath | null, badValue: BadValue, detail: string): FieldError {
  return { type, field: pathString(path), badValue, detail };
}

/** Constructors mirroring apimachinery's `field` package. */
export const fieldError = {
  required: (path: FieldPath | null, detail = ""): FieldError => make("FieldValueRequired", path, "", detail),
  forbidden: (path: FieldPath | null, detail: string): FieldError => make("FieldValueForbidden", path, "", detail),
  invalid: (path: FieldPath | null, value: BadValue, detail: string): FieldError =>
    make("FieldValueInvalid", path, value, detail),
  typeInvalid: (path: FieldPath | null, value: BadValue, detail: string): FieldError =>
    make("FieldValueTypeInvalid", path, value, detail),
  notFound: (path: FieldPath | null, value: BadValue): FieldError => make("FieldValueNotFound", path, value, ""),
  duplicate: (path: FieldPath | null, value: BadValue): FieldError => make("FieldValueDuplicate", path, value, ""),
  /** `field.NotSupported(path, value, validValues)`: valid values are quoted with `strconv.Quote(fmt.Sprint(v))`. */
  notSupported: (path: FieldPath | null, value: BadValue, validValues: readonly string[]): FieldError =>
    make(
      "FieldValueNotSupported",
      path,
      value,
      validValues.length > 0 ? "supported values: " + validValues.map((v) => goQuote(v)).join(", ") : "",
    ),
  /** `field.TooLong(path, value, maxLength)`: the value is never printed. */
  tooLong: (path: FieldPath | null, maxLength: number): FieldError =>
    make(
      "FieldValueTooLong",
      path,
      "<value omitted>",
      maxLength >= 0 ? `may not be more than ${maxLength} ${maxLength === 1 ? "byte" : "bytes"}` : "value is too long",
    ),
  /** `field.TooMany(path, actualQuantity, maxQuantity)`. */
  tooMany: (path: FieldPath | null, actual: number, max: number): FieldError =>
    make(
      "FieldValueTooMany",
      path,
      actual >= 0 ? actual : OMIT,
      max >= 0 ? `must have at most ${max} ${max === 1 ? "item" : "items"}` : "has too many items",
    ),
  tooFew: (path: FieldPath | null, actual: number, min: number): FieldError =>
    make(
      "FieldValueTooFew",
      path,
      actual >= 0 ? actual : OMIT,
      min >= 0 ? `must have at least ${min} ${min === 1 ? "item" : "items"}` : "has too few items",
    ),
  internal: (path: FieldPath | null, message: string): FieldError =>
    make("InternalError", path, message, message),
  /** Rebuilds an error at another path. */
  withField: (e: FieldError, field: string): FieldError => ({ ...e, field }),
};

/**
 * `ErrorList.ToAggregate().Error()`: de-duplicated by full text (first occurrence wins), a single error
 * printed alone, several as `[a, b]`. Returns `""` for no errors.
 */
export function aggregateMessage(errors: readonly FieldError[]): string {
  const texts = dedupeTexts(errors);
  if (texts.length === 0) return "";
  if (texts.length === 1) return texts[0]!;
  return `[${texts.join(", ")}]`;
}

/** The distinct error texts in order of first occurrence. */
export function dedupeTexts(errors: readonly FieldError[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of errors) {
    const t = errorString(e);
    if (!seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  }
  return out;
}

/** Removes errors whose full text repeats an earlier one. */
export function dedupeErrors(errors: readonly FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const t = errorString(e);
    if (seen.has(t)) return false;
    seen.add(t);
    return true;
  });
}
