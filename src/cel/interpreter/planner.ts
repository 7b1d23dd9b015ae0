/**
 * STABLE API for CEL-B — the planner: turns an AST into a tree of closures that
 * evaluate against an activation, with errors/unknowns as values, commutative
 * `&&`/`||`, and cel-go runtime cost tracking with an optional limit.
 *
 * @example
 * const prog = plan(parse("x + 1").ast!, { functions: standardFunctions() });
 * prog.eval({ x: 41n }).value; // 42n
 *
 * @module
 */

import type { CallExpr, ComprehensionExpr, Constant, Expr, ParsedAst, SelectExpr } from "../ast.js";
import { compileGoRegexp } from "../../go/regexp.js";
import { celEquals, tagOf, typeOf } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import {
  CelError,
  CelMap,
  CelOptional,
  CelSpecial,
  type CelType,
  CelUint,
  CelUnknown,
  HashCelMap,
  isMapKeyType,
  TYPES,
} from "../values/values.js";
import { formatKey, indexValue, selectField } from "./access.js";
import type { Cand, Impl } from "./dispatch.js";
import { makeDispatcher, pickN } from "./dispatch.js";
import type { CallCostFn, CallCostShape, OverloadImpl } from "./functions.js";
import { FunctionRegistry } from "./functions.js";
import { COST, callCostFn, trackerFor, UNIT_COST } from "./runtime-cost.js";
import { wellKnownValue } from "./well-known-values.js";
import { wellKnownMessage } from "../types/well-known.js";
import type { Activation } from "./state.js";
import { CostExceeded, State } from "./state.js";

export type { Activation } from "./state.js";
export { formatKey, indexValue } from "./access.js";

/** Error message when the runtime cost limit is exceeded (cel-go). */
export const COST_LIMIT_MESSAGE = "operation cancelled: actual cost limit exceeded";

/** Checker output the planner can use (CEL-B's checked AST annotations). */
export interface CheckedInfo {
  /** Node id → checked type (opaque to the planner). */
  readonly types?: ReadonlyMap<number, unknown>;
  /** Node id → resolved identifier name and/or candidate overload ids. */
  readonly references?: ReadonlyMap<number, PlannedReference>;
  /** `references.get(id)` without building the map (the checker's results have it). */
  referenceOf?(id: number): PlannedReference | undefined;
  /** The references by node id as an array (`referenceOf(id)` is its entry; the checker's results have it). */
  referenceArray?(): readonly (PlannedReference | undefined)[];
  /** The resolved function names of the calls (one per call), when every call resolved (the checker's results have it). */
  callNameList?(): readonly string[];
  /** `types.get(id)` without building the map (the checker's results have it). */
  typeOf?(id: number): { readonly kind: string } | undefined;
}

/** What the planner reads of a checker reference. */
interface PlannedReference {
  readonly name?: string;
  readonly overloadIds?: readonly string[];
}

/** Planner options. */
export interface PlanOptions {
  /** Function implementations (e.g. `standardFunctions()` plus extensions). */
  readonly functions: FunctionRegistry;
  /** Checker annotations; without them dispatch is dynamic by runtime types. */
  readonly checked?: CheckedInfo;
  /** Extra call-cost model consulted before the default (Kubernetes library costs). */
  readonly callCost?: CallCostFn;
  /** cel-go `PresenceTestHasCost`; default true. */
  readonly presenceTestHasCost?: boolean;
  /**
   * cel-go `OptOptimize` (Kubernetes' base environment): type conversions of constants (`int('x')`,
   * `uint(-1)`, also over constant list/map literals) are evaluated when the program is built, and an
   * error there fails {@link plan} with a {@link ProgramInstantiationError}.
   */
  readonly optimize?: boolean;
  /**
   * Extra type identifiers (e.g. `kubernetes.Quantity` → its {@link CelType}) usable as values
   * (`type(x) == kubernetes.Quantity`), besides the built-in ones.
   */
  readonly typeValues?: ReadonlyMap<string, CelType>;
  /**
   * Functions whose regular expression (argument 1, the receiver counted) is compiled when the program is
   * built if it is a constant (cel-go `CompileRegexConstants`; `matches` with {@link optimize}, plus e.g.
   * Kubernetes' `find` and `findAll`): an invalid one fails with a {@link ProgramInstantiationError}.
   */
  readonly regexConstantFunctions?: ReadonlySet<string>;
}


/** Per-evaluation options. */
export interface EvalOptions {
  /** Stop with `operation cancelled: actual cost limit exceeded` once the cost exceeds this. */
  readonly costLimit?: number;
}

/** Result of one evaluation: the value (possibly a CelError / CelUnknown) and its cost. */
export interface EvalResult {
  readonly value: CelValue;
  readonly cost: number;
}

/** A planned program: evaluate many times. */
export interface Program {
  eval(activation?: Activation, opts?: EvalOptions): EvalResult;
}

type Interp = (s: State) => CelValue;

/** Marker of a comprehension accumulator whose init expression has not been evaluated yet. */
const UNINITIALIZED = new CelError("uninitialized accumulator") as CelValue;

/** Type names and their type values (a Map: names like `toString` are not inherited lookups). */
const TYPE_IDENTS = new Map<string, CelType>([
  ["int", TYPES.int],
  ["uint", TYPES.uint],
  ["double", TYPES.double],
  ["bool", TYPES.bool],
  ["string", TYPES.string],
  ["bytes", TYPES.bytes],
  ["list", TYPES.list],
  ["map", TYPES.map],
  ["null_type", TYPES.null],
  ["type", TYPES.type],
  ["google.protobuf.Duration", TYPES.duration],
  ["google.protobuf.Timestamp", TYPES.timestamp],
  ["optional_type", TYPES.optional],
]);

/** Whether the program compiles constant regular expressions of calls to `name` (see `regexConstantFunctions`). */
export function isRegexFunction(name: string, opts: PlanOptions): boolean {
  return (opts.optimize === true && name === "matches") || opts.regexConstantFunctions?.has(name) === true;
}

/**
 * cel-go's `CompileRegexConstants`, after the call's arguments are planned (a type conversion of a constant
 * is one by then): a constant pattern is compiled, and Go's error fails the program.
 */
export function checkRegexConstant(e: CallExpr, opts: PlanOptions): void {
  const p = e.target !== undefined ? e.args[0] : e.args[1];
  if (p === undefined) return;
  let pattern: string | undefined;
  if (p.kind === "const") pattern = p.value.kind === "string" ? p.value.value : undefined;
  else if (opts.optimize === true && p.kind === "call" && isFoldedConstant(p)) {
    const v = plan(p, opts).eval().value;
    pattern = typeof v === "string" ? v : undefined;
  }
  if (pattern === undefined) return;
  const r = compileGoRegexp(pattern);
  if (r.error !== undefined) throw new ProgramInstantiationError(r.error);
}

/**
 * Whether the runtime knows the type name `name` as a value (cel-go's `provider.FindIdent` when a checked
 * identifier denotes a type): the standard type names and the `typeValues` of the options.
 */
export function isRuntimeTypeIdent(name: string, opts: PlanOptions): boolean {
  return TYPE_IDENTS.has(name) || opts.typeValues?.has(name) === true;
}

const NO_OVERLOAD = "no such overload";

function constValue(c: Constant): CelValue {
  switch (c.kind) {
    case "null":
      return null;
    case "uint":
      return new CelUint(c.value);
    default:
      return c.value;
  }
}

/** cel-go's `Program()` error: a constant sub-expression failed while the program was optimized. */
export class ProgramInstantiationError extends Error {}

/** cel-go `overloads.IsTypeConversionFunction`. */
const TYPE_CONVERSIONS = new Set(["bool", "bytes", "double", "duration", "dyn", "int", "string", "timestamp", "type", "uint"]);

/** Whether a call resolved to function `name` (maybe qualified by a container) may be a type conversion. */
export function mayBeTypeConversion(name: string): boolean {
  return TYPE_CONVERSIONS.has(name) || TYPE_CONVERSIONS.has(name.slice(name.lastIndexOf(".") + 1));
}

/**
 * Whether cel-go's optimizer (`decOptimize`) turns `e` into a constant: a literal, a list or map literal
 * of constants, or a one-argument type conversion of a constant.
 */
export function isFoldedConstant(e: Expr): boolean {
  switch (e.kind) {
    case "const":
      return true;
    case "list":
      return e.elements.every(isFoldedConstant);
    case "map":
      return e.entries.every((en) => isFoldedConstant(en.key) && isFoldedConstant(en.value));
    case "call":
      return e.target === undefined && e.args.length === 1 && TYPE_CONVERSIONS.has(e.function) && isFoldedConstant(e.args[0] as Expr);
    default:
      return false;
  }
}

/** A planner of one expression kind (`this` the planner). */
type KindPlanner = (this: Planner, e: Expr, noRoot: boolean) => Interp;

class Planner {
  /** Comprehension variables in scope, innermost last: names and their slots (no Map per scope). */
  private readonly localNames: string[] = [];
  private readonly localSlots: number[] = [];
  /** Accumulator slots holding a fresh list/map owned by the running comprehension (appended in place). */
  private readonly mutableAccu: ("list" | "map" | undefined)[] = [];
  /** Accumulator slots initialized lazily on first read (cel-go folder.ResolveName), with their init. */
  private readonly lazyAccu: (Interp | undefined)[] = [];
  nSlots = 0;
  private nextSlot = 0;

  /** The checker's references by node id, when it offers them as an array (read in place on hot paths). */
  private readonly refArr: readonly (PlannedReference | undefined)[] | undefined;

  constructor(private readonly o: PlanOptions) {
    this.refArr = o.checked?.referenceArray?.();
  }

  /** The checker's reference of node `id`, if checked. */
  private ref(id: number): PlannedReference | undefined {
    const c = this.o.checked;
    if (c === undefined) return undefined;
    return c.referenceOf !== undefined ? c.referenceOf(id) : c.references?.get(id);
  }

  private local(name: string): number | undefined {
    const names = this.localNames;
    for (let i = names.length - 1; i >= 0; i--) if (names[i] === name) return this.localSlots[i];
    return undefined;
  }

  /**
   * Plans `e`. `noRoot` suppresses the root cost of an attribute expression (cel-go does not
   * charge the base of an attribute used as an index qualifier or as a ternary branch).
   */
  /** Whether cel-go plans `e` as an attribute (ident, select, index, optional select/index, ternary). */
  private isAttr(e: Expr): boolean {
    if (e.kind === "ident") return true;
    if (e.kind === "select") return !e.testOnly;
    if (e.kind === "call" && e.target === undefined)
      return e.function === "_[_]" || e.function === "_[?_]" || e.function === "_?._" || e.function === "_?_:_";
    return false;
  }

  /** Plans the operand of a select/index: non-attributes become cel-go relative attributes (+1). */
  private planOperand(e: Expr, noRoot: boolean): Interp {
    if (this.isAttr(e)) return this.plan(e, noRoot);
    const inner = this.plan(e);
    if (noRoot) return inner;
    return (s) => {
      const v = inner(s);
      s.add(1);
      return v;
    };
  }

  plan(e: Expr, noRoot = false): Interp {
    // one call through a table of per-kind planners: the call site sees many targets, so V8's
    // optimizing compiler inlines none of them into this small, hot dispatcher
    // the table index by comparing the kind with the (interned) kind strings: cheaper than a keyed load by
    // a string key that V8 sees varying (a megamorphic lookup per node)
    const k = e.kind;
    const i = k === "call" ? 0 : k === "ident" ? 1 : k === "select" ? 2 : k === "const" ? 3 : k === "list" ? 4 : k === "comprehension" ? 5 : k === "map" ? 6 : 7;
    return (KIND_PLANNERS[i] as KindPlanner).call(this, e, noRoot);
  }

  private planConst(e: Extract<Expr, { kind: "const" }>): Interp {
    const v = constValue(e.value);
    return () => v;
  }

  private planIdentExpr(e: Extract<Expr, { kind: "ident" }>, noRoot: boolean): Interp {
    return this.planIdent(e.id, e.name, noRoot ? 0 : 1);
  }

  private planListExpr(e: Extract<Expr, { kind: "list" }>): Interp {
    return this.planList(e.elements, e.optionalIndices);
  }

  private planStruct(e: Extract<Expr, { kind: "struct" }>): Interp {
    const name = e.messageName;
    const ref = this.o.checked?.referenceOf?.(e.id) ?? this.o.checked?.references?.get(e.id);
    const qualified = ref?.name ?? (name.startsWith(".") ? name.slice(1) : name);
    if (wellKnownMessage(qualified) !== undefined) {
      // A protobuf well-known message (the only messages Kubernetes' environment can construct).
      const fields = e.fields.map((f) => ({ name: f.field, value: this.plan(f.value), optional: f.optional }));
      const build = (s: State): CelValue => {
        const vals = new Map<string, CelValue>();
        for (const f of fields) {
          const v = f.value(s);
          if (v instanceof CelSpecial) return v;
          if (f.optional) {
            if (!(v instanceof CelOptional)) return new CelError(NO_OVERLOAD);
            if (v.value !== undefined) vals.set(f.name, v.value);
          } else vals.set(f.name, v);
        }
        const v = wellKnownValue(qualified, vals);
        return v === undefined ? new CelError(`unknown type: ${name}`) : v;
      };
      return (s) => {
        const r = build(s);
        s.add(COST.structCreateBase);
        return r;
      };
    }
    return (s) => {
      s.add(COST.structCreateBase);
      return new CelError(`unknown type: ${name}`);
    };
  }

  /** {@link plan}'s table, by the index {@link plan} gives an expression kind. */
  static readonly kindPlanners: readonly KindPlanner[] = [
    Planner.prototype.planCall as KindPlanner,
    Planner.prototype.planIdentExpr as KindPlanner,
    Planner.prototype.planSelect as KindPlanner,
    Planner.prototype.planConst as KindPlanner,
    Planner.prototype.planListExpr as KindPlanner,
    Planner.prototype.planComprehension as KindPlanner,
    Planner.prototype.planMap as KindPlanner,
    Planner.prototype.planStruct as KindPlanner,
  ];

  private planIdent(id: number, name: string, cost: number): Interp {
    const refArr = this.refArr;
    const refName = (refArr !== undefined ? refArr[id] : this.ref(id))?.name ?? name;
    // a leading dot names the global (root-scoped) identifier, bypassing locals
    if (refName.charCodeAt(0) === 46 /* . */) return this.planGlobalIdent(id, refName.slice(1), cost);
    // this.local in place (no small helper call on this hot path)
    const names = this.localNames;
    let slot: number | undefined;
    for (let i = names.length - 1; i >= 0; i--)
      if (names[i] === refName) {
        slot = this.localSlots[i];
        break;
      }
    if (slot === undefined) return this.planGlobalIdent(id, refName, cost);
    // small builders apart: this hot function stays small for V8's optimizing compiler
    const lazyInit = this.lazyAccu[slot];
    return lazyInit === undefined ? slotRead(slot, cost) : lazySlotRead(slot, cost, lazyInit);
  }

  /** An identifier that is not a comprehension variable: a variable of the activation or a type name. */
  private planGlobalIdent(id: number, refName: string, cost: number): Interp {
    const typeVal = TYPE_IDENTS.get(refName) ?? this.o.typeValues?.get(refName);
    // in a checked program a type name is a constant (cel-go plans the checker's reference value)
    if (typeVal !== undefined && this.o.checked !== undefined) return typeNameRead(refName, typeVal, cost);
    return globalRead(refName, typeVal, cost, id);
  }

  /** Qualified-name candidates for a select chain rooted at a non-local identifier. */
  private qualifiedName(e: SelectExpr): string | undefined {
    const parts: string[] = [e.field];
    let cur: Expr = e.operand;
    while (cur.kind === "select" && !cur.testOnly) {
      parts.push(cur.field);
      cur = cur.operand;
    }
    if (cur.kind !== "ident" || this.local(cur.name) !== undefined) return undefined;
    parts.push(cur.name);
    return parts.reverse().join(".");
  }

  /** The slot of `e` when it is a comprehension variable read as it is (not a lazily initialized accumulator). */
  private plainLocalSlot(e: Expr): number | undefined {
    if (e.kind !== "ident") return undefined;
    const refName = this.ref(e.id)?.name ?? e.name;
    if (refName.startsWith(".")) return undefined;
    const slot = this.local(refName);
    return slot === undefined || this.lazyAccu[slot] !== undefined ? undefined : slot;
  }

  private planSelect(e: SelectExpr, noRoot = false): Interp {
    const refArr = this.refArr;
    const refName = (refArr !== undefined ? refArr[e.id] : this.ref(e.id))?.name;
    if (refName !== undefined && !e.testOnly) return this.planIdent(e.id, refName, noRoot ? 0 : 1);
    const field = e.field;
    const qn = !e.testOnly && !this.o.checked ? this.qualifiedName(e) : undefined;
    if (!e.testOnly && qn === undefined) {
      // `x.f` of a comprehension variable: the variable's read and the selection in one closure
      const slot = this.plainLocalSlot(e.operand);
      if (slot !== undefined) return slotFieldSelect(slot, noRoot ? 0 : 1, field, e.id);
    }
    const operand = this.planOperand(e.operand, noRoot);
    if (e.testOnly) {
      const cost = this.o.presenceTestHasCost === false ? 0 : 1;
      const tqn = !this.o.checked ? this.qualifiedName(e) : undefined;
      return (s) => {
        const v = operand(s);
        if (v instanceof CelSpecial) {
          // cel-go: the presence test is not applied; a missing variable is reported under the
          // most qualified candidate name (maybe-attribute)
          if (tqn !== undefined && v instanceof CelError && v.message.startsWith("no such attribute(s): "))
            return new CelError(`no such attribute(s): ${tqn}`, v.exprId);
          return v;
        }
        if ((s.cost += cost) > s.limit) throw new CostExceeded();
        if (v instanceof CelMap) return v.contains(field);
        if (v instanceof CelOptional) return v.value instanceof CelMap ? v.value.contains(field) : false;
        // cel-go (ErrorOnBadPresenceTest off): lists reject a string index, anything else is absent
        if (Array.isArray(v)) return new CelError("unsupported index type 'string' in list");
        return false;
      };
    }
    const id = e.id;
    // cel-go qualifier costs: a qualifier applied normally costs 1 (also when it fails); none is
    // applied after a failed operand; in optional mode only a present field is charged.
    const select = fieldSelect(operand, field, id);
    if (qn === undefined) return select;
    const typeVal = TYPE_IDENTS.get(qn) ?? this.o.typeValues?.get(qn);
    const rootCost = noRoot ? 0 : 1;
    return (s) => {
      const v = s.hasDottedNames() ? s.resolve(qn) : undefined;
      if (v !== undefined) {
        s.add(rootCost);
        return v;
      }
      if (typeVal !== undefined) {
        s.add(rootCost);
        return typeVal;
      }
      const r = select(s);
      // cel-go maybe-attribute: a missing variable is reported under the most qualified name
      if (r instanceof CelError && r.message.startsWith("no such attribute(s): "))
        return new CelError(`no such attribute(s): ${qn}`, r.exprId);
      return r;
    };
  }

  private planList(elems: readonly Expr[], optIdx: readonly number[]): Interp {
    const items = elems.map((x) => this.plan(x));
    const n = items.length;
    if (optIdx.length === 0 && n > 0 && elems.every((x) => x.kind === "const")) {
      // a list of literals (`x in ['a', 'b']`) is built once and shared by every evaluation, charged
      // as a construction each time; lists are never changed in place, only a comprehension's own
      // accumulator (which starts as a fresh `[]`)
      const shared = elems.map((x) => constValue((x as Extract<Expr, { kind: "const" }>).value));
      return (s) => {
        s.add(COST.listCreateBase);
        return shared;
      };
    }
    if (optIdx.length === 0) {
      return (s) => {
        const out = new Array<CelValue>(n);
        for (let i = 0; i < n; i++) {
          const v = (items[i] as Interp)(s);
          if (v instanceof CelSpecial) {
            s.add(COST.listCreateBase); // cel-go charges the constructor even when it fails
            return v;
          }
          out[i] = v;
        }
        s.add(COST.listCreateBase);
        return out;
      };
    }
    const opt = new Set(optIdx);
    const build = (s: State): CelValue => {
      const out: CelValue[] = [];
      for (let i = 0; i < n; i++) {
        const v = (items[i] as Interp)(s);
        if (v instanceof CelSpecial) return v;
        if (opt.has(i)) {
          if (!(v instanceof CelOptional)) return new CelError(NO_OVERLOAD);
          if (v.value !== undefined) out.push(v.value);
        } else out.push(v);
      }
      return out;
    };
    return (s) => {
      const r = build(s);
      s.add(COST.listCreateBase); // charged even when construction fails (cel-go)
      return r;
    };
  }

  private planMap(e: Extract<Expr, { kind: "map" }>): Interp {
    const entries = e.entries.map((en) => ({ k: this.plan(en.key), v: this.plan(en.value), opt: en.optional }));
    const build = (s: State): CelValue => {
      const m = new HashCelMap();
      for (const en of entries) {
        const k = en.k(s);
        if (k instanceof CelSpecial) return k;
        const v = en.v(s);
        if (v instanceof CelSpecial) return v;
        if (!isMapKeyType(k)) return new CelError("unsupported key type");
        // cel-go builds a Go map: a repeated key overwrites, an absent optional entry deletes
        if (en.opt) {
          if (!(v instanceof CelOptional)) return new CelError(NO_OVERLOAD);
          if (v.value !== undefined) m.set(k, v.value);
          else m.delete(k);
        } else m.set(k, v);
      }
      return m;
    };
    return (s) => {
      const r = build(s);
      s.add(COST.mapCreateBase); // charged even when construction fails (cel-go)
      return r;
    };
  }

  private planComprehension(e: ComprehensionExpr): Interp {
    const range = this.plan(e.iterRange);
    const init = this.plan(e.accuInit);
    const accuSlot = this.nextSlot++;
    const iterSlot = this.nextSlot++;
    const iter2Slot = e.iterVar2 !== undefined ? this.nextSlot++ : -1;
    this.nSlots = Math.max(this.nSlots, this.nextSlot);
    // accumulator is visible in loop condition/step/result; iteration vars in condition/step
    const names = this.localNames;
    const slots = this.localSlots;
    names.push(e.accuVar, e.iterVar);
    slots.push(accuSlot, iterSlot);
    if (e.iterVar2 !== undefined) {
      names.push(e.iterVar2);
      slots.push(iter2Slot);
    }
    this.lazyAccu[accuSlot] = init;
    const cond = this.plan(e.loopCondition);
    const ai = e.accuInit;
    const kind =
      ai.kind === "list" && ai.elements.length === 0 ? "list" : ai.kind === "map" && ai.entries.length === 0 ? "map" : undefined;
    if (kind) this.mutableAccu[accuSlot] = kind;
    const step = this.plan(e.loopStep);
    this.mutableAccu[accuSlot] = undefined;
    // the iteration variables go out of scope; the accumulator stays for the result
    const keep = names.length - (e.iterVar2 !== undefined ? 2 : 1);
    names.length = keep;
    slots.length = keep;
    const result = this.plan(e.result);
    this.lazyAccu[accuSlot] = undefined;
    names.length = keep - 1;
    slots.length = keep - 1;
    this.nextSlot -= e.iterVar2 !== undefined ? 3 : 2;
    const two = e.iterVar2 !== undefined;
    return (s) => {
      const r = range(s);
      if (r instanceof CelSpecial) return r;
      let keys: readonly CelValue[];
      let map: CelMap | undefined;
      if (Array.isArray(r)) keys = r;
      else if (r instanceof CelMap) {
        keys = r.keys();
        map = r;
      } else return new CelError(`got '${goTypeName(r)}', expected iterable type`, e.id);
      const slots = s.slots;
      const saveA = slots[accuSlot] as CelValue;
      const saveI = slots[iterSlot] as CelValue;
      const saveI2 = two ? (slots[iter2Slot] as CelValue) : null;
      slots[accuSlot] = UNINITIALIZED;
      const n = keys.length;
      for (let i = 0; i < n; i++) {
        if (two) {
          if (map) {
            slots[iterSlot] = keys[i] as CelValue;
            slots[iter2Slot] = map.get(keys[i] as CelValue) as CelValue;
          } else {
            slots[iterSlot] = BigInt(i);
            slots[iter2Slot] = keys[i] as CelValue;
          }
        } else slots[iterSlot] = keys[i] as CelValue;
        // cel-go evalFold: stop only on a boolean false condition (errors/unknowns continue)
        if (cond(s) === false) break;
        slots[accuSlot] = step(s);
      }
      const out = result(s);
      slots[accuSlot] = saveA;
      slots[iterSlot] = saveI;
      if (two) slots[iter2Slot] = saveI2;
      return out;
    };
  }

  private planCall(e: CallExpr, noRoot = false): Interp {
    const fn = e.function;
    switch (fn) {
      case "_&&_":
      case "_||_":
        return this.planLogic(e, fn === "_&&_");
      case "_?_:_":
        return this.planTernary(e, noRoot);
      case "@not_strictly_false": {
        const a = this.plan(e.args[0] as Expr);
        return (s) => {
          const v = a(s);
          if ((s.cost += 1) > s.limit) throw new CostExceeded();
          return v !== false;
        };
      }
      case "_[_]":
        return this.planIndex(e, noRoot);
      case "_?._":
      case "_[?_]":
        return this.planOptSelect(e, fn === "_?._", noRoot);
      case "cel.@mapInsert":
        return this.planMapInsert(e);
    }
    if (e.target && (fn === "or" || fn === "orValue") && e.args.length === 1) {
      // cel-go evalOptionalOr / evalOptionalOrValue: short-circuit, not charged as a call
      const t = this.plan(e.target);
      const alt = this.plan(e.args[0] as Expr);
      const isOr = fn === "or";
      return (s) => {
        const tv = t(s);
        if (tv instanceof CelSpecial) return tv;
        if (!(tv instanceof CelOptional)) return new CelError(NO_OVERLOAD, e.id);
        if (tv.value !== undefined) return isOr ? tv : tv.value;
        return alt(s);
      };
    }
    return this.planStrictCall(e);
  }

  private planLogic(e: CallExpr, isAnd: boolean): Interp {
    const a = this.plan(e.args[0] as Expr);
    const b = this.plan(e.args[1] as Expr);
    const short = !isAnd;
    return (s) => {
      const x = a(s);
      if (x === short) return short;
      const y = b(s);
      if (y === short) return short;
      if (x === !short && y === !short) return !short;
      // error / unknown / non-bool handling
      if (x instanceof CelUnknown && y instanceof CelUnknown) return x.merge(y);
      if (x instanceof CelUnknown) return x;
      if (y instanceof CelUnknown) return y;
      if (x instanceof CelError) return x;
      if (y instanceof CelError) return y;
      return new CelError(NO_OVERLOAD);
    };
  }

  private planTernary(e: CallExpr, _noRoot: boolean): Interp {
    const c = this.plan(e.args[0] as Expr);
    const ta = e.args[1] as Expr;
    const fa = e.args[2] as Expr;
    // cel-go: attribute branches are resolved inside the conditional attribute (root not charged)
    const t = this.plan(ta, this.isAttr(ta));
    const f = this.plan(fa, this.isAttr(fa));
    return (s) => {
      const v = c(s);
      if (v === true) return t(s);
      if (v === false) return f(s);
      if (v instanceof CelSpecial) return v;
      return new CelError(NO_OVERLOAD);
    };
  }

  private planIndex(e: CallExpr, noRoot: boolean): Interp {
    const a = this.planOperand(e.args[0] as Expr, noRoot);
    const ix = e.args[1] as Expr;
    const b = this.plan(ix, this.isAttr(ix));
    return (s) => {
      const x = a(s);
      // cel-go: qualifiers (and their arguments) are not evaluated after a failed operand
      if (x instanceof CelSpecial) return x;
      if (x instanceof CelOptional) {
        if (x.value === undefined) return x;
        const y = b(s);
        const r = indexValue(x.value, y);
        if (r instanceof CelError) {
          if (r.message.startsWith("no such key") || r.message.startsWith("index out of bounds")) return CelOptional.NONE;
          return r;
        }
        s.add(1);
        return CelOptional.of(r);
      }
      const y = b(s);
      s.add(1);
      return indexValue(x, y);
    };
  }

  private planOptSelect(e: CallExpr, isField: boolean, noRoot: boolean): Interp {
    const a = this.planOperand(e.args[0] as Expr, noRoot);
    const ix = e.args[1] as Expr;
    const b = this.plan(ix, this.isAttr(ix));
    return (s) => {
      const x = a(s);
      if (x instanceof CelSpecial) return x;
      let target: CelValue = x;
      if (x instanceof CelOptional) {
        if (x.value === undefined) return x;
        target = x.value;
      }
      const y = b(s);
      if (y instanceof CelSpecial) return y;
      // optional qualifiers are charged only when the field/element is present (cel-go QualifyIfPresent)
      if (target instanceof CelMap) {
        const v = isField && typeof y === "string" ? target.getString(y) : target.get(y);
        if (v === undefined) return CelOptional.NONE;
        // a value converted on access that does not convert (cel-go: Find's error)
        if (v instanceof CelError) return v;
        s.add(1);
        return CelOptional.of(v);
      }
      if (Array.isArray(target) && !isField) {
        const r = indexValue(target, y);
        if (r instanceof CelError) return r.message.startsWith("index out of bounds") ? CelOptional.NONE : r;
        s.add(1);
        return CelOptional.of(r);
      }
      // anything else cannot be qualified: absent (cel-go without ErrorOnBadPresenceTest)
      if (Array.isArray(target)) return new CelError("unsupported index type 'string' in list");
      return CelOptional.NONE;
    };
  }

  private planMapInsert(e: CallExpr): Interp {
    const inPlace = this.mutableSlot(e.args[0], "map") !== undefined;
    const args = e.args.map((x) => this.plan(x));
    return (s) => {
      const vals = args.map((f) => f(s));
      s.add(1);
      for (const v of vals) if (v instanceof CelSpecial) return v;
      const m = vals[0];
      if (!(m instanceof CelMap)) return new CelError(NO_OVERLOAD);
      let out: HashCelMap;
      if (inPlace && m instanceof HashCelMap) out = m;
      else {
        out = new HashCelMap();
        for (const [k, v] of m.entries()) out.set(k, v);
      }
      const add = (k: CelValue, v: CelValue): CelError | undefined => {
        if (out.has(k)) return new CelError(`insert failed: key ${formatKey(k)} already exists`);
        if (!out.set(k, v)) return new CelError("unsupported key type");
        return undefined;
      };
      if (vals.length === 3) {
        const err = add(vals[1] as CelValue, vals[2] as CelValue);
        if (err) return err;
      } else {
        const entry = vals[1];
        if (!(entry instanceof CelMap)) return new CelError(NO_OVERLOAD);
        for (const [k, v] of entry.entries()) {
          const err = add(k, v);
          if (err) return err;
        }
      }
      return out;
    };
  }

  /** Slot of a mutable accumulator of `kind` referenced by `e`, if any. */
  private mutableSlot(e: Expr | undefined, kind: "list" | "map"): number | undefined {
    if (e?.kind !== "ident") return undefined;
    const slot = this.local(e.name);
    return slot !== undefined && this.mutableAccu[slot] === kind ? slot : undefined;
  }

  /** `@result + [...]` inside a comprehension whose accumulator started as `[]`: append in place (O(n) overall). */
  private planAppend(e: CallExpr): Interp {
    const accu = this.plan(e.args[0] as Expr);
    const rhs = this.plan(e.args[1] as Expr);
    const callCost = this.o.callCost;
    const shape = callCostShape(callCost, "_+_", "add_list");
    return (s) => {
      const a = accu(s);
      const b = rhs(s);
      // the call is charged even when an operand is an error (cel-go evalBinary is observed)
      const charge = (r: CelValue): CelValue => {
        s.add(
          shape === "default"
            ? 1
            : typeof shape === "number"
              ? shape
              : typeof shape === "object"
                ? (shape.byOperands(a, b) ?? 1)
                : (callCost?.("_+_", "add_list", [a, b], r) ?? 1),
        );
        return r;
      };
      if (a instanceof CelSpecial) return charge(a);
      if (b instanceof CelSpecial) return charge(b);
      if (!Array.isArray(a) || !Array.isArray(b)) return charge(new CelError(NO_OVERLOAD, e.id));
      const n = b.length;
      const arr = a as CelValue[];
      for (let i = 0; i < n; i++) arr.push(b[i] as CelValue);
      return charge(a);
    };
  }

  private planStrictCall(e: CallExpr): Interp {
    const f = this.planStrictCallInner(e);
    if (isRegexFunction(e.function, this.o)) checkRegexConstant(e, this.o);
    if (this.o.optimize && isFoldedConstant(e)) {
      // cel-go maybeOptimizeConstUnary: evaluated when the program is built; an error fails Program().
      // crdkit keeps evaluating the call at run time (same value); only the failure moves to plan time.
      const v = f(new State(0));
      if (v instanceof CelError) throw new ProgramInstantiationError(v.message);
    }
    return f;
  }

  private planStrictCallInner(e: CallExpr): Interp {
    if (e.function === "_+_" && e.args.length === 2 && this.mutableSlot(e.args[0], "list") !== undefined)
      return this.planAppend(e);
    const refArr = this.refArr;
    const ref = refArr !== undefined ? refArr[e.id] : this.ref(e.id);
    const resolved = ref?.name;
    if (resolved !== undefined && resolved !== e.function) {
      // the checker resolved another name, which cel-go writes into the call: the target was a namespace
      // (sets.contains, optional.of, strings.quote), or a global call named from the root (`.size(x)`)
      return this.planStrictCall({ kind: "call", id: e.id, function: resolved, args: e.args });
    }
    const fn = e.function;
    const target = e.target;
    const receiver = target !== undefined;
    const n = receiver ? e.args.length + 1 : e.args.length;
    const ids = ref?.overloadIds;
    const dispatch = dispatchFor(this.o.functions, fn, n, receiver, ids);
    const cands = dispatch.cands;
    // unchecked receiver call whose target is a qualified name: namespaced function (e.g. sets.contains)
    if (cands.length === 0 && receiver) {
      const qn = qualifiedIdent(e.target as Expr);
      if (qn !== undefined && this.local(qn.split(".")[0] as string) === undefined) {
        const g = this.o.functions.lookup(`${qn}.${fn}`, e.args.length, false);
        if (g.length > 0) return this.planStrictCall({ kind: "call", id: e.id, function: `${qn}.${fn}`, args: e.args });
      }
    }
    // the arguments (the target first), planned in order; one or two without an array or a target copy
    let a0: Interp | undefined;
    let a1: Interp | undefined;
    let args: Interp[] | undefined;
    if ((n === 1 || n === 2) && cands.length > 0) {
      a0 = this.plan(receiver ? target : (e.args[0] as Expr));
      if (n === 2) a1 = this.plan((receiver ? e.args[0] : e.args[1]) as Expr);
    } else {
      const argExprs = receiver ? withTarget(target, e.args) : e.args;
      args = new Array<Interp>(n);
      for (let i = 0; i < n; i++) args[i] = this.plan(argExprs[i] as Expr);
    }
    const callCost = this.o.callCost;
    const id = e.id;
    // cel-go charges every evaluated call (also when an argument is an error or no overload
    // matches), by the overload id fixed at plan time: the checker's id when it resolved exactly
    // one overload, otherwise "" (dynamic dispatch), whose cost is 1.
    const plannedId =
      fn === "_==_" ? "equals" : fn === "_!=_" ? "not_equals" : ids?.length === 1 ? (ids[0] as string) : "";
    const model = costModelOf(plannedId);
    // a host model whose cost of this call site is known now is not consulted per call
    const shape = model.tracker !== undefined ? "dynamic" : callCostShape(callCost, fn, plannedId);
    // a cost known at plan time is added by the call's closure itself (no cost function is called)
    const unit = typeof shape === "number" ? shape : shape === "default" && model.baseCost === UNIT_COST ? 1 : undefined;
    if (cands.length === 0) return this.noCandidates(fn, id, args as Interp[], chargeFor(shape, model, callCost, fn, plannedId));
    const { nonStrict, entries } = dispatch;
    const pick = dispatch.pick as Pick;
    // one overload taking anything (`_==_`, `_!=_`): the dispatcher's answer is known now
    const only = entries.length === 1 && allDyn((entries[0] as Cand).ov.args) ? (entries[0] as Cand) : undefined;
    if (n === 1) {
      if (unit !== undefined) return unaryUnitCall(fn, id, a0 as Interp, nonStrict, only, pick, unit);
      return unaryCall(fn, id, a0 as Interp, nonStrict, only, pick, chargeFor(shape, model, callCost, fn, plannedId), shape === "dynamic");
    }
    if (n === 2) {
      if (unit !== undefined) return binaryUnitCall(fn, id, a0 as Interp, a1 as Interp, nonStrict, only, pick, unit);
      return binaryCall(fn, id, a0 as Interp, a1 as Interp, nonStrict, only, pick, chargeFor(shape, model, callCost, fn, plannedId));
    }
    return varArgCall(fn, id, args as Interp[], nonStrict, entries, chargeFor(shape, model, callCost, fn, plannedId));
  }

  /** A call no overload implements (an unknown function, or a known one with other arities). */
  private noCandidates(fn: string, id: number, args: readonly Interp[], charge: Charge): Interp {
    const functions = this.o.functions;
    return (s) => {
      const vals = args.map((a) => a(s));
      charge(s, vals[0] ?? null, vals[1] ?? null, vals);
      for (const v of vals) if (v instanceof CelSpecial) return v;
      return functions.hasFunction(fn) ? noOverload(fn, vals, id) : new CelError(`no such overload: ${fn}`, id);
    };
  }
}


const KIND_PLANNERS = Planner.kindPlanners;

type Pick = (x: CelValue, y: CelValue) => Cand | undefined;

/** A one-argument call whose cost `unit` is known at plan time (added in place). */
function unaryUnitCall(fn: string, id: number, a0: Interp, nonStrict: boolean, only: Cand | undefined, pick: Pick, unit: number): Interp {
  return (s) => {
    const x = a0(s);
    if (x instanceof CelSpecial && !nonStrict) {
      if ((s.cost += unit) > s.limit) throw new CostExceeded();
      return x;
    }
    const c = only ?? pick(x, null);
    const r = c === undefined ? noOverload(fn, [x], id) : !c.ov.nonStrict && x instanceof CelSpecial ? x : c.impl(x);
    if ((s.cost += unit) > s.limit) throw new CostExceeded();
    return r;
  };
}

/** A one-argument call charged by `charge` (`dyn`: the model reads the argument list). */
function unaryCall(fn: string, id: number, a0: Interp, nonStrict: boolean, only: Cand | undefined, pick: Pick, charge: Charge, dyn: boolean): Interp {
  return (s) => {
    const x = a0(s);
    if (x instanceof CelSpecial && !nonStrict) {
      charge(s, x, null, dyn ? [x] : undefined, x);
      return x;
    }
    const c = only ?? pick(x, null);
    const r = c === undefined ? noOverload(fn, [x], id) : !c.ov.nonStrict && x instanceof CelSpecial ? x : c.impl(x);
    charge(s, x, null, dyn ? [x] : undefined, r);
    return r;
  };
}

/** A two-argument call whose cost `unit` is known at plan time (added in place). */
function binaryUnitCall(fn: string, id: number, a0: Interp, a1: Interp, nonStrict: boolean, only: Cand | undefined, pick: Pick, unit: number): Interp {
  return (s) => {
    const x = a0(s);
    const y = a1(s);
    let r: CelValue;
    if (!nonStrict && x instanceof CelSpecial) r = y instanceof CelUnknown && x instanceof CelUnknown ? x.merge(y) : x;
    else if (!nonStrict && y instanceof CelSpecial) r = y;
    else {
      const c = only ?? pick(x, y);
      r = c === undefined ? noOverload(fn, [x, y], id) : c.impl(x, y);
    }
    if ((s.cost += unit) > s.limit) throw new CostExceeded();
    return r;
  };
}

/** A two-argument call charged by `charge`. */
function binaryCall(fn: string, id: number, a0: Interp, a1: Interp, nonStrict: boolean, only: Cand | undefined, pick: Pick, charge: Charge): Interp {
  return (s) => {
    const x = a0(s);
    const y = a1(s);
    let r: CelValue;
    if (!nonStrict && x instanceof CelSpecial) r = y instanceof CelUnknown && x instanceof CelUnknown ? x.merge(y) : x;
    else if (!nonStrict && y instanceof CelSpecial) r = y;
    else {
      const c = only ?? pick(x, y);
      r = c === undefined ? noOverload(fn, [x, y], id) : c.impl(x, y);
    }
    charge(s, x, y, undefined, r);
    return r;
  };
}

/** The call of `n > 2` arguments: cel-go evalVarArgs. */
function varArgCall(fn: string, id: number, args: readonly Interp[], nonStrict: boolean, entries: readonly Cand[], charge: Charge): Interp {
  const n = args.length;
  return (s) => {
    const vals = new Array<CelValue>(n);
    for (let i = 0; i < n; i++) {
      const v = (args[i] as Interp)(s);
      // cel-go evalVarArgs stops at the first error/unknown; the call is then not charged
      // (its remaining arguments were never evaluated)
      if (v instanceof CelSpecial && !nonStrict) return v;
      vals[i] = v;
    }
    const c = pickN(entries, vals);
    const r = c === undefined ? noOverload(fn, vals, id) : c.impl(...vals);
    charge(s, vals[0] ?? null, vals[1] ?? null, vals, r);
    return r;
  };
}

/** Whether every runtime argument tag is `dyn`. */
function allDyn(tags: readonly string[]): boolean {
  for (let i = 0; i < tags.length; i++) if (tags[i] !== "dyn") return false;
  return true;
}

/** Charges one evaluated call (the arguments, all of them when built, and the result). */
type Charge = (s: State, a: CelValue, b: CelValue, all?: readonly CelValue[], r?: CelValue) => void;

/** The charge of a call site by its cost shape (see `planStrictCallInner`). */
function chargeFor(shape: CallCostShape, model: CostModel, callCost: CallCostFn | undefined, fn: string, plannedId: string): Charge {
  const { tracker, baseCost } = model;
  // the default charge depends on the overload's cost function alone: one closure per overload id
  if (shape === "default")
    return (model.defaultCharge ??= (s, a, b) => {
      if ((s.cost += baseCost(a, b)) > s.limit) throw new CostExceeded();
    });
  if (typeof shape === "number") return (s) => s.add(shape);
  if (typeof shape === "object")
    return (s, a, b) => {
      if ((s.cost += shape.byOperands(a, b) ?? baseCost(a, b)) > s.limit) throw new CostExceeded();
    };
  return (s, a, b, all, r) => {
    const vals = all ?? [a, b];
    const res = r ?? null;
    s.add(tracker?.(vals, res) ?? callCost?.(fn, plannedId, vals, res) ?? baseCost(a, b));
  };
}

/** `[target, ...args]`. */
function withTarget(target: Expr, args: readonly Expr[]): Expr[] {
  const out = new Array<Expr>(args.length + 1);
  out[0] = target;
  for (let i = 0; i < args.length; i++) out[i + 1] = args[i] as Expr;
  return out;
}

/** The runtime cost functions of an overload id. */
interface CostModel {
  readonly tracker: ReturnType<typeof trackerFor>;
  readonly baseCost: ReturnType<typeof callCostFn>;
  /** {@link chargeFor}'s charge of the `default` shape, made on first use. */
  defaultCharge: Charge | undefined;
}
const COST_MODELS = new Map<string, CostModel>();

/** {@link trackerFor} and {@link callCostFn} of `id`, looked up once per overload id. */
function costModelOf(id: string): CostModel {
  let m = COST_MODELS.get(id);
  if (m === undefined) {
    m = { tracker: trackerFor(id), baseCost: callCostFn(id), defaultCharge: undefined };
    if (COST_MODELS.size < 10000) COST_MODELS.set(id, m);
  }
  return m;
}

/** What the host call-cost model charges a call of `fn` by overload `id` ({@link CallCostShape}). */
function callCostShape(callCost: CallCostFn | undefined, fn: string, id: string): CallCostShape {
  if (callCost === undefined) return "default";
  return callCost.shape?.(fn, id) ?? "dynamic";
}

/** Plain field selection `operand.field` (charged like cel-go's qualifiers). */
function fieldSelect(operand: Interp, field: string, id: number): Interp {
  return (s) => {
    const v = operand(s);
    if (v instanceof CelMap) {
      if ((s.cost += 1) > s.limit) throw new CostExceeded();
      const r = v.getString(field);
      return r === undefined ? new CelError(`no such key: ${field}`, id) : r;
    }
    return selectOther(s, v, field, id);
  };
}

/** A comprehension variable's read ({@link Planner.planIdent}). */
function slotRead(slot: number, cost: number): Interp {
  return (s) => {
    if ((s.cost += cost) > s.limit) throw new CostExceeded();
    return s.slots[slot] as CelValue;
  };
}

/** A lazily initialized accumulator's read: its init is evaluated (and charged) on first use, as in cel-go. */
function lazySlotRead(slot: number, cost: number, lazyInit: Interp): Interp {
  return (s) => {
    if ((s.cost += cost) > s.limit) throw new CostExceeded();
    let v = s.slots[slot] as CelValue;
    if (v === UNINITIALIZED) {
      v = lazyInit(s);
      s.slots[slot] = v;
    }
    return v;
  };
}

/** A type name of a checked program: a constant unless the activation binds the name. */
function typeNameRead(refName: string, typeVal: CelValue, cost: number): Interp {
  return (s) => {
    const v = s.resolve(refName);
    if (v === undefined) return typeVal;
    s.add(cost);
    return v;
  };
}

/** A variable of the activation (or, unchecked, a type name it does not bind). */
function globalRead(refName: string, typeVal: CelValue | undefined, cost: number, id: number): Interp {
  return (s) => {
    s.add(cost);
    const v = s.resolve(refName);
    if (v !== undefined) return v;
    if (typeVal !== undefined) return typeVal;
    return new CelError(`no such attribute(s): ${refName}`, id);
  };
}

/** {@link fieldSelect} of comprehension variable `slot` (read at cost `rootCost`, as its ident would be). */
function slotFieldSelect(slot: number, rootCost: number, field: string, id: number): Interp {
  return (s) => {
    if ((s.cost += rootCost) > s.limit) throw new CostExceeded();
    const v = s.slots[slot] as CelValue;
    if (v instanceof CelMap) {
      if ((s.cost += 1) > s.limit) throw new CostExceeded();
      const r = v.getString(field);
      return r === undefined ? new CelError(`no such key: ${field}`, id) : r;
    }
    return selectOther(s, v, field, id);
  };
}

/** {@link fieldSelect} of an operand that is not a map. */
function selectOther(s: State, v: CelValue, field: string, id: number): CelValue {
  if (v instanceof CelSpecial) return v;
  if (v instanceof CelOptional) {
    // cel-go applies the remaining qualifiers "if present": anything unqualifiable is none
    if (v.value === undefined) return v;
    const r = selectField(v.value, field);
    if (r === undefined || r instanceof CelError) return CelOptional.NONE;
    s.add(1);
    return CelOptional.of(r);
  }
  s.add(1);
  const r = selectField(v, field);
  if (r === undefined) return new CelError(`no such key: ${field}`, id);
  return r;
}

/** The candidates of one call shape and their dispatcher, shared by all plans over one registry. */
interface Dispatch {
  readonly fn: string;
  readonly argc: number;
  readonly receiver: boolean;
  readonly cands: readonly OverloadImpl[];
  readonly entries: readonly Cand[];
  readonly nonStrict: boolean;
  /** Undefined when there are no candidates. */
  readonly pick: ((x: CelValue, y: CelValue) => Cand | undefined) | undefined;
}

/**
 * The overloads of `fn` for a call shape, narrowed to the checker's `ids` when any of them
 * exist, with their tag dispatcher. Memoized per registry: the dispatcher depends only on
 * the candidate list, so building it once per call shape keeps planning cheap.
 */
function dispatchFor(
  functions: FunctionRegistry,
  fn: string,
  argc: number,
  receiver: boolean,
  ids: readonly string[] | undefined,
): Dispatch {
  // the checker shares one overload-id array per cached resolution: try its identity first
  if (ids !== undefined && ids.length > 0) {
    const byIds = functions.derivedGetByObject(ids) as Dispatch | undefined;
    if (byIds !== undefined && byIds.fn === fn && byIds.argc === argc && byIds.receiver === receiver) return byIds;
  }
  const key =
    ids === undefined || ids.length === 0
      ? `${receiver ? "r" : "g"}${argc}:${fn}`
      : `${receiver ? "r" : "g"}${argc}:${fn}\u0000${ids.join("\u0000")}`;
  const hit = functions.derivedGet(key) as Dispatch | undefined;
  if (hit !== undefined) {
    if (ids !== undefined && ids.length > 0) functions.derivedSetByObject(ids, hit);
    return hit;
  }
  let cands = functions.lookup(fn, argc, receiver);
  if (ids && ids.length > 0) {
    const filtered = cands.filter((c) => ids.includes(c.id));
    if (filtered.length > 0) cands = filtered;
  }
  const entries: Cand[] = cands.map((ov) => ({ ov, impl: ov.impl as Impl }));
  const d: Dispatch = {
    fn,
    argc,
    receiver,
    cands,
    entries,
    nonStrict: cands.some((c) => c.nonStrict),
    pick: entries.length > 0 ? makeDispatcher(entries) : undefined,
  };
  functions.derivedSet(key, d);
  if (ids !== undefined && ids.length > 0) functions.derivedSetByObject(ids, d);
  return d;
}

/** Go type name of a cel-go value (as printed by `%T`) for error texts. */
function goTypeName(v: CelValue): string {
  switch (tagOf(v)) {
    case "int":
      return "types.Int";
    case "uint":
      return "types.Uint";
    case "double":
      return "types.Double";
    case "string":
      return "types.String";
    case "bool":
      return "types.Bool";
    case "bytes":
      return "types.Bytes";
    case "null":
      return "types.Null";
    case "duration":
      return "types.Duration";
    case "timestamp":
      return "types.Timestamp";
    case "type":
      return "*types.Type";
    case "optional":
      return "*types.Optional";
    default:
      return typeOf(v).name;
  }
}

/** cel-go trait required of the first argument by the standard functions' dynamic dispatch. */
const FN_TRAIT: Record<string, string> = {
  "_+_": "add",
  "_-_": "sub",
  "_*_": "mul",
  "_/_": "div",
  "_%_": "mod",
  "-_": "neg",
  "_<_": "cmp",
  "_<=_": "cmp",
  "_>_": "cmp",
  "_>=_": "cmp",
  size: "size",
  matches: "match",
};
/** cel-go traits of the runtime types (`recv`: receiver-style methods). */
const TYPE_TRAITS: Record<string, readonly string[]> = {
  int: ["add", "cmp", "div", "mod", "mul", "neg", "sub"],
  uint: ["add", "cmp", "div", "mod", "mul", "sub"],
  double: ["add", "cmp", "div", "mul", "neg", "sub"],
  string: ["add", "cmp", "match", "recv", "size"],
  bytes: ["add", "cmp", "size"],
  bool: ["cmp", "neg"],
  list: ["add", "size"],
  map: ["size"],
  timestamp: ["add", "cmp", "recv", "sub"],
  duration: ["add", "cmp", "neg", "recv", "sub"],
};
/** Standard functions with a singleton binding that rejects operands with a plain "no such overload". */
const PLAIN_NO_OVERLOAD = new Set(["!_", "@in", "contains", "startsWith", "endsWith", "_==_", "_!=_"]);

/**
 * cel-go's error when no overload accepts the arguments. Trait-dispatched operators (`_+_`, `size`,
 * `matches`, comparisons...) report `no such overload: <fn>` when the first argument lacks the
 * trait and `no such overload` otherwise; a few singleton bindings always say `no such overload`;
 * every other function (declared overloads: conversions, accessors, extensions) reports
 * `no such overload: <fn>(<arg types>)` (cel-go `decls.MaybeNoSuchOverload`).
 */
function noOverload(fn: string, args: readonly CelValue[], id: number): CelError {
  const first = args[0] ?? null;
  const trait = FN_TRAIT[fn];
  if (trait !== undefined) {
    const traits = TYPE_TRAITS[tagOf(first)] ?? [];
    if (!traits.includes(trait) && !traits.includes("recv")) return new CelError(`no such overload: ${fn}`, id);
    return new CelError(NO_OVERLOAD, id);
  }
  if (PLAIN_NO_OVERLOAD.has(fn)) return new CelError(NO_OVERLOAD, id);
  return new CelError(`no such overload: ${fn}(${args.map((a) => typeOf(a).name).join(", ")})`, id);
}

function qualifiedIdent(e: Expr): string | undefined {
  if (e.kind === "ident") return e.name;
  if (e.kind === "select" && !e.testOnly) {
    const q = qualifiedIdent(e.operand);
    return q === undefined ? undefined : `${q}.${e.field}`;
  }
  return undefined;
}

/** Plans an AST (or bare expression) into a reusable {@link Program}. Throws only on misuse. */
export function plan(ast: ParsedAst | Expr, opts: PlanOptions): Program {
  const expr = "sourceInfo" in ast ? ast.expr : ast;
  const p = new Planner(opts);
  const root = p.plan(expr);
  const nSlots = p.nSlots;
  // one reusable state per program; a re-entrant evaluation (a custom function evaluating the
  // same program) gets a fresh one
  let shared: State | undefined;
  return {
    eval(activation?: Activation, eo?: EvalOptions): EvalResult {
      shared ??= new State(nSlots);
      const s = shared.busy ? new State(nSlots) : shared;
      s.reset(activation, eo?.costLimit ?? Number.POSITIVE_INFINITY);
      s.busy = true;
      try {
        const value = root(s);
        return { value, cost: s.cost };
      } catch (err) {
        if (err instanceof CostExceeded) return { value: new CelError(COST_LIMIT_MESSAGE), cost: s.cost };
        if (err instanceof RangeError && /call stack/i.test(err.message))
          return { value: new CelError("max recursion depth exceeded"), cost: s.cost };
        // an extension function threw: report it as an evaluation error rather than crashing the host
        return { value: new CelError(err instanceof Error ? err.message : String(err)), cost: s.cost };
      } finally {
        s.busy = false;
        s.act = undefined;
      }
    },
  };
}

/** Convenience: CEL `==` exported for libraries. */
export const equals = celEquals;

/** A registry with no functions (for tests); use `standardFunctions()` in practice. */
export function emptyRegistry(): FunctionRegistry {
  return new FunctionRegistry();
}
