import { parse } from "./src/cel/parser/parser.js";
import { plan } from "./src/cel/interpreter/planner.js";
import { standardFunctions } from "./src/cel/stdlib-impl/index.js";
import { nativeToCel } from "./src/cel/values/native.js";
const f = standardFunctions();
const items = []; for (let i = 0; i < 100; i++) items.push({ name: `a${i}`, port: BigInt(8000 + i) });
const self = nativeToCel({ minReplicas: 1n, replicas: 3n, maxReplicas: 10n, name: "web-frontend-prod", labels: { app: "web", tier: "frontend", env: "prod" }, items });
const exprs = ["self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
"self.items.all(x, x.name.startsWith('a') && size(x.name) < 64)",
"self.name.startsWith('web') && self.name.contains('-') && self.name.indexOf('-') > 0 && self.name.lowerAscii() == self.name && self.name.endsWith('prod')",
"self.labels['app'] == 'web' && 'tier' in self.labels && self.labels.env != 'dev' && self.labels.tier == 'frontend'"];
function time(fn: () => void, ms = 300) { for (let i = 0; i < 1000; i++) fn(); let n = 0; const t0 = performance.now(); let t = t0; while (t - t0 < ms) { for (let i = 0; i < 100; i++) fn(); n += 100; t = performance.now(); } return ((t - t0) * 1000) / n; }
for (const e of exprs) {
  const p = parse(e).ast!;
  const prog = plan(p, { functions: f });
  const act = { self };
  console.log(e.slice(0, 40).padEnd(42), "parse", time(() => parse(e)).toFixed(2), "µs  plan", time(() => plan(p, { functions: f })).toFixed(2), "µs  eval", time(() => prog.eval(act)).toFixed(3), "µs");
}
import { Env, isCompileFailure } from "./src/cel/env.js";
const env = new Env({ variables: { self: "map(string, dyn)" } });
for (const e of exprs) {
  const c = env.compile(e); if (isCompileFailure(c)) throw new Error(c.issues);
  const prog = env.program(c);
  const act = { self };
  console.log("checked", e.slice(0, 30).padEnd(32), "compile", time(() => env.compile(e), 200).toFixed(1), "µs eval", time(() => prog.eval(act)).toFixed(3), "µs", [...c.checked.references.entries()].slice(0,3).map(([k,v])=>JSON.stringify(v)).join(" "));
}
