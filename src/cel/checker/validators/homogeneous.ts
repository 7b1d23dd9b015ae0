/**
 * cel-go's `ValidateHomogeneousAggregateLiterals`: list and map literals must have elements
 * (keys, values) of one type; literals inside exempt functions (e.g. `format`) are skipped.
 * @module
 */
import type { Expr } from "../../ast.js";
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

/** Validates list and map literals outside calls to `exemptFunctions`. */
export function validateHomogeneousAggregateLiterals(
  ctx: ValidationContext,
  exemptFunctions: readonly string[],
): void {
  if (!ctx.hasAggregateLiterals()) return;
  const mismatch = (id: number, expected: CelType, actual: CelType) =>
    ctx.report(id, `expected type '${formatType(expected)}' but found '${formatType(actual)}'`);
  const lists: Expr[] = [];
  const maps: Expr[] = [];
  const walk = (e: Expr, exempt: boolean) => {
    // iterative over wide trees is unnecessary: parser depth is bounded
    if (e.kind === "list" && !exempt) lists.push(e);
    if (e.kind === "map" && !exempt) maps.push(e);
    let childExempt = exempt;
    if (e.kind === "call") {
      const name = ctx.checked.references.get(e.id)?.name ?? e.function;
      if (exemptFunctions.includes(name)) childExempt = true;
    }
    switch (e.kind) {
      case "select":
        walk(e.operand, childExempt);
        break;
      case "call":
        if (e.target !== undefined) walk(e.target, childExempt);
        for (const a of e.args) walk(a, childExempt);
        break;
      case "list":
        for (const x of e.elements) walk(x, childExempt);
        break;
      case "map":
        for (const en of e.entries) {
          walk(en.key, childExempt);
          walk(en.value, childExempt);
        }
        break;
      case "struct":
        for (const f of e.fields) walk(f.value, childExempt);
        break;
      case "comprehension":
        walk(e.iterRange, childExempt);
        walk(e.accuInit, childExempt);
        walk(e.loopCondition, childExempt);
        walk(e.loopStep, childExempt);
        walk(e.result, childExempt);
        break;
      default:
        break;
    }
  };
  walk(ctx.ast.expr, false);
  for (const l of lists) {
    if (l.kind !== "list") continue;
    const opt = new Set(l.optionalIndices);
    let elemType: CelType | undefined;
    for (let i = 0; i < l.elements.length; i++) {
      const el = l.elements[i] as Expr;
      let et = ctx.typeOf(el.id);
      if (opt.has(i)) et = unwrapOptional(et);
      if (elemType === undefined) {
        elemType = et;
        continue;
      }
      if (!isEquivalent(elemType, et)) {
        mismatch(el.id, elemType, et);
        break;
      }
    }
  }
  for (const m of maps) {
    if (m.kind !== "map") continue;
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
      if (!isEquivalent(keyType, kt)) mismatch(en.key.id, keyType, kt);
      if (!isEquivalent(valType, vt)) mismatch(en.value.id, valType, vt);
    }
  }
}
