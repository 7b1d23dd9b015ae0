/**
 * bin/crdkit.js loads the one-file CommonJS bundle for `validate` and `check` with V8's code cache in the
 * user cache directory (Node.js < 22.1; newer ones use Node's own compile cache): the output is the same
 * with and without an entry, a corrupt or truncated entry is ignored and rewritten, CRDKIT_NO_CACHE=1 keeps
 * the directory empty, an entry written by a first-time run (one that filled the compiled-CRD cache) gives
 * way to a repeat run's, and the other commands run the ES module bundle. Needs `npm run build`.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(ROOT, "bin", "crdkit.js");
const ownCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache !== "function";
const home = mkdtempSync(join(tmpdir(), "crdkit-codecache-"));
after(() => rmSync(home, { recursive: true, force: true }));

function run(env: Record<string, string>, ...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, CRDKIT_NO_CACHE: "", ...env } });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const codeDir = (cache: string) => join(cache, "crdkit", "code");
const entries = (cache: string) => (existsSync(codeDir(cache)) ? readdirSync(codeDir(cache)).filter((f) => f.endsWith(".v8")).sort() : []);
/** The entries of crdkit.cjs itself (`validate-…`), not of the files it requires on first use (`validate.rules-…`). */
const coreEntries = (cache: string) => entries(cache).filter((f) => !f.split("-")[0]!.includes("."));
const validateArgs = ["validate", "--crds", "examples/crontab-crd.yaml", "examples/crontab-valid.yaml", "examples/crontab-invalid.yaml"];

test("the bundle exists (npm run build)", () => {
  assert.ok(existsSync(join(ROOT, "dist", "bundle", "crdkit.cjs")), "dist/bundle/crdkit.cjs is missing: run `npm run build` first");
});

test("validate: same output without, with, and with a corrupt code cache entry", () => {
  const cache = join(home, "a");
  const first = run({ XDG_CACHE_HOME: cache }, ...validateArgs);
  assert.equal(first.status, 1, first.stderr);
  assert.match(first.stdout, /Summary: 5 resources: 2 valid, 3 invalid, 0 skipped/);
  assert.equal(first.stderr, "");
  if (!ownCache) return;
  const [entry] = coreEntries(cache);
  assert.ok(entry?.startsWith("validate-"), `an entry for validate: ${entries(cache).join(", ")}`);
  const path = join(codeDir(cache), entry!);
  const good = readFileSync(path);
  assert.equal(good.readUInt32LE(0), good.length - 16);
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);

  // a flipped byte in the data: the CRC-32 no longer matches; then a truncated file
  const flipped = Buffer.from(good);
  flipped[flipped.length >> 1] = flipped[flipped.length >> 1]! ^ 0xff;
  for (const bad of [flipped, good.subarray(0, good.length >> 1), Buffer.from("garbage")]) {
    writeFileSync(path, bad);
    assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
    const again = readFileSync(path);
    assert.equal(again.readUInt32LE(0), again.length - 16, "the entry is rewritten");
  }
});

test("validate: a run much longer than the one that wrote the entry writes it again (as written by that run)", () => {
  if (!ownCache) return;
  const cache = join(home, "refresh");
  const first = run({ XDG_CACHE_HOME: cache }, ...validateArgs);
  // the first run's entry (a first-time run's) gives way to a repeat run's (see the next test)
  for (let i = 0; i < 2; i++) assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
  const [entry] = coreEntries(cache);
  const path = join(codeDir(cache), entry!);
  const written = readFileSync(path);
  // a short run (under the default 400 ms of CPU) leaves the entry as it is
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
  assert.deepEqual(readFileSync(path), written);
  // an entry written by a "0 ms" run: the next run is much longer, and records itself as the writer
  const zero = Buffer.from(written);
  zero.writeUInt32LE(0, 8);
  writeFileSync(path, zero);
  assert.deepEqual(run({ XDG_CACHE_HOME: cache, CRDKIT_CODE_CACHE_REFRESH_MS: "0" }, ...validateArgs), first);
  const again = readFileSync(path);
  assert.equal(again.readUInt32LE(0), again.length - 16);
  assert.ok(again.readUInt32LE(8) > 0, "the entry records the run that wrote it");
  // and is still a good entry
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
});

/** An entry's header: length, CRC-32, CPU ms of the run that wrote it, flags (1: first-time run, 2: a repeat run used it). */
const header = (b: Buffer) => ({ length: b.readUInt32LE(0), crc: b.readUInt32LE(4), cpu: b.readUInt32LE(8), flags: b.readUInt32LE(12) });

test("validate: a first-time run's entry is replaced by a repeat run's, never the other way round; --no-cache has its own", () => {
  if (!ownCache) return;
  const cache = join(home, "first-time");
  const crdCache = join(cache, "crdkit", "v1");
  const first = run({ XDG_CACHE_HOME: cache }, ...validateArgs);
  const [entry] = coreEntries(cache);
  const path = join(codeDir(cache), entry!);
  // the run filled the compiled-CRD cache (CRD checks, CEL compilation): flagged first-time
  const cold = readFileSync(path);
  assert.equal(header(cold).flags, 1);
  // a repeat run uses it and marks it
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
  const seen = readFileSync(path);
  assert.equal(header(seen).flags, 3);
  assert.deepEqual(seen.subarray(16), cold.subarray(16));
  // the next run compiles afresh and, a repeat run, writes its own entry
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
  const steady = readFileSync(path);
  assert.equal(header(steady).flags, 0);
  assert.equal(header(steady).length, steady.length - 16);
  assert.notDeepEqual(steady.subarray(16), cold.subarray(16));
  // used as it is by repeat runs and by a first-time run (compiled-CRD cache removed)
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
  rmSync(crdCache, { recursive: true, force: true });
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
  assert.deepEqual(readFileSync(path), steady);
  // --no-cache (every CRD checked and compiled at every run) keeps an entry of its own
  const noCrdCache = run({ XDG_CACHE_HOME: cache }, "validate", "--no-cache", ...validateArgs.slice(1));
  assert.deepEqual(noCrdCache, first);
  assert.deepEqual(coreEntries(cache), [entry!, entry!.replace(/\.v8$/, "-nocache.v8")].sort());
  assert.deepEqual(readFileSync(path), steady);

  // a first-time run that probes (the marked entry of a first-time run) leaves that entry, unmarked
  rmSync(crdCache, { recursive: true, force: true });
  const marked = Buffer.from(cold);
  marked.writeUInt32LE(3, 12);
  writeFileSync(path, marked);
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
  const after = readFileSync(path);
  assert.equal(header(after).flags, 1);
  assert.deepEqual(after.subarray(16), cold.subarray(16));
  // an entry of the old layout (12-byte header) fails the length check and is written again
  writeFileSync(path, Buffer.concat([cold.subarray(0, 12), cold.subarray(16)]));
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
  assert.equal(header(readFileSync(path)).length, readFileSync(path).length - 16);
});

test("Go's regexp parser (a `\\p{Lu}` pattern, outside the simple subset) is a file of its own with its own entry: same output with, without, with a corrupt one", () => {
  const dir = join(home, "unicode-files");
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, "crd.yaml"),
    `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string, pattern: '^\\p{Lu}[a-z]+$'}
`,
  );
  writeFileSync(
    join(dir, "widgets.yaml"),
    "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: good}\nspec: {name: Hello}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: bad}\nspec: {name: hello}\n",
  );
  const cache = join(home, "unicode");
  const args = ["validate", "--crds", join(dir, "crd.yaml"), join(dir, "widgets.yaml")];
  const first = run({ XDG_CACHE_HOME: cache }, ...args);
  assert.equal(first.status, 1, first.stderr);
  assert.equal(
    first.stdout,
    `${join(dir, "widgets.yaml")}:9:14: spec.name: Invalid value: "hello": spec.name in body should match '^\\p{Lu}[a-z]+$'\nSummary: 2 resources: 1 valid, 1 invalid, 0 skipped\n`,
  );
  assert.equal(first.stderr, "");
  assert.ok(existsSync(join(ROOT, "dist", "bundle", "regexp-go.cjs")));
  if (!ownCache) return;
  const chunk = entries(cache).find((e) => e.startsWith("validate.regexp-go-"));
  assert.ok(chunk, `an entry for regexp-go.cjs: ${entries(cache).join(", ")}`);
  const path = join(codeDir(cache), chunk);
  // written by a first-time run, as the bundle's entry: replaced by a repeat run's (the second repeat run)
  assert.equal(header(readFileSync(path)).flags, 1);
  for (let i = 0; i < 2; i++) assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...args), first);
  const good = readFileSync(path);
  assert.equal(header(good).flags, 0);
  assert.equal(header(good).length, good.length - 16);
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...args), first);
  assert.deepEqual(readFileSync(path), good, "used as it is");
  // a run without such a pattern leaves it alone
  assert.equal(run({ XDG_CACHE_HOME: cache }, ...validateArgs).status, 1);
  assert.deepEqual(readFileSync(path), good);
  const flipped = Buffer.from(good);
  flipped[flipped.length >> 1] = flipped[flipped.length >> 1]! ^ 0xff;
  for (const bad of [flipped, good.subarray(0, good.length >> 1), Buffer.from("garbage")]) {
    writeFileSync(path, bad);
    assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...args), first);
    const again = readFileSync(path);
    assert.equal(header(again).length, again.length - 16, "the entry is rewritten");
  }
  // without any cache: the same
  assert.deepEqual(run({ XDG_CACHE_HOME: cache, CRDKIT_NO_CACHE: "1" }, ...args), first);
});

test("the chunks of crdkit.cjs: a repeat run of a CRD without rules loads none; a chunk's entry: same output with, without, with a corrupt one", () => {
  if (!ownCache) return;
  const cache = join(home, "chunks");
  // a first-time run checks the CRD: the CRD checks' chunk is loaded and gets an entry of its own
  const first = run({ XDG_CACHE_HOME: cache }, ...validateArgs);
  assert.equal(first.status, 1, first.stderr);
  assert.ok(entries(cache).some((e) => e.startsWith("validate.crdchecks-")), entries(cache).join(", "));
  // a repeat run (compiled-CRD cache filled) of a CRD without rules needs no chunk at all
  rmSync(codeDir(cache), { recursive: true });
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), first);
  assert.deepEqual(entries(cache), coreEntries(cache));
  assert.equal(coreEntries(cache).length, 1);
  // --no-cache checks the CRD at every run: its chunk entry is used, and rewritten when corrupt
  const args = ["validate", "--no-cache", ...validateArgs.slice(1)];
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...args), first);
  const chunk = entries(cache).find((e) => e.startsWith("validate.crdchecks-") && e.endsWith("-nocache.v8"));
  assert.ok(chunk, entries(cache).join(", "));
  const path = join(codeDir(cache), chunk);
  const good = readFileSync(path);
  assert.equal(header(good).length, good.length - 16);
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...args), first);
  assert.deepEqual(readFileSync(path), good, "used as it is");
  const flipped = Buffer.from(good);
  flipped[flipped.length >> 1] = flipped[flipped.length >> 1]! ^ 0xff;
  for (const bad of [flipped, good.subarray(0, good.length >> 1), Buffer.from("garbage")]) {
    writeFileSync(path, bad);
    assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...args), first);
    const again = readFileSync(path);
    assert.equal(header(again).length, again.length - 16, "the entry is rewritten");
  }
  assert.deepEqual(run({ XDG_CACHE_HOME: cache, CRDKIT_NO_CACHE: "1" }, ...args), first);
});

test("a chunk file missing or of another size: the unbundled CLI runs (same output); a broken one: a clear error", () => {
  // a copy of the package (node_modules linked), timestamps kept: the bundle is not older than dist/cli
  const pkg = join(home, "pkg");
  for (const part of ["bin", "dist", "schemas", "examples", "package.json"]) cpSync(join(ROOT, part), join(pkg, part), { recursive: true, preserveTimestamps: true });
  symlinkSync(join(ROOT, "node_modules"), join(pkg, "node_modules"));
  const runIn = (cache: string, ...args: string[]) => {
    const r = spawnSync(process.execPath, [join(pkg, "bin", "crdkit.js"), ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, CRDKIT_NO_CACHE: "", XDG_CACHE_HOME: cache } });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const args = ["validate", "--no-cache", ...validateArgs.slice(1)];
  const expected = run({ XDG_CACHE_HOME: join(home, "pkg-expected") }, ...args);
  assert.deepEqual(runIn(join(home, "pkg-intact"), ...args), expected);
  if (ownCache) assert.ok(coreEntries(join(home, "pkg-intact")).length === 1, "the bundle ran");
  const chunk = join(pkg, "dist", "bundle", "crdchecks.cjs");
  const text = readFileSync(chunk);
  for (const [name, write] of [
    ["missing", () => rmSync(chunk)],
    ["truncated", () => writeFileSync(chunk, text.subarray(0, text.length >> 1))],
  ] as const) {
    write();
    const cache = join(home, `pkg-${name}`);
    assert.deepEqual(runIn(cache, ...args), expected, name);
    assert.deepEqual(entries(cache), [], `${name}: the unbundled CLI ran`);
  }
  // the right size but not JavaScript: the run that needs it stops with a clear error
  writeFileSync(chunk, Buffer.alloc(text.length, "}"));
  const broken = runIn(join(home, "pkg-broken"), ...args);
  assert.equal(broken.status, 2);
  assert.match(broken.stderr, /^crdkit: internal error: crdkit: cannot load crdchecks\.cjs beside crdkit\.cjs \(.*\); the build is incomplete: run `npm run build`\n$/);
});

test("the bundle's build fails when a module lands in two of its files", async () => {
  const { checkOneCopy } = (await import(new URL("../../scripts/bundle-split.mjs", import.meta.url).href)) as {
    checkOneCopy: (sets: Map<string, Set<string>>, rel: (p: string) => string) => void;
  };
  const rel = (p: string) => p.replace("/d/", "");
  assert.doesNotThrow(() => checkOneCopy(new Map([["core", new Set(["/d/a.js"])], ["rules", new Set(["/d/b.js"])]]), rel));
  assert.throws(
    () => checkOneCopy(new Map([["core", new Set(["/d/a.js", "/d/b.js"])], ["rules", new Set(["/d/b.js"])]]), rel),
    { message: "bundle: modules in two outputs: b.js (core and rules)" },
  );
});

test("validate -j 2 (worker threads from the bundle): the single-threaded output, no warning", () => {
  const cache = join(home, "j");
  const one = run({ XDG_CACHE_HOME: cache }, ...validateArgs);
  const two = run({ XDG_CACHE_HOME: cache }, "validate", "-j", "2", ...validateArgs.slice(1));
  assert.equal(two.stderr, "");
  assert.deepEqual(two, one);
});

test("check gets its own entry; CRDKIT_NO_CACHE=1 writes none; serve and version use the ES module bundle", () => {
  const cache = join(home, "b");
  const c = run({ XDG_CACHE_HOME: cache }, "check", "examples/crontab-crd.yaml");
  assert.equal(c.status, 0, c.stderr);
  assert.match(c.stdout, /ok: crontabs\.stable\.example\.com/);
  if (ownCache) {
    assert.deepEqual(coreEntries(cache).map((e) => e.split("-")[0]), ["check"]);
    // the chunks it loaded (`check` itself, the CRD checks) have entries of their own, for `check`
    assert.ok(entries(cache).some((e) => e.startsWith("check.check-")), entries(cache).join(", "));
    assert.ok(entries(cache).some((e) => e.startsWith("check.crdchecks-")), entries(cache).join(", "));
    assert.deepEqual(entries(cache).filter((e) => !e.startsWith("check")), []);
  }

  const none = join(home, "c");
  assert.equal(run({ XDG_CACHE_HOME: none, CRDKIT_NO_CACHE: "1" }, ...validateArgs).status, 1);
  assert.deepEqual(entries(none), []);

  const s = run({ XDG_CACHE_HOME: none }, "serve", "--help");
  assert.equal(s.status, 0, s.stderr);
  assert.match(s.stdout, /^Usage: crdkit serve/);
  const v = run({ XDG_CACHE_HOME: none }, "version");
  assert.match(v.stdout, /^crdkit \d+\.\d+\.\d+/);
  assert.deepEqual(entries(none), []);
});

test("entries of other builds: the three newest are kept beside the current one, older ones removed", () => {
  if (!ownCache) return;
  const cache = join(home, "builds");
  mkdirSync(codeDir(cache), { recursive: true });
  // five entries of other builds (other sizes/mtimes of the bundle), oldest first, and another command's
  const others = [1, 2, 3, 4, 5].map((i) => `validate-${i}-${i}-${process.version}-${process.arch}.v8`);
  others.forEach((f, i) => {
    const p = join(codeDir(cache), f);
    writeFileSync(p, "x");
    utimesSync(p, 1_000_000 + i, 1_000_000 + i);
  });
  writeFileSync(join(codeDir(cache), "check-1-1-x.v8"), "x");
  assert.equal(run({ XDG_CACHE_HOME: cache }, ...validateArgs).status, 1);
  const left = entries(cache).sort();
  assert.deepEqual(left.filter((f) => others.includes(f)).sort(), others.slice(2).sort());
  assert.ok(left.includes("check-1-1-x.v8"));
  assert.equal(left.filter((f) => f.startsWith("validate-") && !others.includes(f)).length, 1, left.join(", "));
});

test("short runs (small input files) raise V8's interrupt budget and keep their own entry, tiny ones another; standard input does not", () => {
  if (!ownCache) return;
  const cache = join(home, "budget");
  // over 64 KiB of input: short
  const big = join(home, "big.yaml");
  writeFileSync(big, `# ${"x".repeat(70 << 10)}\n${readFileSync(join(ROOT, "examples", "crontab-valid.yaml"), "utf8")}`);
  const short = run({ XDG_CACHE_HOME: cache }, "validate", "--crds", "examples/crontab-crd.yaml", big);
  assert.equal(short.status, 0, short.stderr);
  assert.deepEqual(entries(cache), entries(cache).filter((e) => e.endsWith("-short.v8")));
  assert.equal(coreEntries(cache).length, 1);
  rmSync(codeDir(cache), { recursive: true });
  // a few small files: tiny
  const files = run({ XDG_CACHE_HOME: cache }, ...validateArgs);
  assert.deepEqual(
    coreEntries(cache).map((e) => e.endsWith("-tiny.v8")),
    [true],
  );
  const input = readFileSync(join(ROOT, "examples", "crontab-valid.yaml"), "utf8") + "---\n" + readFileSync(join(ROOT, "examples", "crontab-invalid.yaml"), "utf8");
  const stdin = spawnSync(process.execPath, [BIN, "validate", "--crds", "examples/crontab-crd.yaml", "-"], {
    cwd: ROOT,
    encoding: "utf8",
    input,
    env: { ...process.env, CRDKIT_NO_CACHE: "", XDG_CACHE_HOME: cache },
  });
  assert.equal(stdin.status, files.status, stdin.stderr);
  assert.match(stdin.stdout, /Summary: 5 resources: 2 valid, 3 invalid, 0 skipped/);
  assert.deepEqual(coreEntries(cache).map((e) => e.endsWith("-tiny.v8")).sort(), [false, true]);
  // each kind of run reads its own entry and leaves it as it is (once a repeat run wrote it)
  for (let i = 0; i < 2; i++) assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), files);
  const before = entries(cache).map((e) => readFileSync(join(codeDir(cache), e)));
  assert.deepEqual(run({ XDG_CACHE_HOME: cache }, ...validateArgs), files);
  assert.deepEqual(entries(cache).map((e) => readFileSync(join(codeDir(cache), e))), before);

  // a budget given to node by the user is left alone (and the run uses the plain entry)
  const own = join(home, "budget-own");
  const given = spawnSync(process.execPath, ["--interrupt-budget=100000", BIN, ...validateArgs], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, CRDKIT_NO_CACHE: "", XDG_CACHE_HOME: own },
  });
  assert.deepEqual({ status: given.status, stdout: given.stdout, stderr: given.stderr }, files);
  assert.deepEqual(coreEntries(own).map((e) => /-(tiny|short)\.v8$/.test(e)), [false]);
});
