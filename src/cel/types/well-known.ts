/**
 * The protobuf well-known types an environment with cel-go's default registry can construct as messages
 * (`google.protobuf.Duration{seconds: 1}`, `google.protobuf.Int64Value{value: 1}`, `google.protobuf.Struct{}`): the
 * CEL type each message is (cel-go `checkedWellKnowns`) and the CEL types of its fields (their protobuf fields as
 * cel-go's provider types them: int32/int64 `int`, float/double `double`, enums `int`, `Value` `dyn`, `Struct`
 * `map(string, dyn)`, `ListValue` `list(dyn)`).
 * @module
 */
import {
  AnyType,
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  listType,
  mapType,
  StringType,
  TimestampType,
  UintType,
  wrapperType,
} from "./types.js";

/** A well-known message: the CEL type a construction of it has, and its fields. */
export interface WellKnownMessage {
  readonly type: CelType;
  readonly fields: ReadonlyMap<string, CelType>;
}

let MESSAGES: ReadonlyMap<string, WellKnownMessage> | undefined;

function messages(): ReadonlyMap<string, WellKnownMessage> {
  if (MESSAGES) return MESSAGES;
  const m = new Map<string, WellKnownMessage>();
  const add = (name: string, type: CelType, fields: [string, CelType][]) => m.set(`google.protobuf.${name}`, { type, fields: new Map(fields) });
  const seconds: [string, CelType][] = [
    ["seconds", IntType],
    ["nanos", IntType],
  ];
  add("Duration", DurationType, seconds);
  add("Timestamp", TimestampType, seconds);
  for (const [name, t] of [
    ["BoolValue", BoolType],
    ["BytesValue", BytesType],
    ["DoubleValue", DoubleType],
    ["FloatValue", DoubleType],
    ["Int64Value", IntType],
    ["Int32Value", IntType],
    ["UInt64Value", UintType],
    ["UInt32Value", UintType],
    ["StringValue", StringType],
  ] as const) {
    add(name, wrapperType(t), [["value", t]]);
  }
  const struct = mapType(StringType, DynType);
  const list = listType(DynType);
  add("Any", AnyType, [
    ["type_url", StringType],
    ["value", BytesType],
  ]);
  add("Struct", struct, [["fields", struct]]);
  add("ListValue", list, [["values", list]]);
  add("Value", DynType, [
    ["null_value", IntType],
    ["number_value", DoubleType],
    ["string_value", StringType],
    ["bool_value", BoolType],
    ["struct_value", struct],
    ["list_value", list],
  ]);
  MESSAGES = m;
  return m;
}

/** The well-known message `name` (fully qualified, without a leading dot), if it is one. */
export function wellKnownMessage(name: string): WellKnownMessage | undefined {
  return name.startsWith("google.protobuf.") ? messages().get(name) : undefined;
}

/**
 * cel-go's checker `isWellKnownType` and `getWellKnownTypeName`: the message a type that is a well-known type is
 * constructed as (by its kind: a wrapper of int is an `Int64Value`), undefined for every other type.
 */
export function wellKnownTypeName(t: CelType): string | undefined {
  switch (t.kind) {
    case "any":
      return "google.protobuf.Any";
    case "timestamp":
      return "google.protobuf.Timestamp";
    case "duration":
      return "google.protobuf.Duration";
    case "dyn":
      return "google.protobuf.Value";
    case "null_type":
      return "google.protobuf.NullValue";
    case "bool":
    case "bytes":
    case "double":
    case "int":
    case "string":
    case "uint":
      return t.nullable === true ? WRAPPER_NAMES[t.kind] : undefined;
    case "list":
      return t.params[0]?.kind === "dyn" ? "google.protobuf.ListValue" : undefined;
    case "map":
      return t.params[0]?.kind === "string" && t.params[1]?.kind === "dyn" ? "google.protobuf.Struct" : undefined;
    default:
      return undefined;
  }
}

const WRAPPER_NAMES = {
  bool: "google.protobuf.BoolValue",
  bytes: "google.protobuf.BytesValue",
  double: "google.protobuf.DoubleValue",
  int: "google.protobuf.Int64Value",
  string: "google.protobuf.StringValue",
  uint: "google.protobuf.UInt64Value",
} as const;
