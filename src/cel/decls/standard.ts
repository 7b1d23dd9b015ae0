/**
 * The CEL standard library declarations with cel-go's overload ids and signatures
 * (cel-go `common/stdlib/standard.go`, `common/overloads`), in cel-go's declaration order.
 * Cross-type numeric comparisons are included (Kubernetes enables them).
 * @module
 */
import {
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  listType,
  mapType,
  NullType,
  StringType,
  TimestampType,
  TypeType,
  typeParamType,
  typeTypeWithParam,
  UintType,
} from "../types/types.js";
import { type FunctionDecl, fn, memberOverload, overload } from "./decl.js";

const A = typeParamType("A");
const B = typeParamType("B");
const listOfA = listType(A);
const mapOfAB = mapType(A, B);

const compareTypes: [string, CelType, CelType][] = [
  ["bool", BoolType, BoolType],
  ["int64", IntType, IntType],
  ["int64_double", IntType, DoubleType],
  ["int64_uint64", IntType, UintType],
  ["uint64", UintType, UintType],
  ["uint64_double", UintType, DoubleType],
  ["uint64_int64", UintType, IntType],
  ["double", DoubleType, DoubleType],
  ["double_int64", DoubleType, IntType],
  ["double_uint64", DoubleType, UintType],
  ["string", StringType, StringType],
  ["bytes", BytesType, BytesType],
  ["timestamp", TimestampType, TimestampType],
  ["duration", DurationType, DurationType],
];

function comparison(op: string, prefix: string): FunctionDecl {
  return fn(op, ...compareTypes.map(([s, l, r]) => overload(`${prefix}_${s}`, [l, r], BoolType)));
}

function timeGetter(name: string, tsId: string, tzId: string, durId?: string): FunctionDecl {
  const ovs = [
    memberOverload(tsId, [TimestampType], IntType),
    memberOverload(tzId, [TimestampType, StringType], IntType),
  ];
  if (durId !== undefined) ovs.push(memberOverload(durId, [DurationType], IntType));
  return fn(name, ...ovs);
}

/** Standard identifiers that name types (`int`, `list`, ... as `type(T)` values). */
export const STANDARD_TYPE_NAMES: readonly CelType[] = [
  BoolType,
  BytesType,
  DoubleType,
  DurationType,
  IntType,
  listOfA,
  mapOfAB,
  NullType,
  StringType,
  TimestampType,
  TypeType,
  UintType,
];

/** The standard function declarations. */
export const STANDARD_FUNCTIONS: readonly FunctionDecl[] = [
  fn("_?_:_", overload("conditional", [BoolType, A, A], A, true)),
  fn("_&&_", overload("logical_and", [BoolType, BoolType], BoolType, true)),
  fn("_||_", overload("logical_or", [BoolType, BoolType], BoolType, true)),
  fn("!_", overload("logical_not", [BoolType], BoolType)),
  fn("@not_strictly_false", overload("not_strictly_false", [BoolType], BoolType, true)),
  fn("_==_", overload("equals", [A, A], BoolType)),
  fn("_!=_", overload("not_equals", [A, A], BoolType)),
  fn(
    "_+_",
    overload("add_bytes", [BytesType, BytesType], BytesType),
    overload("add_double", [DoubleType, DoubleType], DoubleType),
    overload("add_duration_duration", [DurationType, DurationType], DurationType),
    overload("add_duration_timestamp", [DurationType, TimestampType], TimestampType),
    overload("add_timestamp_duration", [TimestampType, DurationType], TimestampType),
    overload("add_int64", [IntType, IntType], IntType),
    overload("add_list", [listOfA, listOfA], listOfA),
    overload("add_string", [StringType, StringType], StringType),
    overload("add_uint64", [UintType, UintType], UintType),
  ),
  fn(
    "_/_",
    overload("divide_double", [DoubleType, DoubleType], DoubleType),
    overload("divide_int64", [IntType, IntType], IntType),
    overload("divide_uint64", [UintType, UintType], UintType),
  ),
  fn(
    "_%_",
    overload("modulo_int64", [IntType, IntType], IntType),
    overload("modulo_uint64", [UintType, UintType], UintType),
  ),
  fn(
    "_*_",
    overload("multiply_double", [DoubleType, DoubleType], DoubleType),
    overload("multiply_int64", [IntType, IntType], IntType),
    overload("multiply_uint64", [UintType, UintType], UintType),
  ),
  fn(
    "-_",
    overload("negate_double", [DoubleType], DoubleType),
    overload("negate_int64", [IntType], IntType),
  ),
  fn(
    "_-_",
    overload("subtract_double", [DoubleType, DoubleType], DoubleType),
    overload("subtract_duration_duration", [DurationType, DurationType], DurationType),
    overload("subtract_int64", [IntType, IntType], IntType),
    overload("subtract_timestamp_duration", [TimestampType, DurationType], TimestampType),
    overload("subtract_timestamp_timestamp", [TimestampType, TimestampType], DurationType),
    overload("subtract_uint64", [UintType, UintType], UintType),
  ),
  comparison("_<_", "less"),
  comparison("_<=_", "less_equals"),
  comparison("_>_", "greater"),
  comparison("_>=_", "greater_equals"),
  fn("_[_]", overload("index_list", [listOfA, IntType], A), overload("index_map", [mapOfAB, A], B)),
  fn("@in", overload("in_list", [A, listOfA], BoolType), overload("in_map", [A, mapOfAB], BoolType)),
  fn(
    "size",
    overload("size_bytes", [BytesType], IntType),
    memberOverload("bytes_size", [BytesType], IntType),
    overload("size_list", [listOfA], IntType),
    memberOverload("list_size", [listOfA], IntType),
    overload("size_map", [mapOfAB], IntType),
    memberOverload("map_size", [mapOfAB], IntType),
    overload("size_string", [StringType], IntType),
    memberOverload("string_size", [StringType], IntType),
  ),
  fn("type", overload("type", [A], typeTypeWithParam(A))),
  fn("bool", overload("bool_to_bool", [BoolType], BoolType), overload("string_to_bool", [StringType], BoolType)),
  fn(
    "bytes",
    overload("bytes_to_bytes", [BytesType], BytesType),
    overload("string_to_bytes", [StringType], BytesType),
  ),
  fn(
    "double",
    overload("double_to_double", [DoubleType], DoubleType),
    overload("int64_to_double", [IntType], DoubleType),
    overload("string_to_double", [StringType], DoubleType),
    overload("uint64_to_double", [UintType], DoubleType),
  ),
  fn(
    "duration",
    overload("duration_to_duration", [DurationType], DurationType),
    overload("string_to_duration", [StringType], DurationType),
  ),
  fn("dyn", overload("to_dyn", [A], DynType)),
  fn(
    "int",
    overload("int64_to_int64", [IntType], IntType),
    overload("double_to_int64", [DoubleType], IntType),
    overload("duration_to_int64", [DurationType], IntType),
    overload("string_to_int64", [StringType], IntType),
    overload("timestamp_to_int64", [TimestampType], IntType),
    overload("uint64_to_int64", [UintType], IntType),
  ),
  fn(
    "string",
    overload("string_to_string", [StringType], StringType),
    overload("bool_to_string", [BoolType], StringType),
    overload("bytes_to_string", [BytesType], StringType),
    overload("double_to_string", [DoubleType], StringType),
    overload("duration_to_string", [DurationType], StringType),
    overload("int64_to_string", [IntType], StringType),
    overload("timestamp_to_string", [TimestampType], StringType),
    overload("uint64_to_string", [UintType], StringType),
  ),
  fn(
    "timestamp",
    overload("timestamp_to_timestamp", [TimestampType], TimestampType),
    overload("int64_to_timestamp", [IntType], TimestampType),
    overload("string_to_timestamp", [StringType], TimestampType),
  ),
  fn(
    "uint",
    overload("uint64_to_uint64", [UintType], UintType),
    overload("double_to_uint64", [DoubleType], UintType),
    overload("int64_to_uint64", [IntType], UintType),
    overload("string_to_uint64", [StringType], UintType),
  ),
  fn("contains", memberOverload("contains_string", [StringType, StringType], BoolType)),
  fn("endsWith", memberOverload("ends_with_string", [StringType, StringType], BoolType)),
  fn("startsWith", memberOverload("starts_with_string", [StringType, StringType], BoolType)),
  fn(
    "matches",
    overload("matches", [StringType, StringType], BoolType),
    memberOverload("matches_string", [StringType, StringType], BoolType),
  ),
  timeGetter("getFullYear", "timestamp_to_year", "timestamp_to_year_with_tz"),
  timeGetter("getMonth", "timestamp_to_month", "timestamp_to_month_with_tz"),
  timeGetter("getDayOfYear", "timestamp_to_day_of_year", "timestamp_to_day_of_year_with_tz"),
  timeGetter("getDayOfMonth", "timestamp_to_day_of_month", "timestamp_to_day_of_month_with_tz"),
  timeGetter("getDate", "timestamp_to_day_of_month_1_based", "timestamp_to_day_of_month_1_based_with_tz"),
  timeGetter("getDayOfWeek", "timestamp_to_day_of_week", "timestamp_to_day_of_week_with_tz"),
  timeGetter("getHours", "timestamp_to_hours", "timestamp_to_hours_with_tz", "duration_to_hours"),
  timeGetter("getMinutes", "timestamp_to_minutes", "timestamp_to_minutes_with_tz", "duration_to_minutes"),
  timeGetter("getSeconds", "timestamp_to_seconds", "timestamp_to_seconds_tz", "duration_to_seconds"),
  timeGetter(
    "getMilliseconds",
    "timestamp_to_milliseconds",
    "timestamp_to_milliseconds_with_tz",
    "duration_to_milliseconds",
  ),
];
