import { parse } from "./src/cel/parser/parser.js";
import { plan } from "./src/cel/interpreter/planner.js";
import { standardFunctions } from "./src/cel/stdlib-impl/index.js";
import { Environment } from "@marcbachmann/cel-js";
const f = standardFunctions();
function rate(fn: () => void, ms = 80) { let n = 0; const t0 = performance.now(); let t = t0; while (t - t0 < ms) { for (let i = 0; i < 20; i++) fn(); n += 20; t = performance.now(); } return n / (t - t0) * 1000; }
const menv = new Environment({ unlistedVariablesAreDyn: true });
for (const e of ["true", "x", "x.a", "x.a < 3", "'abc'.startsWith('a')", "x.s == 'abc'"]) {
  const p = plan(parse(e).ast!, { functions: f });
  const { HashCelMap } = await import("./src/cel/values/values.js");
  const m = new HashCelMap(); m.set("a", 1n); m.set("s", "abc");
  const act = { x: m };
  const mm = menv.parse(e); const ctx = { x: { a: 1n, s: "abc" } };
  let b1 = 0, b2 = 0;
  for (let r = 0; r < 6; r++) { b1 = Math.max(b1, rate(() => p.eval(act))); b2 = Math.max(b2, rate(() => mm(ctx))); }
  console.log(e.padEnd(25), `ours ${(b1 / 1e6).toFixed(2)}M/s marc ${(b2 / 1e6).toFixed(2)}M/s`);
}
