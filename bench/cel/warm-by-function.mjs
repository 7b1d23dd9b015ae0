/**
 * Where a warm pass of CEL compilation spends its instructions, by function: JavaScript functions (V8's
 * optimized and baseline code), V8 builtins (`Builtins_*`) and C++ (the garbage collector, TurboFan).
 * Runs `cold-instructions.mjs ROOT MODE` under valgrind callgrind twice, with LO and HI passes (`node
 * --single-threaded`, fixed hash and random seeds, as warm-instructions.sh), with `--perf-basic-prof` so
 * that node writes /tmp/perf-PID.map (where V8 put each function's code); callgrind's per-instruction
 * counts are attributed to those ranges, and a function's count per warm pass is (HI - LO) / (HI - LO
 * passes). Exclusive counts (a callee's instructions are its own); with CALLEE, the inclusive cost of the
 * calls to functions whose name contains CALLEE instead, by caller (who grows arrays, who looks up maps).
 *
 *   node bench/cel/warm-by-function.mjs ROOT [MODE] [TOP] [CALLEE]     MODE default program, TOP 40
 *   LO=10 HI=30 node bench/cel/warm-by-function.mjs /work/base30 program 60 GrowFastSmiOrObjectElements
 *
 * ROOT: a checkout with `dist/` built (absolute path). ~5 min on a quiet machine. Addresses V8 reuses for
 * other code in the window are attributed to the last function mapped there (close enough for a ranking).
 * @module
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const [rootArg, mode = "program", topArg = "40", callee] = process.argv.slice(2);
if (rootArg === undefined) throw new Error("usage: warm-by-function.mjs ROOT [MODE] [TOP] [CALLEE]");
const root = resolve(rootArg);
const lo = Number(process.env.LO ?? 10);
const hi = Number(process.env.HI ?? 30);
const dir = mkdtempSync(join(tmpdir(), "cel-by-fn-"));
try {
  const list = join(dir, "list.json");
  execFileSync(process.execPath, [join(here, "cold-instructions.mjs"), root, "--list", list]);
  const costs = (passes) => {
    const out = join(dir, `cg.${passes}.out`);
    const r = spawnSync(
      "valgrind",
      ["--tool=callgrind", "--dump-instr=yes", "--compress-pos=no", "--compress-strings=no", `--callgrind-out-file=${out}`,
        process.execPath, "--perf-basic-prof", "--single-threaded", "--hash-seed=1", "--random-seed=1",
        join(here, "cold-instructions.mjs"), root, mode, list],
      { env: { ...process.env, PASSES: String(passes) }, encoding: "utf8", cwd: dir },
    );
    const pid = /==(\d+)==/.exec(r.stderr ?? "")?.[1];
    if (r.status !== 0 || pid === undefined) throw new Error(`valgrind failed: ${r.error?.message ?? r.stderr}`);
    const mapFile = `/tmp/perf-${pid}.map`;
    const ranges = readFileSync(mapFile, "utf8").split("\n").filter(Boolean).map((l, i) => {
      const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(l);
      return m === null ? undefined : { s: parseInt(m[1], 16), e: parseInt(m[1], 16) + parseInt(m[2], 16), name: m[3], i };
    }).filter((x) => x !== undefined);
    rmSync(mapFile, { force: true });
    ranges.sort((a, b) => a.s - b.s || a.i - b.i);
    const lookup = (a) => {
      let l = 0;
      let h = ranges.length - 1;
      let r0 = -1;
      while (l <= h) {
        const mid = (l + h) >> 1;
        if (ranges[mid].s <= a) {
          r0 = mid;
          l = mid + 1;
        } else h = mid - 1;
      }
      let best;
      for (let j = r0; j >= 0 && j > r0 - 200; j--) {
        const x = ranges[j];
        if (x.s <= a && a < x.e && (best === undefined || x.i > best.i)) best = x;
      }
      return best === undefined ? "(unmapped code)" : best.name.replace(/^(JS|LazyCompile|Function):[*~^+]?/, "").replace(/ file:\/\/\/\S*\/(dist|node_modules)\//, " $1/");
    };
    const byName = new Map();
    const add = (k, v) => byName.set(k, (byName.get(k) ?? 0) + v);
    let fn = "";
    let cfn = "";
    let afterCall = false;
    for (const l of readFileSync(out, "utf8").split("\n")) {
      if (l.startsWith("fn=")) fn = l.slice(3);
      else if (l.startsWith("cfn=")) cfn = l.slice(4);
      else if (l.startsWith("calls=")) afterCall = true;
      else if (l.startsWith("0x")) {
        // "instruction line Ir"; the line after calls= is the call's inclusive cost
        const [addr, , ir] = l.split(" ");
        const name = () => (/^0x[0-9a-f]+$/.test(fn) ? lookup(parseInt(addr.slice(2), 16)) : fn);
        if (afterCall) {
          afterCall = false;
          if (callee !== undefined && cfn.includes(callee)) add(`${name()} -> ${cfn}`, Number(ir));
        } else if (callee === undefined) add(name(), Number(ir));
      }
    }
    rmSync(out, { force: true });
    return byName;
  };
  const a = costs(lo);
  const b = costs(hi);
  for (const [k, v] of a) b.set(k, (b.get(k) ?? 0) - v);
  const n = hi - lo;
  let total = 0;
  for (const v of b.values()) total += v;
  console.log(`${root} ${mode}: ${(total / n / 1e6).toFixed(2)} M instructions per warm pass${callee === undefined ? "" : ` in calls to *${callee}*`} (passes ${lo}..${hi})`);
  for (const [k, v] of [...b].sort((x, y) => y[1] - x[1]).slice(0, Number(topArg)))
    console.log(`${(v / n / 1e3).toFixed(0).padStart(8)} K  ${k.slice(0, 160)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
