// Loads crdkit's CLI for bin/crdkit.js, the cheapest way available:
// - `validate` and `check` run dist/bundle/crdkit.cjs, one CommonJS script compiled with V8's code cache:
//   on Node.js >= 22.1 Node's own compile cache (module.enableCompileCache), else a vm.Script whose
//   cached data (the compiled code of every function the run used) is kept in the user cache directory
//   ($XDG_CACHE_HOME/crdkit/code, else ~/.cache/crdkit/code) and checked (length, CRC-32) before use.
//   An entry holds the functions of the run that wrote it: a run that took much longer (CPU) than that one
//   (it likely used more of the CLI) writes the entry again when it now holds more compiled code, so an
//   entry first written by a tiny run does not leave every larger run compiling most functions itself.
//   An entry written by a first-time run (one that filled the compiled-CRD cache: CRD checks, CEL
//   compilation) gives way to one written by a repeat run, which compiles other functions (see FIRST_TIME);
//   `--no-cache` runs keep an entry of their own. The chunks of crdkit.cjs (scripts/bundle-split.mjs) and
//   regexp-go.cjs are required by it on first use, each compiled with an entry of its own; when one is missing
//   or of another build (sizes on crdkit.cjs's first line) the unbundled dist/cli/main.js runs instead (on
//   Node's compile-cache path: a clear error when the run needs it). CRDKIT_NO_CACHE=1 turns the cache off.
// - other commands (serve, help, version) run the ES module bundle dist/bundle/main.js.
// - without a bundle (esbuild not installed) or with one older than dist/cli (tsc run alone): dist/cli/main.js.
// Node's modules are taken with process.getBuiltinModule when present (no ES module facade to build).
// CommonJS (see bin/package.json and bin/crdkit.js).
"use strict";

const builtin = async (name) => process.getBuiltinModule?.(name) ?? (await import(name));

const { join } = require("node:path");
const dist = join(__dirname, "..", "dist");
const FAST = new Set(["validate", "check"]);

/** The `main` function of an ES module of dist/ (`cli/main.js`, `bundle/main.js`). */
async function esmMain(file) {
  return (await import(require("node:url").pathToFileURL(join(dist, file)).href)).main;
}

/** The `main` function of the CLI for a command line. */
async function loadCli(argv) {
  const fs = await builtin("node:fs");
  const file = join(dist, "bundle", "crdkit.cjs");
  let bundleStat;
  let unbundledMtime = 0;
  try {
    unbundledMtime = fs.statSync(join(dist, "cli", "main.js")).mtimeMs;
    bundleStat = fs.statSync(file);
  } catch {
    // no bundle
  }
  if (!bundleStat || bundleStat.mtimeMs < unbundledMtime) return esmMain("cli/main.js");
  if (!FAST.has(argv[0])) return esmMain("bundle/main.js");
  // Node compiles its own modules with code cached for its default V8 flags, which V8 rejects once
  // tierLater has changed a flag (each module is then compiled from source): the modules this file and
  // the bundle's start use are loaded first (measured: ~2-2.5 ms less CPU per run), and so are the
  // standard streams, which the bundle creates at load (its default io)
  const [v8, , mod, vm, path, os, zlib] = await Promise.all(
    ["node:v8", "node:url", "node:module", "node:vm", "node:path", "node:os", "node:zlib"].map(builtin),
  );
  stdio();
  // the code cache holds V8's flags: one entry per budget, or short and long runs would reject each other's
  const size = tierLater(fs, v8, argv);
  if (mod.enableCompileCache && !noCache()) {
    // (a missing chunk: a clear error when the run needs it)
    mod.enableCompileCache();
    return mod.createRequire(file)(file).main;
  }
  const source = fs.readFileSync(file, "utf8");
  // a chunk of crdkit.cjs missing or not of this build: the unbundled CLI (slower, never failing mid-run)
  if (!chunksIntact(fs, source)) return esmMain("cli/main.js");
  return loadWithCodeCache({ fs, mod, vm, path, os, zlib }, file, source, bundleStat, argv[0], `${size}${withoutCrdCache(argv) ? "-nocache" : ""}`).main;
}

/**
 * V8's optimising compiler (TurboFan) starts on a function after a budget of its bytecode has run; a
 * `validate` or `check` run over a few files lasts well under a second, and the optimised code compiled on
 * V8's helper threads then costs more CPU than it saves (gateway-api corpus: ~1.2 s CPU at Node 20's
 * budget, 67,584, ~0.94 s at four times it, wall time lower too). Long runs lose by it instead (a 10 MB
 * stream: ~12% slower), and V8 keeps the budget a function started with, so it is chosen here, once, before
 * the bundle is compiled (the code cache records V8's flags): four times the budget when every input is a
 * file or directory and the inputs (not the CRDs) hold at most SHORT_RUN_BYTES together; Node's default
 * for standard input, larger inputs, or when the user gave node an interrupt budget. Returns the run's
 * code-cache variant: "-tiny" (raised, inputs of at most TINY_RUN_BYTES), "-short" (raised) or "".
 */
function tierLater(fs, v8, argv) {
  // (node refuses V8 options in NODE_OPTIONS)
  if (process.execArgv.some((a) => /interrupt[-_]budget/.test(a))) return "";
  let inputs = 0;
  let budget = SHORT_RUN_BYTES;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-") return "";
    if (arg === "--") {
      for (const rest of argv.slice(i + 1)) budget -= rest === "-" ? budget + 1 : pathBytes(fs, rest, budget);
      inputs += argv.length - i - 1;
      break;
    }
    if (arg.startsWith("-")) {
      // an option's value (CRDs are compiled once and cached: their size says little about the run)
      if (VALUE_OPTIONS.has(arg)) i++;
    } else {
      inputs++;
      budget -= pathBytes(fs, arg, budget);
    }
    if (budget < 0) return "";
  }
  // no input: standard input, of unknown size
  if (inputs === 0 || budget < 0) return "";
  v8.setFlagsFromString(`--interrupt-budget=${4 * NODE20_INTERRUPT_BUDGET}`);
  return SHORT_RUN_BYTES - budget <= TINY_RUN_BYTES ? "-tiny" : "-short";
}

/** Inputs up to this size (files and directories together) are a short run. */
const SHORT_RUN_BYTES = 4 << 20;
/**
 * Inputs up to this size (a few manifests: an editor's or a pre-commit hook's run) are a tiny run, with a
 * code-cache entry of its own: an entry holds the functions of the runs that wrote it, and one grown by
 * runs over whole repositories (more kinds, more CRDs, more of the CLI) costs a one-file run ~10% more
 * instructions to deserialise (valgrind, one resource: 200M with its own entry, 229M with a gateway-api
 * run's).
 */
const TINY_RUN_BYTES = 64 << 10;
const NODE20_INTERRUPT_BUDGET = 67584;
/** The options of `validate` and `check` that take a value (src/cli/args.ts; test/cli/load-cli-value-options.test.ts keeps them in step). */
const VALUE_OPTIONS = new Set(["--crds", "--crd", "--old", "-o", "--output", "--field-validation", "--skip", "--exclude", "--kubeconfig", "--kubernetes-version", "--context", "-j", "--jobs"]);

/** Bytes under a path (a file, or a directory walked until `limit` is passed); 0 when it is neither. */
function pathBytes(fs, path, limit) {
  let total = 0;
  const pending = [path];
  let entries = 0;
  while (pending.length > 0 && total <= limit) {
    const p = pending.pop();
    let st;
    try {
      st = fs.statSync(p, { throwIfNoEntry: false });
    } catch {
      continue;
    }
    if (st?.isFile()) total += st.size;
    else if (st?.isDirectory()) {
      let names;
      try {
        names = fs.readdirSync(p);
      } catch {
        continue;
      }
      // a huge tree: a long run
      if ((entries += names.length) > 10000) return limit + 1;
      for (const n of names) pending.push(`${p}/${n}`);
    }
  }
  return total;
}

/**
 * Whether the chunks named on the first line of crdkit.cjs's `source` (`//crdkit-chunks {"name":size,...}`,
 * written by scripts/bundle.mjs) are beside it with those sizes.
 */
function chunksIntact(fs, source) {
  const m = /^\/\/crdkit-chunks (\{.*\})\n/.exec(source.slice(0, source.indexOf("\n") + 1));
  if (!m) return false;
  let sizes;
  try {
    sizes = JSON.parse(m[1]);
  } catch {
    return false;
  }
  try {
    for (const [name, size] of Object.entries(sizes)) {
      if (fs.statSync(join(dist, "bundle", `${name}.cjs`)).size !== size) return false;
    }
  } catch {
    return false;
  }
  return true;
}

/** `--no-cache` among the options: every CRD used is checked and compiled, as a first-time run does. */
function withoutCrdCache(argv) {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).includes("--no-cache");
}

function noCache() {
  return (process.env.CRDKIT_NO_CACHE ?? "") !== "";
}

function cacheDir(path, os) {
  const xdg = process.env.XDG_CACHE_HOME;
  return path.join(xdg?.startsWith("/") ? xdg : path.join(os.homedir(), ".cache"), "crdkit", "code");
}

/** Creates process.stdout and process.stderr (true when both are terminals). */
function stdio() {
  return process.stdout.isTTY === true && process.stderr.isTTY === true;
}

function loadWithCodeCache({ fs, mod, vm, path, os, zlib }, file, source, st, command, variant) {
  // one entry per bundle build, Node.js build, command (a `check` run compiles other functions than
  // `validate`), interrupt budget and input size (see tierLater) and use of the compiled-CRD cache (`--no-cache`)
  const entry = noCache()
    ? undefined
    : path.join(cacheDir(path, os), `${command}-${st.size}-${Math.trunc(st.mtimeMs)}-${process.version}-${process.arch}${variant}.v8`);
  const crc = (b) => (zlib.crc32 ? zlib.crc32(b) : 0);
  const module = { exports: {} };
  const firstTime = () => module.exports.cacheFilled?.() === true;
  const script = compileWithEntry({ fs, path, crc }, entry, firstTime, (cachedData) =>
    new vm.Script(mod.wrap(source), {
      filename: file,
      cachedData,
      importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    }),
  );
  const req = mod.createRequire(file);
  // the bundle's files required on first use (its chunks, regexp-go.cjs) are compiled with entries of their own
  const chunks = new Map();
  const chunkRequire = (id) => {
    if (!CHUNK.test(id)) return req(id);
    if (!chunks.has(id)) {
      chunks.set(id, loadChunk({ fs, vm, mod, path, crc }, entry, path.join(path.dirname(file), id), command, variant, firstTime));
    }
    return chunks.get(id);
  };
  script.runInThisContext().call(module.exports, module.exports, Object.assign(chunkRequire, req), module, file, path.dirname(file));
  return module.exports;
}

/**
 * The vm.Script `compile(cachedData)` gives, with the data of the code-cache entry at `entry` (none: no cache),
 * and the entry kept in step at exit: written when missing or rejected; an entry written by a first-time run
 * (`firstTime()` at exit: the run filled the compiled-CRD cache) gives way to a repeat run's (see
 * FIRST_TIME); rewritten by a run much longer than the one that wrote it (see refreshedData).
 */
function compileWithEntry({ fs, path, crc }, entry, firstTime, compile) {
  const found = entry ? readEntry(fs, entry, crc) : undefined;
  // an entry written by a first-time run, once a repeat run has used it: this run compiles afresh (a probe),
  // so that a repeat run writes an entry of its own (see the exit handler)
  const probe = found !== undefined && (found.flags & FIRST_TIME) !== 0 && (found.flags & REPEAT_SEEN) !== 0;
  const cachedData = probe ? undefined : found?.data;
  const script = compile(cachedData);
  if (entry) {
    const rejected = cachedData !== undefined && script.cachedDataRejected;
    process.once("exit", () => {
      const first = firstTime();
      const cpu = cpuMs();
      const write = (data, flags, writerCpu = cpu) => writeEntry(fs, path, entry, data, crc, writerCpu, flags);
      if (cachedData === undefined || rejected) {
        // compiled afresh: what this run compiled, unless it only probed for a repeat run's entry and was a
        // first-time run itself (the old entry is used again, until a repeat run uses it)
        if (probe && first) write(found.data, found.flags & ~REPEAT_SEEN, found.cpu);
        else write(script.createCachedData(), first ? FIRST_TIME : 0);
      } else if ((found.flags & FIRST_TIME) !== 0) {
        // a repeat run on a first-time run's entry: the next run compiles afresh and writes its own
        if (!first) write(found.data, found.flags | REPEAT_SEEN, found.cpu);
      } else if (!first) {
        const data = refreshedData(script, found, cpu);
        if (data) write(data, 0);
      }
    });
  }
  return script;
}

/**
 * For a repeat run much longer (CPU) than the one that wrote the entry `found` of `script`: the data to write
 * again, what this run compiled if that is more, else the same data (then recorded as written by this run,
 * so that only longer runs try again); undefined for other runs.
 */
function refreshedData(script, found, cpu) {
  if (cpu < Math.max(REFRESH_MIN_CPU_MS, 2 * found.cpu)) return undefined;
  const data = script.createCachedData();
  return data.length > found.data.length * 1.02 ? data : found.data;
}

/**
 * Files of the bundle that crdkit.cjs requires on first use, each with a code-cache entry of its own: its
 * chunks (scripts/bundle-split.mjs) and regexp-go.cjs.
 */
const CHUNK = /^\.\/[a-z0-9-]+\.cjs$/;

/**
 * The exports of a file of the bundle (`file`, CommonJS), compiled with a code-cache entry of its own beside
 * the bundle's (`bundleEntry`; none: no cache), named after the file and the bundle's command and variant,
 * kept as the bundle's is (compileWithEntry: a chunk of the CRD checks or of CEL rules compiles other
 * functions in a first-time run than in a repeat run).
 */
function loadChunk({ fs, vm, mod, path, crc }, bundleEntry, file, command, variant, firstTime) {
  const source = fs.readFileSync(file, "utf8");
  const st = fs.statSync(file);
  const entry =
    bundleEntry &&
    path.join(
      path.dirname(bundleEntry),
      `${command}.${path.basename(file, ".cjs")}-${st.size}-${Math.trunc(st.mtimeMs)}-${process.version}-${process.arch}${variant}.v8`,
    );
  const script = compileWithEntry({ fs, path, crc }, entry, firstTime, (cachedData) => new vm.Script(mod.wrap(source), { filename: file, cachedData }));
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, mod.createRequire(file), module, file, path.dirname(file));
  return module.exports;
}

/**
 * Bytes before an entry's data: length, CRC-32, CPU ms of the run that wrote it, flags (uint32 LE each).
 * An entry of another layout fails the length check and is written again.
 */
const HEADER = 16;
/**
 * Flag: written by a first-time run, one that added to the compiled-CRD cache (CRD checks, CEL compilation:
 * code that repeat runs of the same command skip). Its compiled code would cost every repeat run
 * deserialising functions it never calls while lacking some it does (the ones reading the cache): a repeat
 * run that used it marks it REPEAT_SEEN, the next run compiles afresh and, when it is a repeat run too,
 * replaces it with its own (a first-time run keeps it, clearing the mark). First-time runs never replace
 * a repeat run's entry.
 */
const FIRST_TIME = 1;
/** Flag: a repeat run used this first-time run's entry. */
const REPEAT_SEEN = 2;

/** The entry at `entry` when its length and CRC-32 are right: { data, cpu, flags }; else undefined. */
function readEntry(fs, entry, crc) {
  try {
    const buf = fs.readFileSync(entry);
    if (buf.length < HEADER || buf.readUInt32LE(0) !== buf.length - HEADER) return undefined;
    const data = buf.subarray(HEADER);
    if (buf.readUInt32LE(4) !== crc(data) >>> 0) return undefined;
    return { data, cpu: buf.readUInt32LE(8), flags: buf.readUInt32LE(12) };
  } catch {
    // no entry yet
    return undefined;
  }
}

/**
 * Runs shorter than this never rewrite an entry (making the data costs ~10-20 ms);
 * CRDKIT_CODE_CACHE_REFRESH_MS overrides it (tests).
 */
const REFRESH_MIN_CPU_MS = /^\d+$/.test(process.env.CRDKIT_CODE_CACHE_REFRESH_MS ?? "") ? Number(process.env.CRDKIT_CODE_CACHE_REFRESH_MS) : 400;

function cpuMs() {
  const u = process.cpuUsage();
  return Math.min(0xffffffff, Math.round((u.user + u.system) / 1000));
}

/** Code-cache entries of other builds of the same command kept beside the current build's. */
const KEPT_OTHER_BUILDS = 3;

function writeEntry(fs, path, entry, data, crc, cpu, flags) {
  const dir = path.dirname(entry);
  const tmp = `${entry}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true });
    const head = Buffer.alloc(HEADER);
    head.writeUInt32LE(data.length, 0);
    head.writeUInt32LE(crc(data) >>> 0, 4);
    head.writeUInt32LE(cpu, 8);
    head.writeUInt32LE(flags, 12);
    fs.writeFileSync(tmp, Buffer.concat([head, data]));
    fs.renameSync(tmp, entry);
    // entries of other builds of this command: the newest few are kept (two installs used in turn, say a
    // global and a project's own crdkit, must not rewrite each other's entry on every run), older ones go;
    // the current build's other entries (budgets, --no-cache) stay
    const name = path.basename(entry);
    const build = name.split("-").slice(0, 3).join("-");
    const others = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith(`${name.split("-")[0]}-`) && f.endsWith(".v8") && !f.startsWith(`${build}-`))
      .map((f) => ({ f, t: fs.statSync(path.join(dir, f), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of others.slice(KEPT_OTHER_BUILDS)) fs.rmSync(path.join(dir, f), { force: true });
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // nothing written
    }
  }
}

exports.loadCli = loadCli;
// for test/cli/load-cli-value-options.test.ts, which checks the list against src/cli/args.ts
exports.VALUE_OPTIONS = VALUE_OPTIONS;
