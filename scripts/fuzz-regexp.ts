/**
 * Differential fuzzer of Go regular expressions: crdkit's `compileGoRegexp` (its simple fast path and
 * its parser and compiler of Go's `regexp/syntax`) against real Go `regexp.Compile` / `MatchString` (tools/go-regexp-oracle, standard library
 * only), on seeded random patterns around the simple subset's edges (test/fuzz/regexp-gen.ts).
 *
 *   npm run fuzz:regexp -- --seed 1 --count 5000 [--subjects 12] [--long 300] [--show 5]
 *   npm run golden:regexp -- --hostile   re-records test/go-regexp/hostile-answers.json (Go's answers on
 *                                the large subjects of test/go-regexp/hostile.ts: MatchString and
 *                                FindAllStringIndex)
 *   npm run golden:regexp        re-records test/go-regexp/go-answers.json (hand-picked cases of
 *                                test/go-regexp/pinned.ts + seeded random ones), replayed by
 *                                test/go-regexp/go-regexp.test.ts without Go
 *   npm run golden:regexp -- --find   re-records test/go-regexp/go-find-answers.json the same way, with
 *                                Go's FindAllStringIndex of every subject (fewer patterns)
 *
 * The fuzzer also compares every subject's FindAllStringIndex (src/go/regexp-find-all.ts) with Go's.
 *
 * Disagreements are grouped by kind with a few examples each; the last line is `agreed A of M`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compareWithGo, type GoRegexpCase } from "../test/go-regexp/compare.js";
import { FIND_PATTERNS, FIND_SUBJECTS, PINNED_PATTERNS, pinnedSubjects } from "../test/go-regexp/pinned.js";
import { genRegexpPattern, genRegexpSubjects } from "../test/fuzz/regexp-gen.js";
import { Rng } from "../test/fuzz/rng.js";
import { intFlag } from "./fuzz-flags.js";
// @ts-expect-error plain ESM helper without type declarations
import { repoRoot } from "./golden-oracle.mjs";

const root = repoRoot as string;
const record = process.argv.includes("--record");
const recordFind = record && process.argv.includes("--find");
const seed = intFlag("seed", 1);
const count = intFlag("count", recordFind ? 800 : record ? 2500 : 5000);
const perPattern = intFlag("subjects", record ? 8 : 12);
const show = intFlag("show", 5);
const longLength = intFlag("long", record ? 64 : 300);

function buildOracle(): string {
  const outDir = join(root, "node_modules", ".cache", "go-regexp-oracle");
  mkdirSync(outDir, { recursive: true });
  const bin = join(outDir, "go-regexp-oracle");
  execFileSync("nice", ["go", "build", "-buildvcs=false", "-o", bin, "."], { cwd: join(root, "tools", "go-regexp-oracle"), stdio: ["ignore", "inherit", "inherit"] });
  return bin;
}

/** Go's answers for each (pattern, subjects). */
function askGo(bin: string, reqs: { pattern: string; subjects: string[] }[], find = false): GoRegexpCase[] {
  const r = spawnSync(bin, [], { input: reqs.map((q) => JSON.stringify(find ? { ...q, find } : q)).join("\n"), maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`go-regexp-oracle failed: ${r.stderr.toString()}`);
  const lines = r.stdout.toString().split("\n").filter((l) => l !== "");
  if (lines.length !== reqs.length) throw new Error(`go-regexp-oracle answered ${lines.length} of ${reqs.length} lines`);
  return reqs.map((q, i) => {
    const a = JSON.parse(lines[i] as string) as { error?: string; matches?: boolean[] | null; finds?: [number, number][][] };
    if (a.error !== undefined) return { pattern: q.pattern, subjects: q.subjects, error: a.error };
    return { pattern: q.pattern, subjects: q.subjects, matches: a.matches ?? [], ...(a.finds ? { finds: a.finds } : {}) };
  });
}

const bin = buildOracle();
if (process.argv.includes("--hostile")) {
  // Go's answers for the large hostile subjects of test/go-regexp/hostile.ts (Go needs a minute or two)
  const { HOSTILE_CASES, hostileSubject } = await import("../test/go-regexp/hostile.js");
  const answers = askGo(
    bin,
    HOSTILE_CASES.map((h) => ({ pattern: h.pattern, subjects: [hostileSubject(h.subject)] })),
    true,
  );
  // goFind: FindAllStringIndex (UTF-8 byte offsets)
  const out = HOSTILE_CASES.map((h, i) => ({ ...h, go: answers[i]?.error ?? answers[i]?.matches?.[0], goFind: answers[i]?.finds?.[0] }));
  const file = join(root, "test", "go-regexp", "hostile-answers.json");
  writeFileSync(file, `[\n${out.map((c) => JSON.stringify(c)).join(",\n")}\n]\n`);
  console.log(`recorded ${file}`);
  process.exit(0);
}
const rng = new Rng(seed);
const reqs: { pattern: string; subjects: string[] }[] = [];
if (record) for (const pattern of PINNED_PATTERNS) reqs.push({ pattern, subjects: [...pinnedSubjects(pattern), ...genRegexpSubjects(rng, pattern, 6, 64)] });
// the find fixture's own patterns go last, so that the ones before stay those of the same seed
const findReqs = recordFind ? FIND_PATTERNS.map((pattern) => ({ pattern, subjects: [...FIND_SUBJECTS] })) : [];
const seen = new Set([...reqs, ...findReqs].map((q) => q.pattern));
let guard = 0;
while (reqs.length < count + (record ? PINNED_PATTERNS.length : 0) && guard++ < count * 20) {
  const pattern = genRegexpPattern(rng);
  if (seen.has(pattern)) continue;
  seen.add(pattern);
  reqs.push({ pattern, subjects: genRegexpSubjects(rng, pattern, perPattern, longLength) });
}
reqs.push(...findReqs);
const cases = askGo(bin, reqs, !record || recordFind);

const groups = new Map<string, { n: number; examples: string[] }>();
let agreed = 0;
let pairs = 0;
let simpleCount = 0;
let goErrors = 0;
for (const c of cases) {
  pairs += c.error === undefined ? c.subjects.length : 1;
  if (c.error !== undefined) goErrors++;
  const mismatches = compareWithGo(c);
  if (mismatches.length === 0) agreed++;
  for (const m of mismatches) {
    const g = groups.get(m.kind) ?? { n: 0, examples: [] };
    g.n++;
    if (g.examples.length < show) g.examples.push(`${JSON.stringify(m.pattern)}${m.subject !== undefined ? ` on ${JSON.stringify(m.subject.length > 40 ? `${m.subject.slice(0, 40)}…(${m.subject.length})` : m.subject)}` : ""}: Go ${m.go}, crdkit ${m.crdkit}`);
    groups.set(m.kind, g);
  }
}
// how many patterns the fast path took
const { compileSimpleRegexp } = await import("../src/go/regexp-simple.js");
for (const c of cases) if (compileSimpleRegexp(c.pattern)) simpleCount++;
for (const [kind, g] of [...groups].sort((a, b) => b[1].n - a[1].n)) {
  console.log(`${g.n}× ${kind}`);
  for (const e of g.examples) console.log(`    ${e}`);
}
console.log(`patterns ${cases.length} (Go rejects ${goErrors}, simple path takes ${simpleCount}), pattern/subject pairs ${pairs}`);
console.log(`agreed ${agreed} of ${cases.length}`);
if (record) {
  const file = join(root, "test", "go-regexp", recordFind ? "go-find-answers.json" : "go-answers.json");
  writeFileSync(file, `[\n${cases.map((c) => JSON.stringify(c)).join(",\n")}\n]\n`);
  console.log(`recorded ${file}`);
}
