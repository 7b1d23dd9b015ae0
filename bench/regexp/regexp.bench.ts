/**
 * Go regexp speed, this tree against another build of crdkit (`--base DIR`, e.g. /work/base24), each
 * in a fresh child process per round (caches cold), rounds interleaved, CPU time (user+sys) medians:
 *
 * - corpus: every OpenAPI `pattern` and CEL `matches()` literal of the corpus CRDs compiled with
 *   `compileGoRegexp` and tried on every distinct string of the corpus examples (up to 3,000);
 * - hostile: the large-program patterns of test/go-regexp/hostile.ts on their subjects cut to
 *   `--hostile-runes N` runes (default 20,000: the old path needs ~0.1-0.2 ms a rune on them);
 * - find: CEL `findAll` (Go's `FindAllString`) of every corpus pattern on the corpus strings
 *   (`corpusFind`) and of the hostile patterns on their subjects cut to `--find-runes N` runes (default
 *   2,000: re2js' matcher, which the session-25 build's `findAll` used, needs ~0.1-0.2 ms a rune).
 *
 *   node --import tsx bench/regexp/regexp.bench.ts [--base DIR] [--rounds N] [--hostile-runes N]
 *
 * Each side is imported from its build (`DIR/dist/go/regexp.js`): run `npm run build` first.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expandPaths } from "../../src/cli/files.js";
import { decodeDocuments } from "../../src/io/decode.js";
import { HOSTILE_CASES, hostileSubject } from "../../test/go-regexp/hostile.js";
import { corpusRoot } from "../../test/corpus-root.js";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

function collectPatterns(node: unknown, out: Set<string>): void {
  if (Array.isArray(node)) for (const x of node) collectPatterns(x, out);
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "pattern" && typeof v === "string") out.add(v);
      else if (k === "rule" && typeof v === "string") for (const m of v.matchAll(/matches\(\s*'((?:[^'\\]|\\.)*)'\s*\)/g)) out.add((m[1] as string).replace(/\\\\/g, "\\"));
      collectPatterns(v, out);
    }
  }
}

function collectStrings(node: unknown, out: Set<string>): void {
  if (out.size >= 3000) return;
  if (typeof node === "string") out.add(node);
  else if (Array.isArray(node)) for (const x of node) collectStrings(x, out);
  else if (node !== null && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      out.add(k);
      collectStrings(v, out);
    }
  }
}

interface BenchRegexp {
  test(s: string): boolean;
  find?: (s: string, from: number) => [number, number] | undefined;
  readonly re: { matcher(s: string): { find(pos: number): boolean; start(): number; end(): number } };
}
type Compile = (p: string) => { regexp?: BenchRegexp; error?: string };
type FindAll = (re: BenchRegexp, s: string, n: number) => [number, number][];

/** The CEL `findAll` loop of builds without src/go/regexp-find-all.ts (re2js' matcher). */
function re2jsFindAll(r: BenchRegexp, s: string): number {
  const m = r.re.matcher(s);
  let pos = 0;
  let prevEnd = -1;
  let n = 0;
  while (pos <= s.length) {
    if (!m.find(pos)) break;
    const start = m.start();
    const end = m.end();
    if (end === start && start === prevEnd) {
      pos = start + 1;
      continue;
    }
    n++;
    prevEnd = end;
    pos = end === start ? end + 1 : end;
  }
  return n;
}

/** One round in this process: CPU ms of the corpus and of the hostile set. */
async function child(dir: string, hostileRunes: number, findRunes: number): Promise<void> {
  const mod = (await import(pathToFileURL(resolve(dir, "dist/go/regexp.js")).href)) as { compileGoRegexp: Compile };
  const findAllMod = (await import(pathToFileURL(resolve(dir, "dist/go/regexp-find-all.js")).href).catch(() => undefined)) as { findAllIndex: FindAll } | undefined;
  const findAll = (r: BenchRegexp, s: string): number => (findAllMod && r.find ? findAllMod.findAllIndex(r, s, -1).length : re2jsFindAll(r, s));
  const patterns = new Set<string>();
  const subjects = new Set<string>();
  for (const f of expandPaths([corpusRoot()])) {
    const docs = decodeDocuments(readFileSync(f, "utf8"));
    for (const d of docs) (f.includes("/crds/") ? collectPatterns : collectStrings)(d.value, f.includes("/crds/") ? patterns : subjects);
  }
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  let t = cpu();
  let matches = 0;
  for (const p of patterns) {
    const r = mod.compileGoRegexp(p).regexp;
    if (r) for (const s of subjects) if (r.test(s)) matches++;
  }
  const corpus = cpu() - t;
  t = cpu();
  for (const h of HOSTILE_CASES) {
    const times = Math.min(h.subject.times, Math.ceil(hostileRunes / [...h.subject.unit].length));
    mod.compileGoRegexp(h.pattern).regexp?.test(hostileSubject({ ...h.subject, times }));
  }
  const hostile = cpu() - t;
  t = cpu();
  let found = 0;
  for (const p of patterns) {
    const r = mod.compileGoRegexp(p).regexp;
    if (r) for (const s of subjects) found += findAll(r, s);
  }
  const corpusFind = cpu() - t;
  t = cpu();
  for (const h of HOSTILE_CASES) {
    const times = Math.min(h.subject.times, Math.ceil(findRunes / [...h.subject.unit].length));
    const r = mod.compileGoRegexp(h.pattern).regexp;
    if (r) found += findAll(r, hostileSubject({ ...h.subject, times }));
  }
  const hostileFind = cpu() - t;
  console.log(JSON.stringify({ corpus, hostile, corpusFind, hostileFind, patterns: patterns.size, subjects: subjects.size, matches, found }));
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

const childDir = arg("child");
const hostileRunes = Number(arg("hostile-runes") ?? 20_000);
const findRunes = Number(arg("find-runes") ?? 2_000);
if (childDir !== undefined) await child(childDir, hostileRunes, findRunes);
else {
  const here = resolve(fileURLToPath(import.meta.url), "../../..");
  const sides = [here, ...(arg("base") ? [resolve(arg("base") as string)] : [])];
  const rounds = Number(arg("rounds") ?? 5);
  const res = new Map<string, { corpus: number[]; hostile: number[]; corpusFind: number[]; hostileFind: number[]; info: string }>();
  for (let r = 0; r < rounds; r++) {
    for (const dir of sides) {
      const out = execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--child", dir, "--hostile-runes", String(hostileRunes), "--find-runes", String(findRunes)], { encoding: "utf8", maxBuffer: 1 << 24 });
      const j = JSON.parse(out.trim().split("\n").pop() as string) as { corpus: number; hostile: number; corpusFind: number; hostileFind: number; patterns: number; subjects: number; matches: number; found: number };
      const e = res.get(dir) ?? { corpus: [], hostile: [], corpusFind: [], hostileFind: [], info: `${j.patterns} patterns × ${j.subjects} subjects, ${j.matches} matches, ${j.found} found` };
      e.corpus.push(j.corpus);
      e.hostile.push(j.hostile);
      e.corpusFind.push(j.corpusFind);
      e.hostileFind.push(j.hostileFind);
      res.set(dir, e);
    }
  }
  for (const [dir, e] of res) {
    console.log(
      `${dir}: corpus ${median(e.corpus).toFixed(1)} ms CPU (min ${Math.min(...e.corpus).toFixed(1)}), hostile ${median(e.hostile).toFixed(1)} ms; findAll: corpus ${median(e.corpusFind).toFixed(1)} ms, hostile ${median(e.hostileFind).toFixed(1)} ms [${e.info}]`,
    );
  }
}
