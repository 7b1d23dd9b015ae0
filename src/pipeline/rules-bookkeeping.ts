/**
 * x-kubernetes-validations bookkeeping: how many rules a schema has, and the warning given when the CEL
 * engine cannot evaluate them — never a claim that they passed.
 */
import type { NestedValueValidation, Structural, ValueValidation } from "../structural/structural.js";
import { CLAUSE_RULES, XVALIDATIONS, subtreeFacts } from "../structural/subtree-facts.js";

function nestedHasRules(n: NestedValueValidation | undefined): boolean {
  if (!n) return false;
  if (n.xValidations && n.xValidations.length > 0) return true;
  if (vvHasRules(n.valueValidation)) return true;
  if (nestedHasRules(n.items) || nestedHasRules(n.additionalProperties)) return true;
  if (n.properties) for (const p of n.properties.values()) if (nestedHasRules(p)) return true;
  return false;
}

function vvHasRules(v: ValueValidation | undefined): boolean {
  if (!v) return false;
  for (const list of [v.allOf, v.anyOf, v.oneOf]) if (list?.some(nestedHasRules)) return true;
  return nestedHasRules(v.not);
}

/** Number of x-kubernetes-validations rules anywhere in the schema. */
export function countRules(s: Structural | undefined): number {
  if (!s) return 0;
  // most schemas have no rule: the shared subtree facts say so without a walk of their own
  if ((subtreeFacts(s) & (XVALIDATIONS | CLAUSE_RULES)) === 0) return 0;
  let n = 0;
  const stack: Structural[] = [s];
  // only into subtrees with rules (the facts of every node are known once the root's are)
  const push = (c: Structural | undefined) => {
    if (c !== undefined && (subtreeFacts(c) & (XVALIDATIONS | CLAUSE_RULES)) !== 0) stack.push(c);
  };
  while (stack.length > 0) {
    const x = stack.pop()!;
    n += x.xValidations?.length ?? 0;
    if (vvHasRules(x.valueValidation)) n++;
    push(x.items);
    push(x.additionalProperties?.schema);
    if (x.properties) for (const p of x.properties.values()) push(p);
  }
  return n;
}

/** The warning added to results whose rules could not be evaluated (`reason`: the CEL engine's error). */
export function rulesNotEvaluatedWarning(count: number, reason: string): string {
  return `${count} x-kubernetes-validations rule${count === 1 ? " was" : "s were"} not evaluated (the CEL engine failed: ${reason}); they were neither checked nor assumed to pass`;
}
