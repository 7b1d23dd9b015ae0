import { loadConformanceTests, skipReason } from "./test/cel-conformance/suite.js";
import { runTest } from "./test/cel-conformance/run.js";
const tests = loadConformanceTests();
const per = new Map<string, number[]>();
const fails: string[] = [];
for (const t of tests) {
  const s = per.get(t.section) ?? [0, 0, 0, 0]; per.set(t.section, s);
  if (skipReason(t)) { s[2]++; continue; }
  const r = runTest(t);
  if (r.pass) s[0]++; else if (r.detail === "no evaluator yet") s[3]++; else { s[1]++; fails.push(`${t.path}: ${t.original.expr}\n  ${r.detail}`); }
}
console.log([...per].map(([k, v]) => `${k}: pass ${v[0]} fail ${v[1]} skip ${v[2]} checkok-noeval ${v[3]}`).join("\n"));
console.log(fails.slice(0, 400).join("\n"));
