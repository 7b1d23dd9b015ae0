import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import { CrdRegistry } from "./src/cli/registry.js";
import { decodeDocuments } from "./src/io/decode.js";
import { tryCompileCrd } from "./src/pipeline/compile.js";
import { validateRules } from "./src/rules/validate.js";
import { errorString } from "./src/errors/field-error.js";
import { getKey, isObject } from "./src/value/json-value.js";
const root = "/work/shared/corpus";
function files(dir: string): string[] { if (!existsSync(dir)) return []; const out: string[] = []; for (const n of readdirSync(dir).sort()) { const p = join(dir, n); if (statSync(p).isDirectory()) out.push(...files(p)); else out.push(p); } return out; }
let n = 0, errs = 0, crash = 0, warns = 0; const crashMsgs = new Map<string, number>(); let ms = 0;
for (const p of readdirSync(root)) {
  const registry = new CrdRegistry();
  for (const f of files(join(root, p, "crds"))) for (const d of decodeDocuments(readFileSync(f, "utf8"))) if (isObject(d.value) && d.value["kind"] === "CustomResourceDefinition") { const r = tryCompileCrd(d.value); if (r.ok) registry.add(r.compiled); }
  for (const dir of ["examples", "invalid-examples", "cel-tests"]) for (const f of files(join(root, p, dir))) for (const d of decodeDocuments(readFileSync(f, "utf8"))) {
    if (!isObject(d.value)) continue; const av = getKey(d.value, "apiVersion"); if (typeof av !== "string") continue;
    const crd = registry.lookup(av, getKey(d.value, "kind") as string); const ver = av.slice(av.indexOf("/") + 1);
    const v = crd?.ctx.versions.get(ver); if (!v?.structural || v.ruleCount === 0) continue;
    const res = crd!.create(d.value, { version: ver });
    if (!res.object) continue;
    n++; const t0 = performance.now();
    try { const r = validateRules(v.structural, res.object); errs += r.errors.length; warns += r.warnings.length; if (r.errors.length && dir !== "examples") {} else if (r.errors.length) console.log("ERR", f, errorString(r.errors[0]!).slice(0, 200)); }
    catch (e) { crash++; const m = (e as Error).message.slice(0, 120); crashMsgs.set(m, (crashMsgs.get(m) ?? 0) + 1); }
    ms += performance.now() - t0;
  }
}
console.log({ n, errs, warns, crash, ms: Math.round(ms) }); console.log([...crashMsgs.entries()].slice(0, 10));
