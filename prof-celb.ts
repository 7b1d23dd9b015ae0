import { Env } from "./src/cel/env.js";
import { parse } from "./src/cel/parser/parser.js";
import { check } from "./src/cel/checker/checker.js";
const env = new Env({ variables: { self: "map(string, dyn)" } });
const expr = "self.items.all(x, x.name.startsWith('a') && size(x.name) < 64)";
function time(name: string, f: () => void) { const t=performance.now(); const N=5000; for (let i=0;i<N;i++) f(); console.log(name, ((performance.now()-t)*1000/N).toFixed(1), "µs"); }
const p = parse(expr).ast!;
for (let r=0;r<3;r++){
time("parse", () => parse(expr));
time("check", () => check(p, env.decls));
time("compile", () => env.compile(expr));
}
