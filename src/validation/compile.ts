/**
 * Compiles a CRD's (internal) openAPIV3Schema into a tree of {@link SchemaNode}s, applying the
 * conversion the API server does (`ConvertJSONSchemaPropsWithPostProcess` with the supported-format
 * post-processor): x-kubernetes-int-or-string ⇒ type [integer, string], formats stripped per type,
 * patterns compiled once, numeric bounds pre-converted.
 */
import type { JSONSchemaProps } from "../crd/types.js";
import { CrdkitError } from "../errors/crdkit-error.js";
import type { JsonValue } from "../value/json-value.js";
import { type CompatibilityVersion, type FormatValidator, effectiveFormat, lookupFormat, supportedFormats } from "./formats.js";
import { type GoRegexp, type GoRegexpResult, compileGoRegexp } from "../go/regexp.js";
import { formatFloatF } from "../go/strconv.js";

/** `int64(f)` as Go computes it on amd64 (out of range ⇒ math.MinInt64). */
const TWO63 = 2 ** 63;

export function goInt64(f: number): number | bigint {
  if (!(f >= -TWO63 && f < TWO63)) return -(1n << 63n);
  const t = Math.trunc(f);
  return Number.isSafeInteger(t) ? (t === 0 ? 0 : t) : BigInt(t);
}

/** `IsValueValidAgainstRange` for a float64 bound/value (true = no error). */
export function floatInRange(f: number, typeName: string, format: string): boolean {
  if (typeName === "integer") {
    const rep = formatFloatF(f);
    if (!/^[+-]?[0-9]+$/.test(rep)) return false;
    const b = BigInt(rep);
    if (format === "int32") return b >= -(1n << 31n) && b < 1n << 31n;
    return b >= -(1n << 63n) && b < 1n << 63n;
  }
  if (format === "float") return Number.isFinite(Math.fround(f));
  return true;
}

/** `IsValueValidAgainstRange` for an int64 value. */
export function intInRange(i: number | bigint, typeName: string, format: string): boolean {
  if (typeName === "integer" && format === "int32") return i >= -2147483648 && i <= 2147483647;
  return true;
}

export interface SchemaOrBoolNode {
  allows: boolean;
  schema?: SchemaNode;
}

/** A compiled schema node: the kube-openapi `spec.Schema` plus everything precomputed for validation. */
export interface SchemaNode {
  readonly types: readonly string[];
  /** Fast type lookup: `typeHas[kind]` for the JSON kinds. */
  readonly typeHas: Readonly<Record<string, boolean>>;
  readonly nullable: boolean;
  /** The format after post-processing ("" when stripped). */
  readonly format: string;
  /** The registry validator when the (kept) format is registered — the format validator applies to strings. */
  readonly formatFn: FormatValidator | undefined;
  readonly typeApplies: boolean;
  readonly maxLength?: number;
  readonly minLength?: number;
  /** The pattern source; compiled lazily (once) by {@link nodePattern}. */
  readonly pattern?: string;
  readonly patternCache: { result?: GoRegexpResult };
  /** Number validator type/format (only for a single integer/number type with a matching format). */
  readonly numType: string;
  readonly numFormat: string;
  readonly multipleOf?: number;
  readonly multipleOfInRange: boolean;
  readonly multipleOfInt: number | bigint;
  readonly maximum?: number;
  readonly maximumInRange: boolean;
  readonly maximumInt: number | bigint;
  readonly exclusiveMaximum: boolean;
  readonly minimum?: number;
  readonly minimumInRange: boolean;
  readonly minimumInt: number | bigint;
  readonly exclusiveMinimum: boolean;
  readonly maxItems?: number;
  readonly minItems?: number;
  readonly uniqueItems: boolean;
  readonly items?: SchemaNode;
  readonly itemsTuple?: readonly SchemaNode[];
  readonly additionalItems?: SchemaOrBoolNode;
  readonly enum?: readonly JsonValue[];
  readonly maxProperties?: number;
  readonly minProperties?: number;
  readonly required?: readonly string[];
  readonly properties?: ReadonlyMap<string, SchemaNode>;
  readonly additionalProperties?: SchemaOrBoolNode;
  readonly patternProperties?: readonly (readonly [string, GoRegexp | undefined, SchemaNode])[];
  readonly allOf?: readonly SchemaNode[];
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly not?: SchemaNode;
  readonly dependencies?: readonly (readonly [string, { schema?: SchemaNode; property?: readonly string[] }])[];
  readonly listType: string;
  readonly listMapKeys: readonly string[];
}

/** Options of {@link compileSchemaNode}. */
export interface CompileOptions {
  /** Compatibility version for supported formats (default: newest). */
  compatibilityVersion?: CompatibilityVersion;
}

const EMPTY: readonly string[] = [];

function isRecord(v: unknown): v is Record<string, JSONSchemaProps> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | undefined {
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v && typeof v === "object" && "value" in v && typeof (v as { value: unknown }).value === "number")
    return (v as { value: number }).value;
  return undefined;
}

/** Compiles one schema (recursively). Throws CrdkitError for `$ref` (unsupported, as kube-openapi panics). */
export function compileSchemaNode(schema: JSONSchemaProps, opts: CompileOptions = {}): SchemaNode {
  const supported = supportedFormats(opts.compatibilityVersion);
  const go = (s: JSONSchemaProps): SchemaNode => compileOne(s, supported, go);
  return go(schema);
}

function compileOne(s: JSONSchemaProps, supported: ReadonlySet<string>, go: (s: JSONSchemaProps) => SchemaNode): SchemaNode {
  if (s === null || typeof s !== "object" || Array.isArray(s)) throw new CrdkitError("InvalidSchema", "schema node must be an object");
  if (typeof s.$ref === "string" && s.$ref !== "") throw new CrdkitError("InvalidSchema", `schema references not supported: ${s.$ref}`);
  // A CRD `type` is one string; an array (kube-openapi StringOrArray) is accepted for completeness.
  const rawType = s.type as unknown;
  const types: readonly string[] = s["x-kubernetes-int-or-string"] === true
    ? ["integer", "string"]
    : Array.isArray(rawType)
      ? rawType.filter((t): t is string => typeof t === "string")
      : typeof rawType === "string" && rawType !== ""
        ? [rawType]
        : EMPTY;
  const format = effectiveFormat(types, typeof s.format === "string" ? s.format : undefined, supported);
  let numType = "";
  let numFormat = "";
  if (types.length === 1) {
    if (types[0] === "integer") {
      numType = "integer";
      if (format === "int32" || format === "int64") numFormat = format;
    } else if (types[0] === "number") {
      numType = "number";
      if (format === "float" || format === "double") numFormat = format;
    }
  }
  const multipleOf = num(s.multipleOf);
  const maximum = num(s.maximum);
  const minimum = num(s.minimum);
  const schemaOrBool = (x: JSONSchemaProps | boolean | undefined): SchemaOrBoolNode | undefined => {
    if (x === undefined || x === null) return undefined;
    if (typeof x === "boolean") return { allows: x };
    if (!isRecord(x)) return undefined;
    return { allows: true, schema: go(x) };
  };
  let items: SchemaNode | undefined;
  let itemsTuple: SchemaNode[] | undefined;
  if (Array.isArray(s.items)) itemsTuple = s.items.map(go);
  else if (isRecord(s.items)) items = go(s.items);
  const mapOf = (m: Record<string, JSONSchemaProps> | undefined) =>
    isRecord(m) ? Object.keys(m).map((k) => [k, go(m[k]!)] as const) : undefined;
  const listOf = (a: JSONSchemaProps[] | undefined) => (Array.isArray(a) ? a.map((x) => go(x)) : undefined);
  const props = mapOf(s.properties);
  const patternProps = mapOf(s.patternProperties)?.map(([k, n]) => [k, compileGoRegexp(k).regexp, n] as const);
  const deps = isRecord(s.dependencies)
    ? Object.keys(s.dependencies).map((k) => {
        const d = s.dependencies![k]!;
        return [k, Array.isArray(d) ? { property: d.filter((x) => typeof x === "string") } : { schema: go(d) }] as const;
      })
    : undefined;
  const nz = <T>(a: T[] | undefined) => (a && a.length > 0 ? a : undefined);
  const typeHas: Record<string, boolean> = Object.create(null);
  for (const t of types) typeHas[t] = true;
  return {
    types,
    typeHas,
    nullable: s.nullable === true,
    format,
    formatFn: format !== "" ? lookupFormat(format) : undefined,
    typeApplies: types.length > 0 || format !== "",
    maxLength: num(s.maxLength),
    minLength: num(s.minLength),
    pattern: typeof s.pattern === "string" && s.pattern !== "" ? s.pattern : undefined,
    patternCache: {},
    numType,
    numFormat,
    multipleOf,
    multipleOfInRange: multipleOf === undefined || floatInRange(multipleOf, numType, numFormat),
    multipleOfInt: multipleOf === undefined ? 0 : goInt64(multipleOf),
    maximum,
    maximumInRange: maximum === undefined || floatInRange(maximum, numType, numFormat),
    maximumInt: maximum === undefined ? 0 : goInt64(maximum),
    exclusiveMaximum: s.exclusiveMaximum === true,
    minimum,
    minimumInRange: minimum === undefined || floatInRange(minimum, numType, numFormat),
    minimumInt: minimum === undefined ? 0 : goInt64(minimum),
    exclusiveMinimum: s.exclusiveMinimum === true,
    maxItems: num(s.maxItems),
    minItems: num(s.minItems),
    uniqueItems: s.uniqueItems === true,
    items,
    itemsTuple,
    additionalItems: schemaOrBool(s.additionalItems),
    enum: Array.isArray(s.enum) && s.enum.length > 0 ? s.enum : undefined,
    maxProperties: num(s.maxProperties),
    minProperties: num(s.minProperties),
    required: Array.isArray(s.required) ? nz(s.required.filter((x) => typeof x === "string")) : undefined,
    properties: props ? new Map(props) : undefined,
    additionalProperties: schemaOrBool(s.additionalProperties),
    patternProperties: nz(patternProps),
    allOf: nz(listOf(s.allOf)),
    anyOf: nz(listOf(s.anyOf)),
    oneOf: nz(listOf(s.oneOf)),
    not: isRecord(s.not) ? go(s.not) : undefined,
    dependencies: nz(deps),
    listType: typeof s["x-kubernetes-list-type"] === "string" ? s["x-kubernetes-list-type"] : "",
    listMapKeys: Array.isArray(s["x-kubernetes-list-map-keys"]) ? s["x-kubernetes-list-map-keys"] : EMPTY,
  };
}

/** The node's compiled pattern (compiled on first use, then reused). */
export function nodePattern(n: SchemaNode): GoRegexpResult | undefined {
  if (n.pattern === undefined) return undefined;
  let r = n.patternCache.result;
  if (!r) {
    r = compileGoRegexp(n.pattern);
    n.patternCache.result = r;
  }
  return r;
}
