/**
 * CEL engine benchmark: compile time (alone, and with the first evaluation: crdkit plans a program when it is
 * first evaluated) and evaluations/second of crdkit's CEL engine against
 * `@marcbachmann/cel-js` and `@bufbuild/cel`, measured in the same run on the same data, with
 * ratios (crdkit speed / other speed; > 1 means crdkit is faster).
 *
 * Run: `node --import tsx bench/cel/cel.bench.ts` (`--quick` for shorter slices).
 * @module
 */
import { celEnv, parse as bufParse, plan as bufPlan } from "@bufbuild/cel";
import { strings as bufStrings } from "@bufbuild/cel/ext";
import { Environment } from "@marcbachmann/cel-js";
import { Env, isCompileFailure } from "../../src/cel/env.js";
import { type CelValue, HashCelMap } from "../../src/cel/values/values.js";

interface Case {
  readonly name: string;
  readonly expr: string;
}

const CASES: readonly Case[] = [
  { name: "simple comparison", expr: "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas" },
  { name: "100-element all()", expr: "self.items.all(x, x.name.startsWith('a') && size(x.name) < 64)" },
  {
    name: "string functions",
    expr: "self.name.startsWith('web') && self.name.contains('-') && self.name.indexOf('-') > 0 && self.name.lowerAscii() == self.name && self.name.endsWith('prod')",
  },
  { name: "map lookups", expr: "self.labels['app'] == 'web' && 'tier' in self.labels && self.labels.env != 'dev' && self.labels.tier == 'frontend'" },
];

/** The same `self` object in plain JSON-like form (ints as bigint). */
function makeSelf(): Record<string, unknown> {
  const items = [];
  for (let i = 0; i < 100; i++) items.push({ name: `a${i}`, port: BigInt(8000 + i) });
  return {
    minReplicas: 1n,
    replicas: 3n,
    maxReplicas: 10n,
    name: "web-frontend-prod",
    labels: { app: "web", tier: "frontend", env: "prod" },
    items,
  };
}

function toCel(v: unknown): CelValue {
  if (Array.isArray(v)) return v.map(toCel);
  if (v !== null && typeof v === "object") {
    const m = new HashCelMap();
    for (const [k, x] of Object.entries(v)) m.set(k, toCel(x));
    return m;
  }
  return v as CelValue;
}

type Evaluator = () => unknown;

interface Engine {
  readonly name: string;
  /** Compiles `expr`, returning an evaluator bound to the data. */
  compile(expr: string): Evaluator;
}

function crdkitEngine(self: Record<string, unknown>): Engine {
  const env = new Env({ variables: { self: "map(string, dyn)" } });
  const activation = { self: toCel(self) };
  return {
    name: "crdkit",
    compile(expr) {
      const c = env.compile(expr);
      if (isCompileFailure(c)) throw new Error(c.issues);
      const prog = env.program(c);
      return () => prog.eval(activation).value;
    },
  };
}

function marcEngine(self: Record<string, unknown>): Engine {
  const env = new Environment({ unlistedVariablesAreDyn: true });
  const ctx = { self };
  return {
    name: "marc",
    compile(expr) {
      const f = env.parse(expr);
      const r = f.check();
      if (!r.valid) throw new Error(String(r.error));
      return () => f(ctx);
    },
  };
}

function bufEngine(self: Record<string, unknown>): Engine {
  const env = celEnv({ funcs: bufStrings });
  const ctx = { self };
  return {
    name: "buf",
    compile(expr) {
      const p = bufPlan(env, bufParse(expr));
      return () => p(ctx as never);
    },
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/**
 * Microseconds per compile (median of slices); with `first`, per compile and first evaluation (crdkit plans
 * a program on its first evaluation, cel-js and @bufbuild/cel do first-use work there too).
 */
function timeCompile(engine: Engine, expr: string, sliceMs: number, first = false): number {
  const per: number[] = [];
  for (let slice = 0; slice < 5; slice++) {
    let n = 0;
    const start = performance.now();
    let now = start;
    while (now - start < sliceMs) {
      const fn = engine.compile(expr);
      if (first) fn();
      n++;
      now = performance.now();
    }
    per.push(((now - start) * 1000) / n);
  }
  return median(per);
}

/** Evaluations per second (median of slices). */
function timeEval(fn: Evaluator, sliceMs: number): number {
  const rates: number[] = [];
  for (let slice = 0; slice < 5; slice++) {
    let n = 0;
    const start = performance.now();
    let now = start;
    while (now - start < sliceMs) {
      for (let i = 0; i < 50; i++) fn();
      n += 50;
      now = performance.now();
    }
    rates.push((n * 1000) / (now - start));
  }
  return median(rates);
}

function fmt(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(1);
}

function main(): void {
  const quick = process.argv.includes("--quick");
  const sliceMs = quick ? 40 : 150;
  const self = makeSelf();
  const engines = [crdkitEngine(self), marcEngine(self), bufEngine(self)];
  // Warm every engine up on every case first so that no case pays for JIT compilation.
  for (const e of engines) {
    for (const c of CASES) {
      const fn = e.compile(c.expr);
      for (let i = 0; i < 500; i++) e.compile(c.expr);
      for (let i = 0; i < 3000; i++) fn();
    }
  }
  let evalFaster = true;
  let compileFaster = true;
  for (const c of CASES) {
    console.log(`\n${c.name}: ${c.expr}`);
    const results = engines.map((e) => {
      const fn = e.compile(c.expr);
      const value = fn();
      return {
        engine: e.name,
        value,
        compileUs: timeCompile(e, c.expr, sliceMs / 3),
        firstUs: timeCompile(e, c.expr, sliceMs / 3, true),
        evalsPerSec: timeEval(fn, sliceMs),
      };
    });
    const mine = results[0];
    if (mine === undefined) continue;
    for (const r of results) {
      const ratio =
        r === mine
          ? ""
          : `  eval ratio ${(mine.evalsPerSec / r.evalsPerSec).toFixed(2)}x, compile ratio ${(r.compileUs / mine.compileUs).toFixed(2)}x, +first eval ${(r.firstUs / mine.firstUs).toFixed(2)}x`;
      console.log(
        `  ${r.engine.padEnd(7)} result=${String(r.value).padEnd(5)} compile ${r.compileUs.toFixed(1).padStart(7)} µs  +first eval ${r.firstUs.toFixed(1).padStart(7)} µs  eval ${fmt(r.evalsPerSec).padStart(7)}/s${ratio}`,
      );
      if (r !== mine && mine.evalsPerSec <= r.evalsPerSec) evalFaster = false;
      if (r !== mine && mine.compileUs >= r.compileUs) compileFaster = false;
    }
  }
  console.log(`\ncrdkit evaluates faster than both on every case: ${evalFaster ? "yes" : "NO"}`);
  console.log(`crdkit compiles faster than both on every case: ${compileFaster ? "yes" : "NO"}`);
}

main();
