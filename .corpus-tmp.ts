import { runValidate } from "./src/cli/run-validate.js";
import { summarize } from "./src/cli/results.js";
import { existsSync, readdirSync } from "node:fs";
const root = "/work/shared/corpus";
const tot = { resources: 0, valid: 0, invalid: 0, skipped: 0 };
const t0 = performance.now();
const firstMsgs = new Map<string, number>();
for (const p of readdirSync(root).sort()) {
  if (!existsSync(`${root}/${p}/crds`)) continue;
  const inputs = ["examples", "invalid-examples", "cel-tests"].map(d => `${root}/${p}/${d}`).filter(existsSync);
  const t1 = performance.now();
  let res;
  try { res = runValidate({ crds: [`${root}/${p}/crds`], old: [], inputs, fieldValidation: "Strict", showObject: false }); }
  catch (e) { console.log(p, "CRASH", (e as Error).stack?.slice(0, 600)); continue; }
  const s = summarize(res.filter(r => r.kind !== "CustomResourceDefinition"));
  for (const k of Object.keys(tot) as (keyof typeof tot)[]) tot[k] += s[k];
  const crdBad = res.filter(r => r.kind === "CustomResourceDefinition" && !r.valid);
  console.log(p, JSON.stringify(s), "crdInvalid", crdBad.length, crdBad.slice(0,2).map(r => r.errors[0]?.message.slice(0, 200)), Math.round(performance.now() - t1), "ms");
  for (const r of res) if (r.status === "invalid") { const m = (r.errors[0]?.message ?? "").replace(/"[^"]*"/g, '"…"').slice(0, 120); firstMsgs.set(m, (firstMsgs.get(m) ?? 0) + 1); }
  for (const r of res) if (r.status === "skipped") { const m = "SKIP " + (r.reason ?? ""); firstMsgs.set(m.slice(0,100), (firstMsgs.get(m.slice(0,100)) ?? 0) + 1); }
}
console.log("TOTAL", JSON.stringify(tot), Math.round(performance.now() - t0), "ms");
console.log([...firstMsgs.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40).map(([m, n]) => `${n}\t${m}`).join("\n"));
