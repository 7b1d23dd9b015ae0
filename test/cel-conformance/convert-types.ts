/**
 * Converts the JSON-encoded `cel.expr.Type` / `Decl` of conformance tests into crdkit
 * environment options.
 * @module
 */
import type { CustomFunction, EnvOptions } from "../../src/cel/env.js";
import {
  AnyType,
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  DynType,
  ErrorType,
  IntType,
  listType,
  mapType,
  NullType,
  opaqueType,
  StringType,
  TimestampType,
  TypeType,
  typeParamType,
  typeTypeWithParam,
  UintType,
} from "../../src/cel/types/types.js";
import type { Json, SimpleTestJson } from "./suite.js";

const PRIMS: Readonly<Record<string, CelType>> = {
  BOOL: BoolType,
  INT64: IntType,
  UINT64: UintType,
  DOUBLE: DoubleType,
  STRING: StringType,
  BYTES: BytesType,
};

function obj(j: Json | undefined): Record<string, Json> {
  return j !== null && typeof j === "object" && !Array.isArray(j) ? j : {};
}

/** JSON `cel.expr.Type` → {@link CelType}. */
export function jsonToType(j: Json | undefined): CelType {
  const o = obj(j);
  if ("primitive" in o) return PRIMS[String(o.primitive)] ?? ErrorType;
  if ("listType" in o) return listType(jsonToType(obj(o.listType).elemType));
  if ("mapType" in o) {
    const m = obj(o.mapType);
    return mapType(jsonToType(m.keyType), jsonToType(m.valueType));
  }
  if ("null" in o) return NullType;
  if ("dyn" in o) return DynType;
  if ("typeParam" in o) return typeParamType(String(o.typeParam));
  if ("wellKnown" in o) {
    const w = String(o.wellKnown);
    return w === "TIMESTAMP" ? TimestampType : w === "DURATION" ? DurationType : AnyType;
  }
  if ("type" in o) return o.type === null || Object.keys(obj(o.type)).length === 0 ? TypeType : typeTypeWithParam(jsonToType(o.type));
  if ("abstractType" in o) {
    const a = obj(o.abstractType);
    const ps = Array.isArray(a.parameterTypes) ? a.parameterTypes : [];
    return opaqueType(String(a.name), ...ps.map(jsonToType));
  }
  if ("error" in o) return ErrorType;
  return DynType;
}

/** Declarations of cel-go checker_test.go's "default" test environment. */
const CHECKER_TEST_VARIABLES: Readonly<Record<string, CelType>> = {
  is: StringType,
  ii: IntType,
  iu: UintType,
  iz: BoolType,
  ib: BytesType,
  id: DoubleType,
  ix: NullType,
};

const CHECKER_TEST_FUNCTIONS: readonly CustomFunction[] = [
  { name: "fg_s", overloads: [{ id: "fg_s_0", args: [], result: StringType }] },
  { name: "fi_s_s", overloads: [{ id: "fi_s_s_0", member: true, args: [StringType], result: StringType }] },
];

/**
 * The environment options for a test's `typeEnv` and `container`. Tests of cel-go's checker
 * suite (`checkerSuite`) get that suite's default declarations and no cross-type comparisons.
 */
export function envOptionsFor(t: SimpleTestJson, checkerSuite = false): EnvOptions {
  const variables: Record<string, CelType> = checkerSuite ? { ...CHECKER_TEST_VARIABLES } : {};
  const functions: CustomFunction[] = checkerSuite ? [...CHECKER_TEST_FUNCTIONS] : [];
  const opaque = new Set<string>();
  for (const d of t.typeEnv ?? []) {
    if (d.ident !== undefined) variables[d.name] = jsonToType(d.ident.type);
    if (d.function !== undefined) {
      const ovs = obj(d.function).overloads;
      functions.push({
        name: d.name,
        overloads: (Array.isArray(ovs) ? ovs : []).map((ov) => {
          const o = obj(ov);
          const params = Array.isArray(o.params) ? o.params.map(jsonToType) : [];
          const result = jsonToType(o.resultType);
          for (const p of [...params, result]) if (p.kind === "opaque") opaque.add(p.name);
          return { id: String(o.overloadId), member: o.isInstanceFunction === true, args: params, result };
        }),
      });
    }
  }
  return {
    variables,
    functions,
    ...(t.container !== undefined ? { container: t.container } : {}),
    ...(checkerSuite ? { crossTypeNumericComparisons: false } : {}),
    // cel-spec's recorded format-validator messages come from the strings library v4+
    // (formatting_v2); Kubernetes uses v2 (covered by src/cel/checker tests).
    libraries: { strings: 4 },
  };
}
