/**
 * Finds crdkit's entry points by their exported names, so the golden harness keeps working while the
 * modules are written: `compileCrd` (src/pipeline), `validateCrdCreate` / `validateCrdUpdate`
 * (src/crdvalidation) and, when present, a NonStructuralSchema condition helper. A missing export is
 * reported as a clear reason instead of a crash.
 */
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { FieldError } from "../../../src/errors/field-error.js";
import type { CompiledCrd } from "../../../src/pipeline/types.js";
import type { JsonObject } from "../../../src/value/json-value.js";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

export interface CrdCheckResult {
  errors: FieldError[];
  warnings: string[];
}

export interface CrdkitApi {
  compileCrd?: (crd: JsonObject) => unknown;
  /** Optional non-throwing variant: `{ok: true, compiled}` or `{ok: false, message, errors}`. */
  tryCompileCrd?: (crd: JsonObject) => unknown;
  validateCrdCreate?: (crd: JsonObject) => CrdCheckResult;
  validateCrdUpdate?: (crd: JsonObject, old: JsonObject) => CrdCheckResult;
  /** Optional: `(crd) => {reason, message} | null`, compared when exported. */
  nonStructuralCondition?: (crd: JsonObject) => { reason: string; message: string } | null | undefined;
  /** Why an entry point is missing (module path + export name). */
  missing: Record<string, string>;
}

type AnyFn = (...args: never[]) => unknown;

async function exportsOf(folder: string): Promise<{ exports: Record<string, unknown>; problems: string[] }> {
  const dir = join(repoRoot, "src", folder);
  const out: Record<string, unknown> = {};
  const problems: string[] = [];
  if (!existsSync(dir)) return { exports: out, problems: [`src/${folder}/ does not exist`] };
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith(".d.ts"))
    .sort((a, b) => (a === "index.ts" ? -1 : b === "index.ts" ? 1 : a.localeCompare(b)));
  for (const f of files) {
    try {
      const mod = (await import(pathToFileURL(join(dir, f)).href)) as Record<string, unknown>;
      for (const [k, v] of Object.entries(mod)) if (!(k in out)) out[k] = v;
    } catch (e) {
      problems.push(`src/${folder}/${f} failed to load: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}`);
    }
  }
  return { exports: out, problems };
}

function pick<T extends AnyFn>(
  exps: Record<string, unknown>,
  names: readonly string[],
  folder: string,
  problems: string[],
  missing: Record<string, string>,
  key: string,
): T | undefined {
  for (const n of names) {
    const v = exps[n];
    if (typeof v === "function") return v as T;
  }
  missing[key] =
    `crdkit: no export ${names.join(" / ")} in src/${folder}/` + (problems.length > 0 ? ` (${problems.join("; ")})` : "");
  return undefined;
}

let cached: Promise<CrdkitApi> | undefined;

/** Loads crdkit's entry points once. */
export function loadCrdkit(): Promise<CrdkitApi> {
  cached ??= (async () => {
    const missing: Record<string, string> = {};
    const pipe = await exportsOf("pipeline");
    const crdv = await exportsOf("crdvalidation");
    const api: CrdkitApi = { missing };
    api.compileCrd = pick(pipe.exports, ["compileCrd"], "pipeline", pipe.problems, missing, "compileCrd");
    api.tryCompileCrd = pick(pipe.exports, ["tryCompileCrd"], "pipeline", pipe.problems, {}, "tryCompileCrd");
    api.validateCrdCreate = pick(
      crdv.exports,
      ["validateCrdCreate"],
      "crdvalidation",
      crdv.problems,
      missing,
      "validateCrdCreate",
    );
    api.validateCrdUpdate = pick(
      crdv.exports,
      ["validateCrdUpdate"],
      "crdvalidation",
      crdv.problems,
      missing,
      "validateCrdUpdate",
    );
    // CRD checks run with the options that make them complete (default-value checks, CEL compilation and
    // costs), as the pipeline, `crdkit check` and `crdkit serve` use them.
    const hooks = await exportsOf("pipeline");
    const options = hooks.exports["crdValidationOptions"];
    if (options !== undefined) {
      const create = api.validateCrdCreate as ((crd: JsonObject, o?: unknown) => CrdCheckResult) | undefined;
      const update = api.validateCrdUpdate as ((crd: JsonObject, old: JsonObject, o?: unknown) => CrdCheckResult) | undefined;
      if (create) api.validateCrdCreate = (crd) => create(crd, options);
      if (update) api.validateCrdUpdate = (crd, old) => update(crd, old, options);
    }
    const ns = ["nonStructuralSchemaCondition", "nonStructuralCondition", "calculateNonStructuralCondition"];
    const scratch: Record<string, string> = {};
    api.nonStructuralCondition = pick(crdv.exports, ns, "crdvalidation", crdv.problems, scratch, "ns");
    return api;
  })();
  return cached;
}

/** The result of compileCrd: a CompiledCrd, or the CRD's errors. */
export type CompileOutcome =
  | { ok: true; compiled: CompiledCrd }
  | { ok: false; errors: FieldError[] | null; messages?: string[]; message: string };

function isCompiled(v: unknown): v is CompiledCrd {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as CompiledCrd).create === "function" &&
    typeof (v as CompiledCrd).update === "function"
  );
}

function fieldErrorsOf(v: unknown): FieldError[] | null {
  if (typeof v !== "object" || v === null) return null;
  for (const k of ["errors", "fieldErrors", "causes"]) {
    const e = (v as Record<string, unknown>)[k];
    if (Array.isArray(e) && e.every((x) => typeof x === "object" && x !== null && "type" in x && "field" in x)) {
      return e as FieldError[];
    }
  }
  return null;
}

/** Calls compileCrd and normalises its three possible shapes (value, `{errors}`, throw). */
export function compileWith(api: CrdkitApi, crd: JsonObject): CompileOutcome {
  if (api.tryCompileCrd) {
    try {
      const r = api.tryCompileCrd(crd);
      if (typeof r === "object" && r !== null) {
        const o = r as Record<string, unknown>;
        if (o["ok"] === true && isCompiled(o["compiled"])) return { ok: true, compiled: o["compiled"] };
        if (o["ok"] === false) {
          const errs = o["errors"];
          const messages = Array.isArray(errs) && errs.every((x) => typeof x === "string") ? (errs as string[]) : undefined;
          return { ok: false, errors: fieldErrorsOf(o), ...(messages ? { messages } : {}), message: String(o["message"] ?? "CRD rejected") };
        }
      }
    } catch (e) {
      return { ok: false, errors: fieldErrorsOf(e), message: e instanceof Error ? e.message : String(e) };
    }
  }
  if (!api.compileCrd) return { ok: false, errors: null, message: api.missing["compileCrd"] ?? "no compileCrd" };
  try {
    const r = api.compileCrd(crd);
    if (isCompiled(r)) return { ok: true, compiled: r };
    const inner = typeof r === "object" && r !== null ? (r as Record<string, unknown>) : {};
    for (const k of ["compiled", "crd", "value", "result"]) if (isCompiled(inner[k])) return { ok: true, compiled: inner[k] };
    return { ok: false, errors: fieldErrorsOf(r), message: "compileCrd returned no CompiledCrd" };
  } catch (e) {
    return { ok: false, errors: fieldErrorsOf(e), message: e instanceof Error ? e.message : String(e) };
  }
}
