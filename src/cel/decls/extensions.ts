/**
 * Declarations of the cel-go extension libraries Kubernetes enables: `ext.Strings` (version 2),
 * `ext.Sets`, `ext.Lists` (version 3) and the optional-types library — with cel-go's overload ids.
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
  optionalType,
  StringType,
  TimestampType,
  typeParamType,
  UintType,
} from "../types/types.js";
import { type FunctionDecl, fn, memberOverload, overload } from "./decl.js";

/** `ext.Strings(ext.StringsVersion(2))` */
export const STRINGS_EXT_V2: readonly FunctionDecl[] = [
  fn("charAt", memberOverload("string_char_at_int", [StringType, IntType], StringType)),
  fn(
    "indexOf",
    memberOverload("string_index_of_string", [StringType, StringType], IntType),
    memberOverload("string_index_of_string_int", [StringType, StringType, IntType], IntType),
  ),
  fn(
    "lastIndexOf",
    memberOverload("string_last_index_of_string", [StringType, StringType], IntType),
    memberOverload("string_last_index_of_string_int", [StringType, StringType, IntType], IntType),
  ),
  fn("lowerAscii", memberOverload("string_lower_ascii", [StringType], StringType)),
  fn(
    "replace",
    memberOverload("string_replace_string_string", [StringType, StringType, StringType], StringType),
    memberOverload("string_replace_string_string_int", [StringType, StringType, StringType, IntType], StringType),
  ),
  fn(
    "split",
    memberOverload("string_split_string", [StringType, StringType], listType(StringType)),
    memberOverload("string_split_string_int", [StringType, StringType, IntType], listType(StringType)),
  ),
  fn(
    "substring",
    memberOverload("string_substring_int", [StringType, IntType], StringType),
    memberOverload("string_substring_int_int", [StringType, IntType, IntType], StringType),
  ),
  fn("trim", memberOverload("string_trim", [StringType], StringType)),
  fn("upperAscii", memberOverload("string_upper_ascii", [StringType], StringType)),
  fn("format", memberOverload("string_format", [StringType, listType(DynType)], StringType)),
  fn("strings.quote", overload("strings_quote", [StringType], StringType)),
  fn(
    "join",
    memberOverload("list_join", [listType(StringType)], StringType),
    memberOverload("list_join_string", [listType(StringType), StringType], StringType),
  ),
];

const T = typeParamType("T");
const listOfT = listType(T);

/** `ext.Sets()` */
export const SETS_EXT: readonly FunctionDecl[] = [
  fn("sets.contains", overload("list_sets_contains_list", [listOfT, listOfT], BoolType)),
  fn("sets.equivalent", overload("list_sets_equivalent_list", [listOfT, listOfT], BoolType)),
  fn("sets.intersects", overload("list_sets_intersects_list", [listOfT, listOfT], BoolType)),
];

const comparableTypes: readonly CelType[] = [
  IntType,
  UintType,
  DoubleType,
  BoolType,
  DurationType,
  TimestampType,
  StringType,
  BytesType,
];

/** `ext.Lists(ext.ListsVersion(3))` (the `sortBy` macro is the parser's). */
export const LISTS_EXT_V3: readonly FunctionDecl[] = [
  fn("slice", memberOverload("list_slice", [listOfT, IntType, IntType], listOfT)),
  fn(
    "flatten",
    memberOverload("list_flatten", [listType(listOfT)], listOfT),
    memberOverload("list_flatten_int", [listType(DynType), IntType], listType(DynType)),
  ),
  fn("sort", ...comparableTypes.map((t) => memberOverload(`list_${t.name}_sort`, [listType(t)], listType(t)))),
  fn(
    "@sortByAssociatedKeys",
    ...comparableTypes.map((u) => memberOverload(`list_${u.name}_sortByAssociatedKeys`, [listOfT, listType(u)], listOfT)),
  ),
  fn("lists.range", overload("lists_range", [IntType], listType(IntType))),
  fn("reverse", memberOverload("list_reverse", [listOfT], listOfT)),
  fn("distinct", memberOverload("list_distinct", [listOfT], listOfT)),
];

const K = typeParamType("K");
const V = typeParamType("V");
const optV = optionalType(V);
const listOfV = listType(V);
const mapKV = mapType(K, V);

/** `cel.OptionalTypes()` (latest version). `optMap`/`optFlatMap` are parser macros. */
export const OPTIONAL_LIB: readonly FunctionDecl[] = [
  fn("optional.of", overload("optional_of", [V], optV)),
  fn("optional.ofNonZeroValue", overload("optional_ofNonZeroValue", [V], optV)),
  fn("optional.none", overload("optional_none", [], optV)),
  fn("value", memberOverload("optional_value", [optV], V)),
  fn("hasValue", memberOverload("optional_hasValue", [optV], BoolType)),
  fn("or", memberOverload("optional_or_optional", [optV, optV], optV)),
  fn("orValue", memberOverload("optional_orValue_value", [optV, V], V)),
  fn("_?._", overload("select_optional_field", [DynType, StringType], optV)),
  fn(
    "_[?_]",
    overload("list_optindex_optional_int", [listOfV, IntType], optV),
    overload("optional_list_optindex_optional_int", [optionalType(listOfV), IntType], optV),
    overload("map_optindex_optional_value", [mapKV, K], optV),
    overload("optional_map_optindex_optional_value", [optionalType(mapKV), K], optV),
  ),
  fn(
    "_[_]",
    overload("optional_list_index_int", [optionalType(listOfV), IntType], optV),
    overload("optional_map_index_value", [optionalType(mapKV), K], optV),
  ),
  fn("last", memberOverload("list_last", [listOfV], optV)),
  fn("first", memberOverload("list_first", [listOfV], optV)),
  fn("optional.unwrap", overload("optional_unwrap", [listType(optV)], listOfV)),
  fn("unwrapOpt", memberOverload("optional_unwrapOpt", [listType(optV)], listOfV)),
];

/** `ext.TwoVarComprehensions()`: the helper used by `transformMap` / `transformMapEntry`. */
export const TWO_VAR_COMPREHENSIONS: readonly FunctionDecl[] = [
  fn(
    "cel.@mapInsert",
    overload("@mapInsert_map_key_value", [mapKV, K, V], mapKV),
    overload("@mapInsert_map_map", [mapKV, mapKV], mapKV),
  ),
];
