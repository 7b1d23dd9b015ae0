import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { join } from "node:path";
import { decodeDocuments } from "./src/io/decode.js";
import { validateCrdCreate } from "./src/crdvalidation/validate-crd.js";
import { crdCelCompiler } from "./src/rules/compile.js";
import { defaultsHooks } from "./src/pipeline/crd-hooks.js";
import { errorString } from "./src/errors/field-error.js";
const root = "/work/shared/corpus";
function files(dir: string): string[] { if (!existsSync(dir)) return []; const out: string[] = []; for (const n of readdirSync(dir).sort()) { const p = join(dir, n); if (statSync(p).isDirectory()) out.push(...files(p)); else out.push(p); } return out; }
let ok = 0, bad = 0, crash = 0; const t0 = performance.now();
for (const p of readdirSync(root)) for (const f of files(join(root, p, "crds"))) for (const d of decodeDocuments(readFileSync(f, "utf8"))) {
  if ((d.value as any)?.kind !== "CustomResourceDefinition") continue;
  try { const r = validateCrdCreate(d.value!, { defaultsHooks, celCompiler: crdCelCompiler }); if (r.errors.length || r.decodeError) { bad++; console.log(f, (r.decodeError ?? errorString(r.errors[0]!)).slice(0, 300)); } else ok++; }
  catch (e) { crash++; console.log("CRASH", f, (e as Error).message.slice(0, 200)); }
}
console.log({ ok, bad, crash, ms: performance.now() - t0 });
