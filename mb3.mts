import { Environment } from "@marcbachmann/cel-js";
import { parse } from "./src/cel/parser/parser.js";
import { plan } from "./src/cel/interpreter/planner.js";
import { standardFunctions } from "./src/cel/stdlib-impl/index.js";
import { nativeToCel } from "./src/cel/values/native.js";
import { Env, isCompileFailure } from "./src/cel/env.js";
const f = standardFunctions();
const items: any[] = []; for (let i = 0; i < 100; i++) items.push({ name: `a${i}`, port: BigInt(8000 + i) });
const raw = { minReplicas: 1n, replicas: 3n, maxReplicas: 10n, name: "web-frontend-prod", labels: { app: "web", tier: "frontend", env: "prod" }, items };
const self = nativeToCel(raw);
const exprs = ["self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
"self.items.all(x, x.name.startsWith('a') && size(x.name) < 64)",
"self.name.startsWith('web') && self.name.contains('-') && self.name.indexOf('-') > 0 && self.name.lowerAscii() == self.name && self.name.endsWith('prod')",
"self.labels['app'] == 'web' && 'tier' in self.labels && self.labels.env != 'dev' && self.labels.tier == 'frontend'"];
const env = new Env({ variables: { self: "map(string, dyn)" } });
const menv = new Environment({ unlistedVariablesAreDyn: true });
function rate(fn: () => void, ms = 60) { let n = 0; const t0 = performance.now(); let t = t0; while (t - t0 < ms) { for (let i = 0; i < 20; i++) fn(); n += 20; t = performance.now(); } return n / (t - t0) * 1000; }
for (const e of exprs) {
  const p1 = plan(parse(e).ast!, { functions: f }); const a1 = { self };
  const c = env.compile(e); if (isCompileFailure(c)) throw 1; const p2 = env.program(c);
  const m = menv.parse(e); m.check(); const ctx = { self: raw };
  const fns: [string, () => void][] = [["unchecked", () => p1.eval(a1)], ["checked", () => p2.eval(a1)], ["marc", () => m(ctx)]];
  for (const [, fn] of fns) for (let i = 0; i < 3000; i++) fn();
  const best = new Map<string, number>();
  for (let round = 0; round < 8; round++) for (const [name, fn] of fns) best.set(name, Math.max(best.get(name) ?? 0, rate(fn)));
  console.log(e.slice(0, 40).padEnd(42), [...best].map(([k, v]) => `${k} ${(v / 1000).toFixed(0)}k/s`).join("  "));
}
