/**
 * The two CEL engines as the instruction and allocation probes drive them (cold-instructions.mjs,
 * warm-alloc.mjs): crdkit's environments loaded from ROOT's `dist/` (with and without Kubernetes' AST
 * validators) and @marcbachmann/cel-js, with `self` / `oldSelf` as dyn in both, and one compile pass per
 * mode over a list of expressions.
 * @module
 */
import { join } from "node:path";

/** Loads crdkit from `root` (a checkout with `dist/` built) and cel-js; builds crdkit's runtime registry. */
export async function loadCelEngines(root) {
  const dist = (p) => import(join(root, "dist", p));
  const { Env, isCompileFailure } = await dist("cel/env.js");
  const { parse } = await dist("cel/parser/parser.js");
  const { KUBE_OPAQUE_TYPES, kubeLibraryFunctions } = await dist("rules/library/functions.js");
  const { Environment } = await import("@marcbachmann/cel-js");
  const options = { opaqueTypes: KUBE_OPAQUE_TYPES, functions: kubeLibraryFunctions(), variables: { self: "dyn", oldSelf: "dyn" } };
  const full = new Env({ ...options, extendedValidations: true });
  const bare = new Env(options);
  const marc = new Environment({ unlistedVariablesAreDyn: true });
  full.functions();
  return { dist, isCompileFailure, parse, full, bare, marc };
}

/**
 * One pass over `list` per mode, each answering how many expressions it compiled: `none` (nothing),
 * `parse` (parser alone), `check` (parse + type-check, no AST validators), `compile` (with the validators),
 * `program` (compile + program: since session 32 a program is planned on its first evaluation, so this is
 * compile + the instantiation check; up to b32e414 it included the plan), `first-eval` (compile + program + one evaluation without variables:
 * includes the plan in every build; `self` is absent, so the evaluation itself stops at its first read),
 * `cel-js` (cel-js parse + check), `cel-js-eval` (cel-js parse + check + one evaluation without variables;
 * cel-js throws an `Error` for the absent variable, which dominates: not a like-for-like row).
 */
export function celPasses({ isCompileFailure, parse, full, bare, marc }, list) {
  const parseOptions = full.parseOptions;
  return {
    none: () => 0,
    parse: () => list.filter((r) => parse(r, parseOptions).ast !== undefined).length,
    check: () => list.filter((r) => !isCompileFailure(bare.compile(r))).length,
    compile: () => list.filter((r) => !isCompileFailure(full.compile(r))).length,
    program: () =>
      list.filter((r) => {
        const c = full.compile(r);
        if (isCompileFailure(c)) return false;
        full.program(c);
        return true;
      }).length,
    "first-eval": () =>
      list.filter((r) => {
        const c = full.compile(r);
        if (isCompileFailure(c)) return false;
        full.program(c).eval({});
        return true;
      }).length,
    "cel-js": () => list.filter((r) => marc.parse(r).check().valid === true).length,
    "cel-js-eval": () =>
      list.filter((r) => {
        const e = marc.parse(r);
        if (e.check().valid !== true) return false;
        try {
          e({});
        } catch {
          // an absent variable: cel-js throws
        }
        return true;
      }).length,
  };
}
