/**
 * The CEL type checker — a port of cel-go `checker/checker.go`. It infers a type for every node,
 * resolves identifiers and overloads (cel-go overload ids) and reports cel-go's error texts at
 * cel-go's positions. The AST is not modified; resolutions are returned as a reference map.
 * @module
 */
import { wellKnownMessage, wellKnownTypeName } from "../types/well-known.js";
import type {
  CallExpr,
  ComprehensionExpr,
  Expr,
  ListExpr,
  MapExpr,
  ParsedAst,
  SelectExpr,
  StructExpr,
} from "../ast.js";
import type { FunctionDecl } from "../decls/decl.js";
import {
  BoolType,
  type CelType,
  DynType,
  ErrorType,
  formatFunctionType,
  formatType,
  IntType,
  isExactType,
  listType,
  mapType,
  optionalType,
  typeParamType,
} from "../types/types.js";
import { type CheckerDecls, CheckerEnv } from "./env.js";
import type { CelIssue } from "../parser/issues.js";
import { computeQualifiers, constType, debugExpr, instantiate, toQualifiedName } from "./helpers.js";
import { IssueCollector } from "./issues.js";
import { hasTypeParam, type ResolutionCache, resolutionCacheFor } from "./resolution-cache.js";
import { listOf } from "./list-of.js";
import { Mapping } from "./mapping.js";
import { IdMap } from "../id-map.js";
import {
  isAssignable,
  isAssignableList,
  isDyn,
  isDynOrError,
  maybeUnwrapOptional,
  mostGeneral,
  substitute,
} from "./unify.js";

/**
 * What the checker resolved for a node: an identifier / type name (`name`), or the overloads a
 * call may dispatch to (`overloadIds`, in declaration order). For calls, `name` is the resolved
 * function name; when a call has a target but `name` differs from the call's function, the
 * target was a namespace (`sets.contains(a, b)`) and the call is a global call without target.
 * For a select node, a `name` means the whole select chain is the qualified variable `name`.
 */
export interface Reference {
  readonly name?: string;
  readonly overloadIds?: readonly string[];
}

/** Result of checking: types and references by node id, plus issues. */
export interface CheckResult {
  /** Types by node id (a read-only view, in the order the checker typed the nodes). */
  readonly types: Map<number, CelType>;
  /** References by node id (a read-only view). */
  readonly references: Map<number, Reference>;
  readonly issues: readonly CelIssue[];
  /** Total number of issues reported (may exceed `issues.length`). */
  readonly issueCount: number;
  /** Number of list and map literal nodes checked (lets validators skip their walk when 0). */
  readonly aggregateLiterals?: number;
  /** `types.get(id)`, without building the map. */
  typeOf(id: number): CelType | undefined;
  /** `references.get(id)`, without building the map. */
  referenceOf(id: number): Reference | undefined;
  /** The references by node id (entry `id` is `referenceOf(id)`); read only. */
  referenceArray(): readonly (Reference | undefined)[];
  /** `[...references.values()]`, without building the map (one array per result). */
  referenceList(): readonly Reference[];
  /**
   * Whether a call resolved to function `name` may occur (false: none does; true: some call's reference
   * named it), without a walk over the references. Absent: scan {@link referenceList}.
   */
  mayHaveCallNamed?(name: string): boolean;
  /** The resolved function names of the checked calls, one per call (complete when `issueCount` is 0); read only. */
  callNameList?(): readonly string[];
}

/** Checker options. */
export interface CheckOptions {
  /** Join mismatching aggregate literal element types to dyn (cel-go default: true). */
  readonly dynAggregateLiterals?: boolean;
  readonly maxErrors?: number;
}

/** Type-checks `ast` against `decls`. */
export function check(ast: ParsedAst, decls: CheckerDecls, options: CheckOptions = {}): CheckResult {
  const c = new Checker(ast, decls, options);
  c.check(ast.expr);
  substituteFinal(c.typeArr, c.paramIds, c.mappings);
  return new CheckedResult(c, c.errors.issues, c.errors.count, c.aggregateLiterals);
}

/**
 * Unbound type parameters become dyn: the types of `ids` (the nodes typed with a type parameter or a
 * parameterized type; any other type substitutes to itself) are substituted (no loop over every node).
 */
function substituteFinal(typeArr: (CelType | undefined)[], ids: readonly number[], mappings: Mapping): void {
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    const t = typeArr[id] as CelType;
    const u = substitute(mappings, t, true);
    if (u !== t) typeArr[id] = u;
  }
}

/**
 * A check result over the checker's arrays indexed by node id: node ids are small integers, and
 * an array store is much cheaper than a hash map's. The `Map` views are built on first use
 * (crdkit's own consumers read through {@link CheckResult.typeOf} / `referenceOf`).
 */
class CheckedResult implements CheckResult {
  private readonly typeArr: (CelType | undefined)[];
  private readonly typedIds: readonly number[];
  private readonly typedCount: number;
  private readonly refArr: (Reference | undefined)[];
  private readonly refIds: readonly number[];
  private readonly refCount: number;
  private readonly callNames: readonly string[];
  private typeMap: Map<number, CelType> | undefined;
  private refMap: Map<number, Reference> | undefined;
  private refList: Reference[] | undefined;

  constructor(
    c: Checker,
    readonly issues: readonly CelIssue[],
    readonly issueCount: number,
    readonly aggregateLiterals: number,
  ) {
    this.typeArr = c.typeArr;
    this.typedIds = c.typedIds;
    this.typedCount = c.typedCount;
    this.refArr = c.refArr;
    this.refIds = c.refIds;
    this.refCount = c.refCount;
    this.callNames = c.callNames;
  }

  mayHaveCallNamed(name: string): boolean {
    return this.callNames.includes(name);
  }

  callNameList(): readonly string[] {
    return this.callNames;
  }

  get types(): Map<number, CelType> {
    let m = this.typeMap;
    if (m === undefined) {
      m = new Map();
      for (let i = 0; i < this.typedCount; i++) {
        const id = this.typedIds[i] as number;
        m.set(id, this.typeArr[id] as CelType);
      }
      this.typeMap = m;
    }
    return m;
  }

  get references(): Map<number, Reference> {
    let m = this.refMap;
    if (m === undefined) {
      m = new Map();
      for (let i = 0; i < this.refCount; i++) {
        const id = this.refIds[i] as number;
        m.set(id, this.refArr[id] as Reference);
      }
      this.refMap = m;
    }
    return m;
  }

  typeOf(id: number): CelType | undefined {
    return this.typeArr[id];
  }

  referenceOf(id: number): Reference | undefined {
    return this.refArr[id];
  }

  /** The references by node id (entry `id` is {@link referenceOf}`(id)`); read only. */
  referenceArray(): readonly (Reference | undefined)[] {
    return this.refArr;
  }

  referenceList(): readonly Reference[] {
    let out = this.refList;
    if (out === undefined) {
      out = new Array<Reference>(this.refCount);
      for (let i = 0; i < out.length; i++) out[i] = this.refArr[this.refIds[i] as number] as Reference;
      this.refList = out;
    }
    return out;
  }
}

const SINGLE_IDS = new Map<string, readonly string[]>();

/**
 * `[id]`, one shared array per overload id: references that resolve to one overload share their
 * id list, which the planner's dispatch memo is keyed by.
 */
function singleId(id: string): readonly string[] {
  let ids = SINGLE_IDS.get(id);
  if (ids === undefined) {
    ids = [id];
    // overload ids come from declarations; environments declaring ever new ones stop being remembered
    if (SINGLE_IDS.size < 10000) SINGLE_IDS.set(id, ids);
  }
  return ids;
}

class Checker {
  /** Types and references by node id, and the ids in the order they were first set. */
  readonly typeArr: (CelType | undefined)[];
  readonly typedIds: number[];
  /** How many entries of {@link typedIds} are set (it is sized for the node ids up front). */
  typedCount = 0;
  /** The typed ids whose type has parameters or is a type parameter (the final substitution's). */
  readonly paramIds: number[] = [];
  readonly refArr: (Reference | undefined)[];
  readonly refIds: number[];
  /** How many entries of {@link refIds} are set (it is sized for the node ids up front). */
  refCount = 0;
  /** The function names of the call references set (with repeats), for {@link CheckResult.mayHaveCallNamed}. */
  readonly callNames: string[] = [];
  readonly errors: IssueCollector;
  readonly mappings = new Mapping();
  private readonly cache: ResolutionCache;
  private freeTypeVarCounter = 0;
  /** A select chain known not to name a qualified identifier (its parent's test failed). */
  private unqualifiedOperand: Expr | undefined;
  /** List and map literals seen. */
  aggregateLiterals = 0;
  private readonly env: CheckerEnv;
  private readonly dynAggregates: boolean;

  constructor(
    private readonly ast: ParsedAst,
    decls: CheckerDecls,
    options: CheckOptions,
  ) {
    // sized for the parser's node ids up front: no growth steps (each a copy through a builtin) as ids rise
    const positions = ast.sourceInfo.positions;
    const bound = positions instanceof IdMap ? positions.idBound() : 0;
    this.typeArr = bound > 0 ? new Array<CelType | undefined>(bound) : [];
    this.refArr = bound > 0 ? new Array<Reference | undefined>(bound) : [];
    // written by index and counted (an id is listed once): a store past the end still grows them
    this.typedIds = bound > 0 ? new Array<number>(bound) : [];
    this.refIds = bound > 0 ? new Array<number>(bound) : [];
    this.env = new CheckerEnv(decls);
    this.cache = resolutionCacheFor(decls.functions, decls.disabledOverloads);
    this.errors = new IssueCollector(options.maxErrors);
    this.dynAggregates = options.dynAggregateLiterals ?? true;
  }

  check(e: Expr): void {
    switch (e.kind) {
      case "const":
        this.setType(e, constType(e.value.kind));
        return;
      case "ident":
        this.checkIdent(e.id, e.name);
        return;
      case "select":
        this.checkSelect(e);
        return;
      case "call":
        this.checkCall(e);
        return;
      case "list":
        this.aggregateLiterals++;
        this.checkCreateList(e);
        return;
      case "map":
        this.aggregateLiterals++;
        this.checkCreateMap(e);
        return;
      case "struct":
        this.checkCreateStruct(e);
        return;
      case "comprehension":
        this.checkComprehension(e);
        return;
    }
  }

  private checkIdent(id: number, identName: string): void {
    const v = this.env.simpleVariable(identName);
    if (v !== undefined) {
      this.setTypeId(id, v.type);
      // setReference in place (a variable's reference lists no overloads): the hot paths call no
      // small helpers, which V8 would otherwise optimize one by one in a short run
      if (this.refArr[id] === undefined) this.refIds[this.refCount++] = id;
      this.refArr[id] = v.reference;
      return;
    }
    const ident = this.env.resolveSimpleIdent(identName);
    if (ident !== undefined) {
      let name = ident.name.charCodeAt(0) === 46 /* . */ ? ident.name.slice(1) : ident.name;
      if (ident.requiresDisambiguation) name = `.${name}`;
      this.setTypeId(id, ident.type);
      this.setReference(id, { name });
      return;
    }
    this.setTypeId(id, ErrorType);
    this.report(id, `undeclared reference to '${identName}' (in container '${this.env.decls.container}')`);
  }

  private checkSelect(e: SelectExpr): void {
    let may: boolean;
    if (e === this.unqualifiedOperand) may = false;
    else {
      may = this.env.mayResolveQualified(e);
      // the operand chain has the same root and locals, and below a select that is not a presence
      // test the same presence tests: it cannot name a qualified identifier either
      if (!may && !e.testOnly && e.operand.kind === "select") this.unqualifiedOperand = e.operand;
    }
    const qualifiers = may ? computeQualifiers(e) : undefined;
    if (qualifiers !== undefined) {
      const ident = this.env.resolveQualifiedIdent(qualifiers);
      if (ident !== undefined) {
        const name = ident.requiresDisambiguation ? `.${ident.name}` : ident.name;
        this.setType(e, ident.type);
        this.setReference(e.id, { name });
        return;
      }
    }
    let resultType = this.checkSelectField(e.id, e.operand, e.field, false);
    if (e.testOnly) resultType = BoolType;
    // a type without parameters substitutes to itself (no call for the commonest results, dyn and bool)
    this.setType(e, resultType.params.length === 0 && resultType.kind !== "type_param" ? resultType : substitute(this.mappings, resultType, false));
  }

  private checkOptSelect(e: CallExpr): void {
    if (e.args.length !== 2 || e.target !== undefined) {
      const t = e.target !== undefined ? " member call with" : "";
      this.report(
        e.id,
        `unsupported optional field selection: incorrect signature.${t} argument count: ${e.args.length}`,
      );
      return;
    }
    const operand = e.args[0] as Expr;
    const field = e.args[1] as Expr;
    if (field.kind !== "const" || field.value.kind !== "string") {
      this.report(field.id, `unsupported optional field selection: ${debugExpr(field)}`);
      return;
    }
    const resultType = this.checkSelectField(e.id, operand, field.value.value, true);
    this.setType(e, substitute(this.mappings, resultType, false));
    this.setReference(e.id, { name: "_?._", overloadIds: ["select_optional_field"] });
  }

  private checkSelectField(id: number, operand: Expr, field: string, optional: boolean): CelType {
    this.check(operand);
    const t0 = this.getType(operand);
    const operandType = t0.params.length === 0 && t0.kind !== "type_param" ? t0 : substitute(this.mappings, t0, false);
    // dyn operands (the commonest: `self.a.b` with `self` dyn) select dyn
    if (operandType.kind === "dyn" && !optional) return DynType;
    const isOpt = operandType.kind === "opaque" && operandType.name === "optional_type" && operandType.params.length === 1;
    const targetType = isOpt ? (operandType.params[0] as CelType) : operandType;
    let resultType: CelType = ErrorType;
    switch (targetType.kind) {
      case "map":
        resultType = targetType.params[1] as CelType;
        break;
      case "struct": {
        const ft = this.lookupFieldType(id, targetType.name, field);
        if (ft !== undefined) resultType = ft;
        break;
      }
      case "type_param":
        this.isAssignable(DynType, targetType);
        resultType = DynType;
        break;
      default:
        if (targetType.kind === "opaque" && this.env.decls.unresolvedObjectTypes?.has(targetType.name)) {
          // an object type in cel-go whose provider does not know it (its lookupFieldType)
          this.report(id, `unexpected failed resolution of '${targetType.name}'`);
          break;
        }
        if (!isDynOrError(targetType)) {
          this.report(id, `type '${formatType(targetType)}' does not support field selection`);
        }
        resultType = DynType;
    }
    return isOpt || optional ? optionalType(resultType) : resultType;
  }

  private checkCall(e: CallExpr): void {
    const fnName = e.function;
    if (fnName === "_?._") {
      this.checkOptSelect(e);
      return;
    }
    const args = e.args;
    for (let i = 0; i < args.length; i++) this.check(args[i] as Expr);
    if (e.target === undefined) {
      const fn = this.env.lookupFunction(fnName);
      if (fn === undefined) {
        this.report(e.id, `undeclared reference to '${fnName}' (in container '${this.env.decls.container}')`);
        this.setType(e, ErrorType);
        return;
      }
      this.resolveOverloadOrError(e, fn, undefined);
      return;
    }
    // a namespaced function (`sets.contains(a, b)`) needs a declared dotted name ending in `.fn`
    const prefix = this.env.hasNamespacedFunction(fnName) ? toQualifiedName(e.target) : undefined;
    if (prefix !== undefined) {
      const fn = this.env.lookupFunction(`${prefix}.${fnName}`);
      if (fn !== undefined) {
        this.resolveOverloadOrError(e, fn, undefined);
        return;
      }
    }
    this.check(e.target);
    const fn = this.env.lookupFunction(fnName);
    if (fn !== undefined) {
      this.resolveOverloadOrError(e, fn, e.target);
      return;
    }
    this.setType(e, ErrorType);
    this.report(e.id, `undeclared reference to '${fnName}' (in container '${this.env.decls.container}')`);
  }

  private resolveOverloadOrError(e: CallExpr, fn: FunctionDecl, target: Expr | undefined): void {
    const args = e.args;
    const isMember = target !== undefined;
    const off = isMember ? 1 : 0;
    const n = args.length + off;
    const argTypes = new Array<CelType>(n);
    // cacheable: one to four argument types without type parameters
    let cacheable = n > 0 && n <= 4;
    if (target !== undefined) {
      const t = this.getType(target);
      argTypes[0] = t;
      if (cacheable && (t.params.length > 0 || t.kind === "type_param") && hasTypeParam(t)) cacheable = false;
    }
    for (let i = 0; i < args.length; i++) {
      const t = this.getType(args[i] as Expr);
      argTypes[i + off] = t;
      if (cacheable && (t.params.length > 0 || t.kind === "type_param") && hasTypeParam(t)) cacheable = false;
    }
    if (cacheable) {
      const hit = this.cache.get(fn.name, isMember, argTypes);
      if (hit !== undefined) {
        this.freeTypeVarCounter += hit.typeVarsConsumed;
        this.setType(e, hit.result);
        const ref = hit.reference;
        if (this.refArr[e.id] === undefined) this.refIds[this.refCount++] = e.id;
        this.refArr[e.id] = ref;
        this.callNames.push(ref.name);
        return;
      }
    }
    this.resolveAndRemember(e, fn, isMember, argTypes, cacheable);
  }

  /**
   * Resolves a call the cache does not answer, and remembers the resolution when `cacheable` (apart from
   * {@link resolveOverloadOrError}: a cache hit, the common case, runs a small function).
   */
  private resolveAndRemember(e: CallExpr, fn: FunctionDecl, isMember: boolean, argTypes: CelType[], cacheable: boolean): void {
    const counterBefore = this.freeTypeVarCounter;
    const errorsBefore = this.errors.count;
    this.resolveOverloadUncached(e, fn, isMember, argTypes);
    if (!cacheable || this.errors.count !== errorsBefore) return;
    const result = this.typeArr[e.id];
    const ref = this.refArr[e.id];
    if (result === undefined || ref?.overloadIds === undefined || hasTypeParam(result)) return;
    this.cache.set(fn.name, isMember, argTypes, {
      result,
      reference: { name: fn.name, overloadIds: ref.overloadIds },
      typeVarsConsumed: this.freeTypeVarCounter - counterBefore,
    });
  }

  private resolveOverloadUncached(e: CallExpr, fn: FunctionDecl, isMember: boolean, argTypes: CelType[]): void {
    const logical = fn.name === "_&&_" || fn.name === "_||_";
    const disabled = this.env.decls.disabledOverloads;
    let resultType: CelType | undefined;
    let ids: readonly string[] | undefined;
    const overloads = fn.overloads;
    for (let oi = 0; oi < overloads.length; oi++) {
      const ov = overloads[oi] as (typeof overloads)[number];
      if (disabled.size > 0 && disabled.has(ov.id)) continue;
      if (ov.member !== isMember) continue;
      if (logical) {
        this.checkLogical(e, fn, ov.id, argTypes);
        return;
      }
      if (ov.args.length !== argTypes.length) {
        // Cannot match; keep cel-go's fresh type-variable numbering.
        this.freeTypeVarCounter += ov.typeParams.length;
        continue;
      }
      let candidateArgs = ov.args;
      let candidateResult = ov.result;
      if (ov.typeParams.length > 0) {
        const fresh = new Map<string, CelType>();
        for (const tp of ov.typeParams) fresh.set(tp, this.newTypeVar());
        candidateArgs = ov.args.map((a) => instantiate(a, fresh));
        candidateResult = instantiate(ov.result, fresh);
      }
      if (this.isAssignableList(argTypes, candidateArgs)) {
        if (ids === undefined) ids = singleId(ov.id);
        else ids = [...ids, ov.id];
        const fnResult = ov.typeParams.length > 0 ? substitute(this.mappings, candidateResult, false) : candidateResult;
        if (resultType === undefined) resultType = fnResult;
        else if (!isDyn(resultType) && !isExactType(fnResult, resultType)) resultType = DynType;
      }
    }
    if (resultType === undefined || ids === undefined) {
      const shown = argTypes.map((t) => substitute(this.mappings, t, true));
      this.report(
        e.id,
        `found no matching overload for '${fn.name}' applied to '${formatFunctionType(undefined, shown, isMember)}'`,
      );
      this.setType(e, ErrorType);
      return;
    }
    this.setType(e, resultType);
    this.setReference(e.id, { name: fn.name, overloadIds: ids });
  }

  /** cel-go's special case for (variadic) `_&&_` / `_||_`: every argument must be bool. */
  private checkLogical(e: CallExpr, fn: FunctionDecl, overloadId: string, argTypes: readonly CelType[]): void {
    let failed = false;
    for (let i = 0; i < argTypes.length; i++) {
      const t = argTypes[i] as CelType;
      if (t.kind === "bool" || this.isAssignable(t, BoolType)) continue;
      const arg = e.args[i] as Expr;
      this.report(arg.id, `expected type '${formatType(BoolType)}' but found '${formatType(t)}'`);
      failed = true;
    }
    if (failed) {
      this.setType(e, ErrorType);
      return;
    }
    this.setType(e, BoolType);
    this.setReference(e.id, { name: fn.name, overloadIds: singleId(overloadId) });
  }

  private checkCreateList(e: ListExpr): void {
    let elemsType: CelType | undefined;
    const optionals = e.optionalIndices;
    const elements = e.elements;
    for (let i = 0; i < elements.length; i++) {
      const el = elements[i] as Expr;
      this.check(el);
      let elemType = this.getType(el);
      if (optionals.length > 0 && optionals.includes(i)) {
        const [inner, isOpt] = maybeUnwrapOptional(elemType);
        elemType = inner;
        if (!isOpt && !isDyn(elemType)) this.typeMismatch(el.id, optionalType(elemType), elemType);
      }
      elemsType = this.joinTypes(el.id, elemsType, elemType);
    }
    this.setType(e, elemsType === undefined ? listType(this.newTypeVar()) : listOf(elemsType));
  }

  private checkCreateMap(e: MapExpr): void {
    let keyType: CelType | undefined;
    let valueType: CelType | undefined;
    const entries = e.entries;
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i] as (typeof entries)[number];
      this.check(entry.key);
      keyType = this.joinTypes(entry.key.id, keyType, this.getType(entry.key));
      this.check(entry.value);
      let vt = this.getType(entry.value);
      if (entry.optional) {
        const [inner, isOpt] = maybeUnwrapOptional(vt);
        vt = inner;
        if (!isOpt && !isDyn(vt)) this.typeMismatch(entry.value.id, optionalType(vt), vt);
      }
      valueType = this.joinTypes(entry.value.id, valueType, vt);
    }
    if (keyType === undefined || valueType === undefined) {
      keyType = this.newTypeVar();
      valueType = this.newTypeVar();
    }
    this.setType(e, mapType(keyType, valueType));
  }

  private checkCreateStruct(e: StructExpr): void {
    const container = this.env.decls.container;
    const ident = this.env.resolveTypeIdent(e.messageName);
    if (ident === undefined) {
      this.report(e.id, `undeclared reference to '${e.messageName}' (in container '${container}')`);
      this.setType(e, ErrorType);
      return;
    }
    let typeName = ident.name;
    this.setReference(e.id, { name: typeName });
    let resultType: CelType = ErrorType;
    const identType = ident.type;
    if (identType.kind !== "error") {
      if (identType.kind !== "type") {
        this.report(e.id, `'${identType.name}' is not a type`);
      } else {
        resultType = identType.params[0] as CelType;
        // A well-known type is constructed as its protobuf message (cel-go's backwards compatibility).
        const wellKnown = wellKnownTypeName(resultType);
        if (wellKnown !== undefined) {
          typeName = wellKnown;
        } else if (resultType.kind === "struct") {
          typeName = resultType.name;
        } else {
          this.report(e.id, `'${resultType.name}' is not a message type`);
          resultType = ErrorType;
        }
      }
    }
    this.setType(e, resultType);
    for (const f of e.fields) {
      this.check(f.value);
      let fieldType: CelType = ErrorType;
      const ft = this.lookupFieldType(f.id, typeName, f.field);
      if (ft !== undefined) fieldType = ft;
      let vt = this.getType(f.value);
      if (f.optional) {
        const [inner, isOpt] = maybeUnwrapOptional(vt);
        vt = inner;
        if (!isOpt && !isDyn(vt)) this.typeMismatch(f.value.id, optionalType(vt), vt);
      }
      if (!this.isAssignable(fieldType, vt)) {
        this.report(
          f.id,
          `expected type of field '${f.field}' is '${formatType(fieldType)}' but provided type is '${formatType(vt)}'`,
        );
      }
    }
  }

  private checkComprehension(e: ComprehensionExpr): void {
    this.check(e.iterRange);
    this.check(e.accuInit);
    const rangeType = substitute(this.mappings, this.getType(e.iterRange), false);
    const accuType = this.getType(e.accuInit);
    this.env.enterScope();
    this.env.addLocal(e.accuVar, accuType);
    let varType: CelType;
    let var2Type: CelType | undefined;
    const two = e.iterVar2 !== undefined;
    switch (rangeType.kind) {
      case "list":
        varType = rangeType.params[0] as CelType;
        if (two) {
          var2Type = varType;
          varType = IntType;
        }
        break;
      case "map":
        varType = rangeType.params[0] as CelType;
        if (two) var2Type = rangeType.params[1] as CelType;
        break;
      case "dyn":
      case "error":
      case "type_param":
        this.isAssignable(DynType, rangeType);
        varType = DynType;
        if (two) var2Type = DynType;
        break;
      default:
        this.report(
          e.iterRange.id,
          `expression of type '${formatType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`,
        );
        varType = ErrorType;
        if (two) var2Type = ErrorType;
    }
    this.env.enterScope();
    this.env.addLocal(e.iterVar, varType);
    if (e.iterVar2 !== undefined && var2Type !== undefined) this.env.addLocal(e.iterVar2, var2Type);
    this.check(e.loopCondition);
    this.assertType(e.loopCondition, BoolType);
    this.check(e.loopStep);
    this.assertType(e.loopStep, accuType);
    this.env.exitScope();
    this.check(e.result);
    this.env.exitScope();
    this.setType(e, substitute(this.mappings, this.getType(e.result), false));
  }

  private joinTypes(id: number, previous: CelType | undefined, current: CelType): CelType {
    if (previous === undefined) return current;
    if (this.isAssignable(previous, current)) return mostGeneral(previous, current);
    if (this.dynAggregates) return DynType;
    this.typeMismatch(id, previous, current);
    return ErrorType;
  }

  private newTypeVar(): CelType {
    return typeParamType(`_var${this.freeTypeVarCounter++}`);
  }

  private isAssignable(t1: CelType, t2: CelType): boolean {
    return isAssignable(this.mappings, t1, t2);
  }

  private isAssignableList(l1: readonly CelType[], l2: readonly CelType[]): boolean {
    return isAssignableList(this.mappings, l1, l2);
  }

  private assertType(e: Expr, t: CelType): void {
    const actual = this.getType(e);
    if (!this.isAssignable(t, actual)) this.typeMismatch(e.id, t, actual);
  }

  private typeMismatch(id: number, expected: CelType, actual: CelType): void {
    this.report(id, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
  }

  private lookupFieldType(id: number, structName: string, field: string): CelType | undefined {
    const wellKnown = wellKnownMessage(structName);
    if (wellKnown !== undefined) {
      const ft = wellKnown.fields.get(field);
      if (ft === undefined) this.report(id, `undefined field '${field}'`);
      return ft;
    }
    const provider = this.env.decls.provider;
    if (provider.findStructType(structName) === undefined) {
      this.report(id, `unexpected failed resolution of '${structName}'`);
      return undefined;
    }
    const ft = provider.findStructFieldType(structName, field);
    if (ft !== undefined) return ft;
    this.report(id, `undefined field '${field}'`);
    return undefined;
  }

  private setType(e: Expr, t: CelType): void {
    const id = e.id;
    const old = this.typeArr[id];
    if (old === undefined) {
      this.typedIds[this.typedCount++] = id;
      if (t.params.length > 0 || t.kind === "type_param") this.paramIds.push(id);
      this.typeArr[id] = t;
      return;
    }
    this.setTypeId(id, t);
  }

  private setTypeId(id: number, t: CelType): void {
    const old = this.typeArr[id];
    if (old !== undefined && !isExactType(old, t)) {
      this.report(id, `incompatible type already exists for expression: ${id} old:${formatType(old)}, new:${formatType(t)}`);
      return;
    }
    if (old === undefined) {
      this.typedIds[this.typedCount++] = id;
      if (t.params.length > 0 || t.kind === "type_param") this.paramIds.push(id);
    }
    this.typeArr[id] = t;
  }

  private setReference(id: number, r: Reference): void {
    if (this.refArr[id] === undefined) this.refIds[this.refCount++] = id;
    this.refArr[id] = r;
    // a call's reference lists its overloads (identifiers and type names have none)
    if (r.overloadIds !== undefined) this.callNames.push(r.name as string);
  }

  private getType(e: Expr): CelType {
    return this.typeArr[e.id] ?? ErrorType;
  }

  private report(id: number, message: string): void {
    this.errors.report(id, this.ast.sourceInfo.positions.get(id) ?? -1, message);
  }
}
