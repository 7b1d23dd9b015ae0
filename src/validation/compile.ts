/**
 * Compiles a CRD's (internal) openAPIV3Schema into a tree of {@link SchemaNode}s, applying the
 * conversion the API server does (`ConvertJSONSchemaPropsWithPostProcess` with the supported-format
 * post-processor): x-kubernetes-int-or-string ⇒ type [integer, string], formats stripped per type,
 * patterns compiled once on first use, numeric bounds pre-converted.
 */
import type { JSONSchemaProps } from "../crd/types.js";
import { CrdkitError } from "../errors/crdkit-error.js";
import type { JsonValue } from "../value/json-value.js";
import { type CompatibilityVersion, type FormatValidator, effectiveFormat, lookupFormat, supportedFormats } from "./formats.js";
import { type GoRegexpResult, compileGoRegexp } from "../go/regexp.js";
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
    // a safe integer prints as its own digits: the common bound needs no string or BigInt
    if (Number.isSafeInteger(f)) return format !== "int32" || (f >= -2147483648 && f < 2147483648);
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
  readonly patternProperties?: readonly PatternProperty[];
  readonly allOf?: readonly SchemaNode[];
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly not?: SchemaNode;
  readonly dependencies?: readonly (readonly [string, { schema?: SchemaNode; property?: readonly string[] }])[];
  readonly listType: string;
  readonly listMapKeys: readonly string[];
  /** Whether any of anyOf/oneOf/allOf/not/dependencies is set (else the schema-props step has nothing to do). */
  readonly composite: boolean;
}

/** A `patternProperties` entry: its key pattern, compiled on first use by {@link patternKeyMatches}, and its schema. */
export interface PatternProperty {
  readonly source: string;
  readonly schema: SchemaNode;
  compiled?: GoRegexpResult;
}

/** Whether `key` matches the entry's pattern (an invalid pattern matches nothing). */
export function patternKeyMatches(p: PatternProperty, key: string): boolean {
  p.compiled ??= compileGoRegexp(p.source);
  return p.compiled.regexp?.test(key) === true;
}

/** Options of {@link compileSchemaNode}. */
export interface CompileOptions {
  /** Compatibility version for supported formats (default: newest). */
  compatibilityVersion?: CompatibilityVersion;
  /**
   * The schema passed the CRD create checks, which reject what compiling throws for (`$ref`; every node
   * of a decoded schema is an object): the whole-schema walk that throws those errors up front is skipped.
   */
  passedCrdChecks?: boolean;
  /**
   * The schema as `Structural.ToKubeOpenAPI()` converts it (the validation of `default` values), not as
   * `ConvertJSONSchemaProps` does: x-kubernetes-int-or-string is only an extension there, the node keeps its own
   * type (none, or what it names).
   */
  toKubeOpenAPI?: boolean;
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

/**
 * Compiles one schema. Throws CrdkitError for `$ref` (unsupported, as kube-openapi panics) anywhere in it.
 * The nodes below `properties` are compiled when first looked up (see {@link LazyNodeMap}): a large CRD
 * schema of which the validated objects use a few fields compiles a few nodes.
 */
export function compileSchemaNode(schema: JSONSchemaProps, opts: CompileOptions = {}): SchemaNode {
  const supported = supportedFormats(opts.compatibilityVersion);
  // the errors a full compilation would throw, thrown now
  if (!opts.passedCrdChecks) eachSubschema(schema, checkNode);
  const intOrStringTypes = opts.toKubeOpenAPI !== true;
  const go = (s: JSONSchemaProps): SchemaNode => compileOne(s, supported, intOrStringTypes, go);
  return go(schema);
}

function checkNode(s: JSONSchemaProps): void {
  if (s === null || typeof s !== "object" || Array.isArray(s)) throw new CrdkitError("InvalidSchema", "schema node must be an object");
  if (typeof s.$ref === "string" && s.$ref !== "") throw new CrdkitError("InvalidSchema", `schema references not supported: ${s.$ref}`);
}

function pushAll(out: JSONSchemaProps[], xs: readonly JSONSchemaProps[]): void {
  for (let i = 0; i < xs.length; i++) out.push(xs[i]!);
}

function pushValues(out: JSONSchemaProps[], m: Record<string, JSONSchemaProps> | undefined): void {
  if (!isRecord(m)) return;
  const keys = Object.keys(m);
  for (let i = 0; i < keys.length; i++) out.push(m[keys[i]!]!);
}

/** Calls `f` on `s` and every schema below it that {@link compileOne} compiles, in its order (iterative). */
function eachSubschema(root: JSONSchemaProps, f: (s: JSONSchemaProps) => void): void {
  const stack: JSONSchemaProps[] = [root];
  // (no closures, spreads or for-of per node: each allocates in V8's lower tiers)
  const kids: JSONSchemaProps[] = [];
  while (stack.length > 0) {
    const s = stack.pop()!;
    f(s);
    kids.length = 0;
    if (Array.isArray(s.items)) pushAll(kids, s.items);
    else if (isRecord(s.items)) kids.push(s.items);
    pushValues(kids, s.properties);
    pushValues(kids, s.patternProperties);
    if (isRecord(s.dependencies)) {
      const deps = s.dependencies;
      const keys = Object.keys(deps);
      for (let i = 0; i < keys.length; i++) {
        const d = deps[keys[i]!]!;
        if (!Array.isArray(d)) kids.push(d);
      }
    }
    if (isRecord(s.additionalItems)) kids.push(s.additionalItems);
    if (isRecord(s.additionalProperties)) kids.push(s.additionalProperties);
    if (Array.isArray(s.allOf)) pushAll(kids, s.allOf);
    if (Array.isArray(s.anyOf)) pushAll(kids, s.anyOf);
    if (Array.isArray(s.oneOf)) pushAll(kids, s.oneOf);
    if (isRecord(s.not)) kids.push(s.not);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
}

/**
 * A node's `properties`: the schemas by name, each compiled on first lookup (a read-only Map over the
 * schema's own `properties` object, which is not copied).
 */
class LazyNodeMap implements ReadonlyMap<string, SchemaNode> {
  private readonly done = new Map<string, SchemaNode>();
  private count = -1;

  constructor(
    private readonly raw: Record<string, JSONSchemaProps>,
    private readonly go: (s: JSONSchemaProps) => SchemaNode,
  ) {}

  get size(): number {
    if (this.count < 0) this.count = Object.keys(this.raw).length;
    return this.count;
  }

  has(k: string): boolean {
    return Object.hasOwn(this.raw, k);
  }

  get(k: string): SchemaNode | undefined {
    let n = this.done.get(k);
    if (n === undefined) {
      if (!Object.hasOwn(this.raw, k)) return undefined;
      n = this.go(this.raw[k]!);
      this.done.set(k, n);
    }
    return n;
  }

  forEach(cb: (value: SchemaNode, key: string, map: ReadonlyMap<string, SchemaNode>) => void, thisArg?: unknown): void {
    for (const k of Object.keys(this.raw)) cb.call(thisArg, this.get(k)!, k, this);
  }

  entries(): MapIterator<[string, SchemaNode]> {
    return new Map(Object.keys(this.raw).map((k) => [k, this.get(k)!] as [string, SchemaNode])).entries();
  }

  keys(): MapIterator<string> {
    return new Set(Object.keys(this.raw)).values();
  }

  values(): MapIterator<SchemaNode> {
    return new Map(Object.keys(this.raw).map((k) => [k, this.get(k)!] as [string, SchemaNode])).values();
  }

  [Symbol.iterator](): MapIterator<[string, SchemaNode]> {
    return this.entries();
  }
}

function schemaOrBool(x: JSONSchemaProps | boolean | undefined, go: (s: JSONSchemaProps) => SchemaNode): SchemaOrBoolNode | undefined {
  if (x === undefined || x === null) return undefined;
  if (typeof x === "boolean") return { allows: x };
  if (!isRecord(x)) return undefined;
  return { allows: true, schema: go(x) };
}

function patternPropertiesOf(m: Record<string, JSONSchemaProps> | undefined, go: (s: JSONSchemaProps) => SchemaNode): PatternProperty[] | undefined {
  if (!isRecord(m)) return undefined;
  const keys = Object.keys(m);
  const out: PatternProperty[] = [];
  for (let i = 0; i < keys.length; i++) out.push({ source: keys[i]!, schema: go(m[keys[i]!]!) });
  return out;
}

function listOf(a: JSONSchemaProps[] | undefined, go: (s: JSONSchemaProps) => SchemaNode): SchemaNode[] | undefined {
  if (!Array.isArray(a)) return undefined;
  const out: SchemaNode[] = [];
  for (let i = 0; i < a.length; i++) out.push(go(a[i]!));
  return out;
}

function nz<T>(a: T[] | undefined): T[] | undefined {
  return a && a.length > 0 ? a : undefined;
}

function compileOne(s: JSONSchemaProps, supported: ReadonlySet<string>, intOrStringTypes: boolean, go: (s: JSONSchemaProps) => SchemaNode): SchemaNode {
  checkNode(s);
  // A CRD `type` is one string; an array (kube-openapi StringOrArray) is accepted for completeness.
  const rawType = s.type as unknown;
  const types: readonly string[] = intOrStringTypes && s["x-kubernetes-int-or-string"] === true
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
  let items: SchemaNode | undefined;
  let itemsTuple: SchemaNode[] | undefined;
  if (Array.isArray(s.items)) itemsTuple = s.items.map(go);
  else if (isRecord(s.items)) items = go(s.items);
  // (helpers at module level: closures made per node cost allocations in V8's lower tiers)
  const props = isRecord(s.properties) ? new LazyNodeMap(s.properties, go) : undefined;
  const patternProps = patternPropertiesOf(s.patternProperties, go);
  const deps = isRecord(s.dependencies)
    ? Object.keys(s.dependencies).map((k) => {
        const d = s.dependencies![k]!;
        return [k, Array.isArray(d) ? { property: d.filter((x) => typeof x === "string") } : { schema: go(d) }] as const;
      })
    : undefined;
  const typeHas: Record<string, boolean> = Object.create(null);
  for (let i = 0; i < types.length; i++) typeHas[types[i]!] = true;
  const allOf = nz(listOf(s.allOf, go));
  const anyOf = nz(listOf(s.anyOf, go));
  const oneOf = nz(listOf(s.oneOf, go));
  const not = isRecord(s.not) ? go(s.not) : undefined;
  const dependencies = nz(deps);
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
    additionalItems: schemaOrBool(s.additionalItems, go),
    enum: Array.isArray(s.enum) && s.enum.length > 0 ? s.enum : undefined,
    maxProperties: num(s.maxProperties),
    minProperties: num(s.minProperties),
    required: Array.isArray(s.required) ? nz(s.required.filter((x) => typeof x === "string")) : undefined,
    properties: props,
    additionalProperties: schemaOrBool(s.additionalProperties, go),
    patternProperties: nz(patternProps),
    allOf,
    anyOf,
    oneOf,
    not,
    dependencies,
    listType: typeof s["x-kubernetes-list-type"] === "string" ? s["x-kubernetes-list-type"] : "",
    listMapKeys: Array.isArray(s["x-kubernetes-list-map-keys"]) ? s["x-kubernetes-list-map-keys"] : EMPTY,
    composite: allOf !== undefined || anyOf !== undefined || oneOf !== undefined || not !== undefined || dependencies !== undefined,
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
