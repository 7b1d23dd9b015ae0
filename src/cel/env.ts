/**
 * The top-level CEL API: an environment of declarations that compiles (parses + type-checks)
 * expressions and turns compiled expressions into programs.
 *
 * @example
 * const env = new Env({ variables: { self: "map(string, int)" } });
 * const c = env.compile("self.x == true");
 * if ("issues" in c) console.log(c.issues);
 * // ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, bool)'
 * //  | self.x == true
 * //  | .......^
 * @module
 */
import type { ParsedAst } from "./ast.js";
import { type CheckResult, check, type Reference } from "./checker/checker.js";
import type { CheckerDecls } from "./checker/env.js";
import { IssueCollector } from "./checker/issues.js";
import { validateHomogeneousAggregateLiterals } from "./checker/validators/homogeneous.js";
import {
  validateDurationLiterals,
  validateRegexLiterals,
  validateTimestampLiterals,
} from "./checker/validators/literals.js";
import { validateStringFormat } from "./checker/validators/string-format.js";
import { type AstValidator, validationContext } from "./checker/validators/validator.js";
import { type FunctionDecl, memberOverload, mergeFunctions, type OverloadDecl, overload } from "./decls/decl.js";
import {
  LISTS_EXT_V3,
  OPTIONAL_LIB,
  SETS_EXT,
  STRINGS_EXT_V2,
  TWO_VAR_COMPREHENSIONS,
} from "./decls/extensions.js";
import { STANDARD_FUNCTIONS } from "./decls/standard.js";
import type { CostEstimate } from "./cost/estimates.js";
import {
  type CostEstimator,
  type CostOptions,
  estimateCost,
  type FunctionEstimator,
} from "./cost/estimator.js";
import { listsExtEstimators } from "./cost/lists-ext.js";
import type { CallCostFn, FunctionRegistry, OverloadImpl } from "./interpreter/functions.js";
import { planOnFirstEval } from "./interpreter/lazy-program.js";
import type { Activation, EvalResult, Program } from "./interpreter/planner.js";
import { type CelIssue, formatIssues } from "./parser/issues.js";
import { standardFunctions } from "./stdlib-impl/index.js";
import { LISTS_MACROS, OPTIONAL_MACROS, STANDARD_MACROS, TWO_VAR_MACROS } from "./parser/macros.js";
import { type ParseOptions, type ParseResult, parse } from "./parser/parser.js";
import type { ParseCache } from "./parser/parse-cache.js";
import { parseType } from "./types/parse-type.js";
import { type ObjectTypeSource, TypeRegistry } from "./types/provider.js";
import { type CelType, formatType, optionalType, typeParamType } from "./types/types.js";

/** A type given either as a {@link CelType} or in cel-go's notation (`map(string, int)`). */
export type TypeSpec = CelType | string;

/** One overload of a custom function; `impl` is the runtime implementation (CEL values in/out). */
export interface CustomOverload {
  /** Overload id, unique in the environment. */
  readonly id: string;
  /** Receiver-style: the first argument type is the receiver. */
  readonly member?: boolean;
  readonly args: readonly TypeSpec[];
  readonly result: TypeSpec;
  /** Implementation; receives evaluated arguments (receiver first). */
  readonly impl?: (...args: never[]) => unknown;
}

/** A custom function with its overloads. */
export interface CustomFunction {
  readonly name: string;
  readonly overloads: readonly CustomOverload[];
}

/** Which cel-go extension libraries are enabled (all default to true, as in Kubernetes). */
export interface LibraryOptions {
  /** `false`, `true` (version 2, as Kubernetes) or a cel-go strings library version. */
  readonly strings?: boolean | number;
  readonly sets?: boolean;
  readonly lists?: boolean;
  readonly optional?: boolean;
  /** Two-variable comprehensions (`all(i, v, p)`, `transformList`, ...). */
  readonly twoVarComprehensions?: boolean;
}

/** Environment options. */
export interface EnvOptions {
  /** Variables and their types. */
  readonly variables?: Readonly<Record<string, TypeSpec>>;
  /** Object types declared as field maps (`{"Spec": {"replicas": "int"}}`). */
  readonly objectTypes?: Readonly<Record<string, Readonly<Record<string, TypeSpec>>>>;
  /** Object types declared on demand (built when a check first looks one up); `objectTypes` take precedence. */
  readonly objectTypeSource?: ObjectTypeSource;
  /** Opaque type names (e.g. `kubernetes.Quantity`), usable in {@link TypeSpec}s. */
  readonly opaqueTypes?: readonly string[];
  /**
   * Those of `opaqueTypes` that cel-go declares as object types (`cel.ObjectType`) its type provider
   * cannot resolve: a field selection on one reports `unexpected failed resolution of '<name>'` (on an
   * opaque type: `type '<name>' does not support field selection`).
   */
  readonly unresolvedObjectTypes?: readonly string[];
  /** Custom functions (global or receiver-style). */
  readonly functions?: readonly CustomFunction[];
  /** Namespace for identifier resolution (cel-go container). */
  readonly container?: string;
  readonly libraries?: LibraryOptions;
  /** Cross-type numeric comparisons (`1 < 2.0`); default true. */
  readonly crossTypeNumericComparisons?: boolean;
  /**
   * cel-go's extended validations, as Kubernetes enables them: homogeneous aggregate literals
   * and duration / timestamp / regex literal validation. Default false.
   */
  readonly extendedValidations?: boolean;
  /** Additional AST validators run after a successful check. */
  readonly validators?: readonly AstValidator[];
  /** Parser options (description, recursion limit, ...). */
  readonly parser?: ParseOptions;
  /** Parse results shared with other environments (see {@link ParseCache}). */
  readonly parseCache?: ParseCache;
}

/** What {@link Env.derive} adds: variables and on-demand object types (a schema node's `self`). */
export interface DerivedEnvOptions {
  /** Variables added to (or replacing) the parent's. */
  readonly variables?: Readonly<Record<string, TypeSpec>>;
  /** Object types declared on demand, after the parent's. */
  readonly objectTypeSource?: ObjectTypeSource;
  /** Parse results shared with other environments; default the parent's. */
  readonly parseCache?: ParseCache;
}

/** The parent and additions of a derived environment (module-private: only {@link Env.derive} makes one). */
class DeriveFrom {
  constructor(
    readonly parent: Env,
    readonly more: DerivedEnvOptions,
  ) {}
}

/** A successfully compiled expression. */
export interface Compiled {
  readonly ast: ParsedAst;
  readonly checked: CheckResult;
  readonly outputType: CelType;
}

/** A failed compilation: cel-go's issues string plus the issue list. */
export interface CompileFailure {
  readonly issues: string;
  readonly issueList: readonly CelIssue[];
}

const CROSS_TYPE_COMPARISON_IDS = new Set(
  ["less", "less_equals", "greater", "greater_equals"].flatMap((p) =>
    ["int64_double", "int64_uint64", "uint64_double", "uint64_int64", "double_int64", "double_uint64"].map(
      (s) => `${p}_${s}`,
    ),
  ),
);

/** Options of {@link Env.program}. */
export interface ProgramOptions {
  /** Runtime cost limit; evaluation stops with cel-go's "actual cost limit exceeded" error. */
  readonly costLimit?: number;
  /** Extra per-call runtime cost model (e.g. Kubernetes library costs). */
  readonly callCost?: CallCostFn;
}

/** A compiled, planned expression. */
export interface CelProgram {
  /** Evaluates against `activation`; never throws for CEL errors (they are values). */
  eval(activation?: Activation): EvalResult;
}

/** A planned program bound to its evaluation options. */
class PlannedProgram implements CelProgram {
  constructor(
    private readonly prog: Program,
    private readonly evalOpts: { readonly costLimit: number } | undefined,
  ) {}
  eval(activation?: Activation): EvalResult {
    return this.prog.eval(activation, this.evalOpts);
  }
}

const NO_OVERLOADS: ReadonlySet<string> = new Set();

const LIBRARY_KEYS = new Map<readonly FunctionDecl[], string>([
  [STANDARD_FUNCTIONS, "std"],
  [STRINGS_EXT_V2, "strings"],
  [SETS_EXT, "sets"],
  [LISTS_EXT_V3, "lists"],
  [OPTIONAL_LIB, "optional"],
  [TWO_VAR_COMPREHENSIONS, "twovar"],
]);
const MERGED_LIBRARIES = new Map<string, Map<string, FunctionDecl>>();
/** The standard implementations literal validators use, by strings library version (see `literalFunctions`). */
const LITERAL_REGISTRIES = new Map<number, FunctionRegistry>();
let LISTS_ESTIMATORS: ReadonlyMap<string, FunctionEstimator> | undefined;
const NO_ESTIMATORS: ReadonlyMap<string, FunctionEstimator> = new Map();

const NO_NAMES: readonly string[] = [];
/** The registries every environment's own starts as a copy of: by opaque type names, with and without optional_type. */
const BASE_REGISTRIES = new WeakMap<readonly string[], { optional?: TypeRegistry; plain?: TypeRegistry }>();

/**
 * The standard type identifiers, `optional_type` when the optional library is on, and the opaque
 * types `opaqueTypes`: built once per names array (environments of one configuration pass the same
 * array), each environment then takes a {@link TypeRegistry.copy} of it.
 */
function baseRegistry(optional: boolean, opaqueTypes: readonly string[]): TypeRegistry {
  let entry = BASE_REGISTRIES.get(opaqueTypes);
  if (entry === undefined) {
    entry = {};
    BASE_REGISTRIES.set(opaqueTypes, entry);
  }
  let reg = optional ? entry.optional : entry.plain;
  if (reg === undefined) {
    reg = new TypeRegistry();
    if (optional) reg.registerIdentType("optional_type", optionalType(typeParamType("T")));
    for (const name of opaqueTypes) reg.registerOpaque(name);
    if (optional) entry.optional = reg;
    else entry.plain = reg;
  }
  return reg;
}

/** Parser options by enabled libraries (shared, so a {@link ParseCache} keys them once). */
const BASE_PARSE_OPTIONS = new Map<number, ParseOptions>();

function baseParseOptions(libs: LibraryOptions): ParseOptions {
  const twoVar = libs.twoVarComprehensions !== false;
  const optional = libs.optional !== false;
  const lists = libs.lists !== false;
  const key = (twoVar ? 1 : 0) | (optional ? 2 : 0) | (lists ? 4 : 0);
  let o = BASE_PARSE_OPTIONS.get(key);
  if (o === undefined) {
    const macros = [
      ...STANDARD_MACROS,
      ...(twoVar ? TWO_VAR_MACROS : []),
      ...(optional ? OPTIONAL_MACROS : []),
      ...(lists ? LISTS_MACROS : []),
    ];
    o = { enableOptionalSyntax: optional, macros };
    BASE_PARSE_OPTIONS.set(key, o);
  }
  return o;
}

/** Thrown for invalid environment declarations. */
export class EnvError extends Error {}

/** A CEL environment. */
export class Env {
  /** The declarations the checker uses. */
  readonly decls: CheckerDecls;
  /** Declared types. */
  readonly types: TypeRegistry;
  /** Implementations of custom overloads, by overload id. */
  readonly customImpls: ReadonlyMap<string, (...args: never[]) => unknown>;
  private readonly parseOptions: ParseOptions;
  private registry: FunctionRegistry | undefined;
  private readonly validators: AstValidator[];
  private readonly libraryEstimators: ReadonlyMap<string, FunctionEstimator>;
  private readonly customOverloads: OverloadImpl[];

  /** The options this environment was built from. */
  readonly options: EnvOptions;

  /** @param from internal: set by {@link Env.derive} only. */
  constructor(options: EnvOptions = {}, from?: DeriveFrom) {
    this.options = options;
    if (from !== undefined) {
      // derived: the parent's declarations, validators and parser options, shared; own variables and types
      const parent = from.parent;
      const reg = parent.types.copy();
      if (from.more.objectTypeSource !== undefined) reg.registerObjectSource(from.more.objectTypeSource);
      const lookup = (n: string) => reg.findIdentType(n);
      const variables = new Map(parent.decls.variables);
      for (const [name, t] of Object.entries(from.more.variables ?? {})) variables.set(name, toType(t, lookup));
      this.types = reg;
      this.decls = { ...parent.decls, variables, provider: reg };
      this.customImpls = parent.customImpls;
      this.customOverloads = parent.customOverloads;
      this.validators = parent.validators;
      this.libraryEstimators = parent.libraryEstimators;
      this.parseOptions = parent.parseOptions;
      return;
    }
    this.validators = [];
    this.customOverloads = [];
    const libs = options.libraries ?? {};
    const reg = baseRegistry(libs.optional !== false, options.opaqueTypes ?? NO_NAMES).copy();
    this.types = reg;
    if (options.objectTypeSource !== undefined) reg.registerObjectSource(options.objectTypeSource);
    const lookup = (n: string) => reg.findIdentType(n);
    const objectTypes = options.objectTypes ?? {};
    // Declare names first so fields may reference other object types.
    for (const name of Object.keys(objectTypes)) reg.registerObject(name, {});
    for (const [name, fields] of Object.entries(objectTypes)) {
      const m = new Map<string, CelType>();
      for (const [f, t] of Object.entries(fields)) m.set(f, toType(t, lookup));
      reg.registerObject(name, m);
    }
    const variables = new Map<string, CelType>();
    for (const [name, t] of Object.entries(options.variables ?? {})) variables.set(name, toType(t, lookup));
    const impls = new Map<string, (...args: never[]) => unknown>();
    const custom: FunctionDecl[] = [];
    for (const f of options.functions ?? []) {
      const ovs: OverloadDecl[] = f.overloads.map((o) => {
        const args = o.args.map((a) => toType(a, lookup));
        const result = toType(o.result, lookup);
        if (o.impl !== undefined) {
          impls.set(o.id, o.impl);
          this.customOverloads.push(customOverloadImpl(f.name, o, args));
        }
        return o.member === true ? memberOv(o.id, args, result) : overload(o.id, args, result);
      });
      custom.push({ name: f.name, overloads: ovs });
    }
    const lists: (readonly FunctionDecl[])[] = [STANDARD_FUNCTIONS];
    if (libs.strings !== false) {
      lists.push(STRINGS_EXT_V2);
      const version = stringsVersionOf(libs);
      const formatOptions = { version };
      if (version >= 1) this.validators.push((ctx) => validateStringFormat(ctx, formatOptions));
    }
    if (options.extendedValidations === true) {
      const literals = () => this.literalFunctions();
      this.validators.push(
        (ctx) => validateDurationLiterals(ctx, literals),
        (ctx) => validateTimestampLiterals(ctx, literals),
        validateRegexLiterals,
      );
      const exempt = libs.strings !== false ? ["format"] : [];
      this.validators.push((ctx) => validateHomogeneousAggregateLiterals(ctx, exempt));
    }
    for (const v of options.validators ?? []) this.validators.push(v);
    if (libs.sets !== false) lists.push(SETS_EXT);
    if (libs.lists !== false) lists.push(LISTS_EXT_V3);
    this.libraryEstimators = libs.lists !== false ? (LISTS_ESTIMATORS ??= listsExtEstimators()) : NO_ESTIMATORS;
    if (libs.optional !== false) lists.push(OPTIONAL_LIB);
    if (libs.twoVarComprehensions !== false) lists.push(TWO_VAR_COMPREHENSIONS);
    let functions: Map<string, FunctionDecl>;
    if (custom.length === 0) {
      // The library-only function table is identical for equal library choices: share it.
      const key = lists.map((l) => LIBRARY_KEYS.get(l) ?? "?").join(",");
      functions = MERGED_LIBRARIES.get(key) ?? mergeFunctions(...lists);
      MERGED_LIBRARIES.set(key, functions);
    } else {
      functions = mergeFunctions(...lists, custom);
    }
    this.decls = {
      container: options.container ?? "",
      variables,
      functions,
      provider: reg,
      disabledOverloads: options.crossTypeNumericComparisons === false ? CROSS_TYPE_COMPARISON_IDS : NO_OVERLOADS,
      ...(options.unresolvedObjectTypes !== undefined ? { unresolvedObjectTypes: new Set(options.unresolvedObjectTypes) } : {}),
    };
    this.customImpls = impls;
    const base = baseParseOptions(libs);
    this.parseOptions = options.parser === undefined ? base : { ...base, ...options.parser };
  }

  /**
   * A new environment with this one's declarations plus `more` (variables, object and opaque
   * types, functions and validators are added; scalar options are overridden).
   */
  extend(more: EnvOptions): Env {
    const o = this.options;
    return new Env({
      ...o,
      ...more,
      variables: { ...o.variables, ...more.variables },
      objectTypes: { ...o.objectTypes, ...more.objectTypes },
      opaqueTypes: [...(o.opaqueTypes ?? []), ...(more.opaqueTypes ?? [])],
      unresolvedObjectTypes: [...(o.unresolvedObjectTypes ?? []), ...(more.unresolvedObjectTypes ?? [])],
      functions: [...(o.functions ?? []), ...(more.functions ?? [])],
      validators: [...(o.validators ?? []), ...(more.validators ?? [])],
      libraries: { ...o.libraries, ...more.libraries },
    });
  }

  /**
   * A new environment with this one's functions, libraries, validators and parser options — shared,
   * not declared again — plus the variables and on-demand object types of `more`: what
   * `extend(more)` declares, at the cost of a variable map and a type registry copy (an environment
   * per schema node would otherwise re-declare every library function). Its validators evaluate
   * literals with this environment's function implementations.
   */
  derive(more: DerivedEnvOptions): Env {
    const o = this.options;
    const options: EnvOptions = {
      ...o,
      variables: { ...o.variables, ...more.variables },
      ...(more.objectTypeSource !== undefined ? { objectTypeSource: more.objectTypeSource } : {}),
      ...(more.parseCache !== undefined ? { parseCache: more.parseCache } : {}),
    };
    return new Env(options, new DeriveFrom(this, more));
  }

  /** Parses and type-checks `expression`. */
  compile(expression: string): Compiled | CompileFailure {
    const parsed = this.parse(expression);
    if (parsed.ast === undefined) {
      return { issues: parsed.errorText, issueList: parsed.issues };
    }
    const checked = check(parsed.ast, this.decls);
    if (checked.issueCount > 0) {
      return { issues: formatIssues(parsed.ast.sourceInfo, checked.issues), issueList: checked.issues };
    }
    if (this.validators.length > 0) {
      const collector = new IssueCollector();
      const ctx = validationContext(parsed.ast, checked, collector);
      const validators = this.validators;
      for (let i = 0; i < validators.length; i++) (validators[i] as AstValidator)(ctx);
      if (collector.count > 0) {
        return { issues: formatIssues(parsed.ast.sourceInfo, collector.issues), issueList: collector.issues };
      }
    }
    const outputType = checked.typeOf(parsed.ast.expr.id);
    if (outputType === undefined) throw new EnvError("checker produced no type for the root expression");
    return { ast: parsed.ast, checked, outputType };
  }

  /** The function implementations programs use (standard library, extensions, custom). */
  functions(): FunctionRegistry {
    if (this.registry === undefined) {
      // The runtime strings library follows the declared version (`true` = version 2, as Kubernetes).
      this.registry = standardFunctions({ stringsVersion: this.stringsVersion() });
      if (this.customOverloads.length > 0) this.registry.add(...this.customOverloads);
    }
    return this.registry;
  }

  private parse(expression: string): ParseResult {
    const cache = this.options.parseCache;
    return cache !== undefined ? cache.parse(expression, this.parseOptions) : parse(expression, this.parseOptions);
  }

  /**
   * The implementations the literal validators evaluate `duration('...')` / `timestamp('...')` with:
   * without custom overloads, the standard library's, built once per process and never handed out
   * (an environment per schema node would otherwise build its own registry just to check literals).
   */
  private literalFunctions(): FunctionRegistry {
    if (this.customOverloads.length > 0 || this.registry !== undefined) return this.functions();
    const version = this.stringsVersion();
    let r = LITERAL_REGISTRIES.get(version);
    if (r === undefined) {
      r = standardFunctions({ stringsVersion: version });
      LITERAL_REGISTRIES.set(version, r);
    }
    return r;
  }

  private stringsVersion(): number {
    return stringsVersionOf(this.options.libraries ?? {});
  }

  /** A compiled expression's program for (repeated) evaluation, planned on its first evaluation. */
  program(compiled: Compiled, options: ProgramOptions = {}): CelProgram {
    const prog = planOnFirstEval(compiled.ast, {
      functions: this.functions(),
      checked: compiled.checked,
      ...(options.callCost !== undefined ? { callCost: options.callCost } : {}),
    });
    return new PlannedProgram(prog, options.costLimit !== undefined ? { costLimit: options.costLimit } : undefined);
  }

  /** A parsed but unchecked expression's program (dynamic dispatch only), planned on its first evaluation. */
  programUnchecked(ast: ParsedAst, options: ProgramOptions = {}): CelProgram {
    const prog = planOnFirstEval(ast, {
      functions: this.functions(),
      ...(options.callCost !== undefined ? { callCost: options.callCost } : {}),
    });
    return new PlannedProgram(prog, options.costLimit !== undefined ? { costLimit: options.costLimit } : undefined);
  }

  /**
   * Static cost estimate of a compiled expression (cel-go `checker.Cost`), with the cost
   * estimators of the enabled libraries (ext.Lists) plus `options.overloadEstimators`.
   */
  estimateCost(compiled: Compiled, estimator: CostEstimator, options: CostOptions = {}): CostEstimate {
    const merged = new Map<string, FunctionEstimator>(this.libraryEstimators);
    for (const [k, v] of options.overloadEstimators ?? []) merged.set(k, v);
    return estimateCost(compiled, estimator, { ...options, overloadEstimators: merged });
  }

  /** Parses `expression` without type-checking (the result has an empty check result). */
  parseOnly(expression: string): { ast: ParsedAst } | CompileFailure {
    const parsed = this.parse(expression);
    if (parsed.ast === undefined) return { issues: parsed.errorText, issueList: parsed.issues };
    return { ast: parsed.ast };
  }
}

/**
 * The function implementations {@link Env.functions} gives the programs of an environment with these
 * options, without declaring anything (no function or type declarations are built): for a process that
 * only plans expressions checked elsewhere, e.g. read back from a cache.
 */
export function runtimeFunctions(options: Pick<EnvOptions, "functions" | "opaqueTypes" | "libraries">): FunctionRegistry {
  const libs = options.libraries ?? {};
  const reg = baseRegistry(libs.optional !== false, options.opaqueTypes ?? NO_NAMES);
  const lookup = (n: string) => reg.findIdentType(n);
  const registry = standardFunctions({ stringsVersion: stringsVersionOf(libs) });
  const custom: OverloadImpl[] = [];
  for (const f of options.functions ?? []) {
    for (const o of f.overloads) {
      if (o.impl !== undefined) custom.push(customOverloadImpl(f.name, o, o.args.map((a) => toType(a, lookup))));
    }
  }
  if (custom.length > 0) registry.add(...custom);
  return registry;
}

/** The runtime strings library version: the declared one (`true` = version 2, as Kubernetes). */
function stringsVersionOf(libs: LibraryOptions): number {
  return typeof libs.strings === "number" ? libs.strings : 2;
}

/** The runtime implementation of a custom overload that has one, with its argument types resolved. */
function customOverloadImpl(fn: string, o: CustomOverload, args: readonly CelType[]): OverloadImpl {
  return { id: o.id, fn, receiver: o.member === true, args: args.map(runtimeTag), impl: o.impl as OverloadImpl["impl"] };
}

/** Whether a compile result failed. */
export function isCompileFailure(r: Compiled | CompileFailure): r is CompileFailure {
  return "issues" in r;
}

function toType(t: TypeSpec, lookup: (n: string) => CelType | undefined): CelType {
  return typeof t === "string" ? parseType(t, lookup) : t;
}

/** The planner's runtime dispatch tag of a declared type. */
function runtimeTag(t: CelType): string {
  switch (t.kind) {
    case "null_type":
      return "null";
    case "opaque":
      return t.name === "optional_type" ? "optional" : t.name;
    case "dyn":
    case "any":
    case "type_param":
    case "error":
    case "unspecified":
      return "dyn";
    case "struct":
      return "map";
    default:
      return t.kind;
  }
}

function memberOv(id: string, args: CelType[], result: CelType): OverloadDecl {
  if (args.length === 0) throw new EnvError(`member overload ${id} needs a receiver type`);
  return memberOverload(id, args, result);
}

export type { CheckResult, Reference };
export { formatType };
