/**
 * Test-only wiring of src/rules into the CRD checks and the request pipeline, exactly as the lead is asked
 * to wire it (see the report): the CEL compiler and default-rule hook for CRD validation. (The request
 * pipeline already runs the CEL step itself.)
 */
import { validateCrdCreate, validateCrdUpdate } from "../crdvalidation/validate-crd.js";
import { tryCompileCrd } from "../pipeline/compile.js";
import { defaultsHooks } from "../pipeline/crd-hooks.js";
import type { JsonObject, JsonValue } from "../value/json-value.js";
import { crdCelCompiler } from "./compile.js";
import { validateDefaultRules } from "./validate.js";

const hooks = { ...defaultsHooks, validateCel: validateDefaultRules };

/** CRD validation with CEL. */
export function checkCrd(crd: JsonValue, old?: JsonValue): ReturnType<typeof validateCrdCreate> {
  const opts = { defaultsHooks: hooks, celCompiler: crdCelCompiler };
  return old === undefined ? validateCrdCreate(crd, opts) : validateCrdUpdate(crd, old, opts);
}

/** `tryCompileCrd` after the CRD checks with CEL (the pipeline itself already runs the CEL step of requests). */
export function tryCompileCrdWithCel(crd: JsonObject): unknown {
  const checked = checkCrd(crd);
  if (checked.errors.length > 0) return { ok: false, message: "invalid CRD", errors: checked.errors };
  return tryCompileCrd(crd);
}
