/**
 * cel-go's `ValidateHomogeneousAggregateLiterals`: list and map literals must have elements
 * (keys, values) of one type; literals inside exempt functions (e.g. `format`) are skipped.
 * @module
 */
import type { Expr, ListExpr, MapExpr } from "../../ast.js";
import { type CelType, formatType, isOptionalType } from "../../types/types.js";
import type { ValidationContext } from "./validator.js";

/** cel-go `Type.IsEquivalentType` (type-parameter names are not compared). */
function isEquivalent(a: CelType, b: CelType): boolean {
  if (a.kind !== b.kind || a.params.length !== b.params.length) return false;
  if (a.kind !== "type_param" && a.name !== b.name) return false;
  for (let i = 0; i < a.params.length; i++) {
    if (!isEquivalent(a.params[i] as CelType, b.params[i] as CelType)) return false;
  }
  return true;
}

function unwrapOptional(t: CelType): CelType {
  return isOptionalType(t) ? (t.params[0] as CelType) : t;
}

/** Collects list and map literals (pre-order) outside calls to exempt functions. */
class LiteralCollector {
  readonly lists: ListExpr[] = [];
  readonly maps: MapExpr[] = [];
  constructor(
    private readonly ctx: ValidationContext,
    private readonly exemptFunctions: readonly string[],
  ) {}

  // recursion is fine: parser depth is bounded
  walk(e: Expr, exempt: boolean): void {
    let childExempt = exempt;
    switch (e.kind) {
      case "select":
        this.walk(e.operand, childExempt);
        break;
      case "call": {
        const name = this.ctx.checked.referenceOf(e.id)?.name ?? e.function;
        if (this.exemptFunctions.includes(name)) childExempt = true;
        if (e.target !== undefined) this.walk(e.target, childExempt);
        for (const a of e.args) this.walk(a, childExempt);
        break;
      }
      case "list":
        if (!exempt) this.lists.push(e);
        for (const x of e.elements) this.walk(x, childExempt);
        break;
      case "map":
        if (!exempt) this.maps.push(e);
        for (const en of e.entries) {
          this.walk(en.key, childExempt);
          this.walk(en.value, childExempt);
        }
        break;
      case "struct":
        for (const f of e.fields) this.walk(f.value, childExempt);
        break;
      case "comprehension":
        this.walk(e.iterRange, childExempt);
        this.walk(e.accuInit, childExempt);
        this.walk(e.loopCondition, childExempt);
        this.walk(e.loopStep, childExempt);
        this.walk(e.result, childExempt);
        break;
      default:
        break;
    }
  }
}

function mismatch(ctx: ValidationContext, id: number, expected: CelType, actual: CelType): void {
  ctx.report(id, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
}

/** Validates list and map literals outside calls to `exemptFunctions`. */
export function validateHomogeneousAggregateLiterals(
  ctx: ValidationContext,
  exemptFunctions: readonly string[],
): void {
  if (!ctx.hasAggregateLiterals()) return;
  const collector = new LiteralCollector(ctx, exemptFunctions);
  collector.walk(ctx.ast.expr, false);
  for (const l of collector.lists) {
    const opt = l.optionalIndices.length > 0 ? new Set(l.optionalIndices) : undefined;
    let elemType: CelType | undefined;
    for (let i = 0; i < l.elements.length; i++) {
      const el = l.elements[i] as Expr;
      let et = ctx.typeOf(el.id);
      if (opt?.has(i) === true) et = unwrapOptional(et);
      if (elemType === undefined) {
        elemType = et;
        continue;
      }
      if (!isEquivalent(elemType, et)) {
        mismatch(ctx, el.id, elemType, et);
        break;
      }
    }
  }
  for (const m of collector.maps) {
    let keyType: CelType | undefined;
    let valType: CelType | undefined;
    for (const en of m.entries) {
      const kt = ctx.typeOf(en.key.id);
      let vt = ctx.typeOf(en.value.id);
      if (en.optional) vt = unwrapOptional(vt);
      if (keyType === undefined || valType === undefined) {
        keyType = kt;
        valType = vt;
        continue;
      }
      if (!isEquivalent(keyType, kt)) mismatch(ctx, en.key.id, keyType, kt);
      if (!isEquivalent(valType, vt)) mismatch(ctx, en.value.id, valType, vt);
    }
  }
}
