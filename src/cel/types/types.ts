/**
 * The CEL type model used by the type checker, mirroring cel-go's `common/types.Type`.
 *
 * Types are immutable plain objects. Object ("struct") types carry only their name; their fields
 * are looked up through a {@link TypeProvider} (declared as plain field maps, no protobuf).
 * @module
 */

/** The category of a CEL type (cel-go `types.Kind`). */
export type TypeKind =
  | "unspecified"
  | "dyn"
  | "any"
  | "bool"
  | "bytes"
  | "double"
  | "duration"
  | "error"
  | "int"
  | "list"
  | "map"
  | "null_type"
  | "opaque"
  | "string"
  | "struct"
  | "timestamp"
  | "type"
  | "type_param"
  | "uint";

/** A CEL type: kind, runtime type name and type parameters. */
export interface CelType {
  readonly kind: TypeKind;
  /** cel-go's `TypeName()`: `int`, `list`, `google.protobuf.Timestamp`, a struct or opaque name, or a type-param name. */
  readonly name: string;
  readonly params: readonly CelType[];
  /**
   * A protobuf wrapper type (`google.protobuf.Int64Value`): the wrapped primitive's kind, name and parameters, also
   * assignable from null (cel-go `NewNullableType`; formatted `wrapper(int)`).
   */
  readonly nullable?: true;
}

const NO_PARAMS: readonly CelType[] = Object.freeze([]);

function prim(kind: TypeKind, name: string): CelType {
  return Object.freeze({ kind, name, params: NO_PARAMS });
}

/** `dyn` */
export const DynType: CelType = prim("dyn", "dyn");
/** `google.protobuf.Any` (kept for completeness; never declared by crdkit itself). */
export const AnyType: CelType = prim("any", "google.protobuf.Any");
/** `bool` */
export const BoolType: CelType = prim("bool", "bool");
/** `bytes` */
export const BytesType: CelType = prim("bytes", "bytes");
/** `double` */
export const DoubleType: CelType = prim("double", "double");
/** `google.protobuf.Duration` (formatted `duration`) */
export const DurationType: CelType = prim("duration", "google.protobuf.Duration");
/** The error type (formatted `!error!`). */
export const ErrorType: CelType = prim("error", "error");
/** `int` */
export const IntType: CelType = prim("int", "int");
/** `null_type` (formatted `null`) */
export const NullType: CelType = prim("null_type", "null_type");
/** `string` */
export const StringType: CelType = prim("string", "string");
/** `google.protobuf.Timestamp` (formatted `timestamp`) */
export const TimestampType: CelType = prim("timestamp", "google.protobuf.Timestamp");
/** `type` without parameter. */
export const TypeType: CelType = prim("type", "type");
/** `uint` */
export const UintType: CelType = prim("uint", "uint");

/** cel-go's `NewNullableType(wrapped)`: a protobuf wrapper type of a primitive. */
export function wrapperType(wrapped: CelType): CelType {
  return Object.freeze({ kind: wrapped.kind, name: wrapped.name, params: wrapped.params, nullable: true });
}

/** `list(elem)` */
export function listType(elem: CelType): CelType {
  return { kind: "list", name: "list", params: [elem] };
}

/** `map(key, value)` */
export function mapType(key: CelType, value: CelType): CelType {
  return { kind: "map", name: "map", params: [key, value] };
}

/** An opaque (abstract) type such as `optional_type(T)` or `kubernetes.Quantity`. */
export function opaqueType(name: string, ...params: CelType[]): CelType {
  return { kind: "opaque", name, params };
}

/** `optional_type(T)` */
export function optionalType(param: CelType): CelType {
  return opaqueType("optional_type", param);
}

/** A named object type whose fields are provided by a {@link TypeProvider}. */
export function structType(name: string): CelType {
  return { kind: "struct", name, params: NO_PARAMS };
}

/** A type parameter such as `A` or the checker's fresh `_var0`. */
export function typeParamType(name: string): CelType {
  return { kind: "type_param", name, params: NO_PARAMS };
}

/** `type(T)` */
export function typeTypeWithParam(param: CelType): CelType {
  return { kind: "type", name: "type", params: [param] };
}

/** The pseudo function type used by overload resolution (`function(result, args...)`). */
export function functionType(result: CelType, args: readonly CelType[]): CelType {
  return opaqueType("function", result, ...args);
}

/** Whether `t` is `optional_type(_)`. */
export function isOptionalType(t: CelType): boolean {
  return t.kind === "opaque" && t.name === "optional_type";
}

/**
 * cel-go's `FormatCELType`: `int`, `list(string)`, `map(string, dyn)`, `timestamp`, `null`,
 * `!error!`, `type(int)`, `optional_type(int)`, a struct name, a type-param name.
 */
export function formatType(t: CelType): string {
  switch (t.kind) {
    case "any":
      return "any";
    case "duration":
      return "duration";
    case "error":
      return "!error!";
    case "null_type":
      return "null";
    case "timestamp":
      return "timestamp";
    case "type_param":
      return t.name;
    case "unspecified":
      return "";
    case "opaque":
      if (t.name === "function" && t.params.length > 0) {
        return formatFunctionType(t.params[0], t.params.slice(1), false);
      }
      break;
    default:
      break;
  }
  if (t.params.length === 0) return t.nullable === true ? `wrapper(${t.name})` : t.name;
  return `${t.name}(${t.params.map(formatType).join(", ")})`;
}

/**
 * cel-go's `formatFunctionDeclType`: `(int, bool)`, `string.(int)`, with ` -> result` when a
 * result type is given.
 */
export function formatFunctionType(
  result: CelType | undefined,
  args: readonly CelType[],
  isInstance: boolean,
): string {
  let out = "";
  let rest = args;
  if (isInstance && args.length > 0) {
    out += `${formatType(args[0] as CelType)}.`;
    rest = args.slice(1);
  }
  out += `(${rest.map(formatType).join(", ")})`;
  const rt = result === undefined ? "" : formatType(result);
  if (rt !== "") out += ` -> ${rt}`;
  return out;
}

/** cel-go's `Type.IsExactType`: same kind, name (type params included) and parameters. */
export function isExactType(a: CelType, b: CelType): boolean {
  if (a === b) return true;
  if (a.kind !== b.kind || a.name !== b.name || a.params.length !== b.params.length) return false;
  for (let i = 0; i < a.params.length; i++) {
    if (!isExactType(a.params[i] as CelType, b.params[i] as CelType)) return false;
  }
  return true;
}

/** cel-go's default `Type.IsAssignableType(from)`: `t` is dyn, or kinds, names and params agree. */
export function isAssignableType(t: CelType, from: CelType): boolean {
  if (t === from || t.kind === "dyn") return true;
  if (t.nullable === true && from.kind === "null_type") return true;
  if (t.kind !== from.kind || t.name !== from.name || t.params.length !== from.params.length) {
    return false;
  }
  for (let i = 0; i < t.params.length; i++) {
    if (!isAssignableType(t.params[i] as CelType, from.params[i] as CelType)) return false;
  }
  return true;
}

/** Collects the names of the type parameters occurring in `t` (in order of first appearance). */
export function collectTypeParams(t: CelType, into: string[] = []): string[] {
  if (t.kind === "type_param") {
    if (!into.includes(t.name)) into.push(t.name);
    return into;
  }
  for (const p of t.params) collectTypeParams(p, into);
  return into;
}
