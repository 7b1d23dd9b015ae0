// Builds crdkit.cjs (see ./bundle.mjs) as a core and chunks, each a CommonJS file of dist/bundle/ loaded on
// first use (with a V8 code-cache entry of its own, bin/load-cli.js): a `validate` run that meets no new
// CRD never reads, deserialises or initialises the CRD checks, the CEL checker, `check` or the output
// formats it did not ask for.
//
// A chunk is named by its *entry modules* (under dist/): the core (and other chunks) call into it through
// them only. Everything reachable from the entries that the core does not reach goes into the chunk.
// - In the core, an entry module is replaced by a stub that exports its functions, each calling the real one
//   in the chunk (loaded on the first call). Classes and constants cannot be stubbed: a core module that
//   imports one from an entry module fails the build ("No matching export"); move it to a module of its own.
// - A module used on both sides stays ONE copy: a chunk takes the core's modules (and those of chunks built
//   before it) from their owner at run time (`export const name = owner.name`, bound when the chunk loads),
//   never bundling its own copy; the build fails when a module lands in two outputs.
// Each chunk file is `module.exports = function (runtime) { ...; return <its modules' exports> }`, called by
// the core's loader with the core's runtime (chunk(name), owner(name)).
import { readFileSync } from "node:fs";
import { relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";

/** The chunks, in build order (a chunk takes modules from the core and the chunks before it). */
export const CHUNKS = [
  // CEL rules (x-kubernetes-validations): the rule validator, CEL environments, planner and evaluation, the
  // Kubernetes CEL library; loaded by the first document of a kind with rules
  { name: "rules", entries: ["rules/validate.js"] },
  // the CEL compiler (parser, checker, AST validators, cost estimation): when a rule is not in the compiled
  // programs cache (a first-time or --no-cache run, a node no run reached before)
  {
    name: "celcompile",
    entries: [
      "cel/parser/parser.js",
      "cel/checker/checker.js",
      "cel/checker/validators/homogeneous.js",
      "cel/checker/validators/literals.js",
      "cel/checker/validators/string-format.js",
      "cel/checker/validators/validator.js",
      "cel/cost/estimator.js",
      "cel/cost/lists-ext.js",
    ],
  },
  // the API server's CRD checks and CRD decoding: only when a CRD is checked (a first-time or --no-cache run, `check`)
  { name: "crdchecks", entries: ["pipeline/check-crd-create.js", "crdvalidation/validate-crd.js", "crd/decode-crd.js"] },
  // `crdkit check`
  { name: "check", entries: ["cli/check.js"] },
  // the built-in kinds' schema bundle, read when a built-in kind is first met without a cache entry
  { name: "builtin", entries: ["cli/builtin-loader.js", "cli/builtin-release.js"] },
  // output formats other than text
  { name: "formats", entries: ["cli/output/json.js", "cli/output/junit.js", "cli/output/github.js"] },
  // (not --kubeconfig's modules: imported with import(), their stubs would make esbuild wrap every module the
  // chunks take from the core in a lazy-init function, 29 -> 89 wrappers, for 6 KB less core)
];

const CHUNK_NAME = /^[a-z0-9]+$/;

/**
 * Builds dist/bundle/crdkit.cjs and the chunks. `options`: the esbuild options shared by all (minify, target,
 * define, ...); `rules(build)`: the resolve/load rules of the CLI bundle (externals, regexp-go.cjs), applied to each.
 * Returns the output files written.
 */
export async function buildSplitCli({ esbuild, root, dist, outdir, options, rules, banner, onMetafile }) {
  for (const c of CHUNKS) if (!CHUNK_NAME.test(c.name)) throw new Error(`bundle: chunk name ${c.name} must match ${CHUNK_NAME}`);
  const entryOwner = new Map();
  for (const c of CHUNKS) for (const e of c.entries) entryOwner.set(resolve(dist, e), c.name);
  const rel = (abs) => relative(dist, abs).split(sep).join("/");
  const names = new Map();
  const exportsOf = async (abs) => {
    if (!names.has(abs)) names.set(abs, await import(pathToFileURL(abs).href));
    return names.get(abs);
  };

  // pass 1 finds which exports of which modules each chunk takes from another output; pass 2 builds with
  // those exposed (only those: the owner keeps no export that nothing uses)
  const first = await buildAll(new Map(), undefined);
  const taken = takenExports(first.files);
  const second = await buildAll(taken, onMetafile);
  for (const [owner, set] of first.sets) {
    const again = second.sets.get(owner);
    if (again.size !== set.size || [...set].some((m) => !again.has(m))) throw new Error(`bundle: the modules of ${owner} changed between passes`);
  }
  for (const [owner, mods] of takenExports(second.files)) {
    for (const [abs, names] of mods) {
      const missing = [...names].filter((n) => !taken.get(owner)?.get(abs)?.has(n));
      if (missing.length > 0) throw new Error(`bundle: ${owner} does not expose ${missing.join(", ")} of ${rel(abs)}`);
    }
  }
  checkOneCopy(second.sets, rel);
  return second.files;

  /** Owner → module → the export names some chunk takes from it (read from the chunks' text). */
  function takenExports(files) {
    const taken = new Map();
    for (const file of files.slice(1)) {
      const text = readFileSync(file, "utf8");
      const vars = new Map();
      for (const m of text.matchAll(/(__crdkitOwned\d*)=(?:\/\* @__PURE__ \*\/\s*)?__crdkitTake\d*\("([a-z0-9]+)","([^"]+)"\)/g)) {
        vars.set(m[1], { owner: m[2], abs: resolve(dist, m[3]) });
      }
      const picks = [...text.matchAll(/__crdkitPick\d*\((__crdkitOwned\d*),"([\w$]+)"\)/g)];
      if (picks.length !== (text.match(/__crdkitPick\d*\(/g) ?? []).length) throw new Error(`bundle: ${file}: exports taken in an unexpected form`);
      for (const m of picks) {
        const v = vars.get(m[1]);
        if (v === undefined) throw new Error(`bundle: ${file}: ${m[0]} without its module`);
        if (!taken.has(v.owner)) taken.set(v.owner, new Map());
        const mods = taken.get(v.owner);
        if (!mods.has(v.abs)) mods.set(v.abs, new Set());
        mods.get(v.abs).add(m[2]);
      }
    }
    return taken;
  }

  async function buildAll(expose, onMetafile) {
    const sets = new Map();
    const files = [];
    const outputs = [{ name: "core", entries: [] }, ...CHUNKS];
    for (const out of outputs) {
      const isCore = out.name === "core";
      const outfile = resolve(outdir, isCore ? "crdkit.cjs" : `${out.name}.cjs`);
      const result = await esbuild.build({
        ...options,
        absWorkingDir: root,
        entryPoints: isCore ? [resolve(dist, "cli", "main.js")] : [`crdkit-entry:${out.name}`],
        outfile,
        metafile: true,
        // a stub without the name imported is a build error (see above), never an undefined value
        logOverride: { "import-is-undefined": "error" },
        banner: {
          js: isCore
            ? banner
            : `module.exports = function (__crdkitRuntime) {\nconst module = { exports: {} };\nconst exports = module.exports;\n${banner}`,
        },
        footer: isCore ? undefined : { js: "return module.exports.exposed();\n};" },
        plugins: [splitPlugin(out.name, sets, expose)],
      });
      const set = new Set();
      for (const key of Object.keys(result.metafile.inputs)) if (!key.startsWith("crdkit-")) set.add(resolve(root, key));
      sets.set(out.name, set);
      files.push(outfile);
      onMetafile?.(out.name, result.metafile);
    }
    return { sets, files };
  }

  function splitPlugin(owner, sets, expose) {
    const isCore = owner === "core";
    const before = isCore ? [] : ["core", ...CHUNKS.slice(0, CHUNKS.findIndex((c) => c.name === owner)).map((c) => c.name)];
    return {
      name: "crdkit-split",
      setup(build) {
        build.onResolve({ filter: /^crdkit-entry:/ }, (args) => ({ path: args.path.slice("crdkit-entry:".length), namespace: "crdkit-entry" }));
        build.onResolve({ filter: /^crdkit:(runtime|exposed)$/ }, (args) => ({ path: args.path.slice("crdkit:".length), namespace: "crdkit-runtime" }));
        build.onResolve({ filter: /^(\.\.?\/|\/)/ }, (args) => {
          if (args.namespace !== "file" && args.namespace !== "crdkit-entry" && args.namespace !== "crdkit-runtime") return undefined;
          const abs = resolve(args.resolveDir || dist, args.path);
          if (!abs.startsWith(dist + sep) || !abs.endsWith(".js")) return undefined;
          // a module of the core or of a chunk built before: taken from there (the chunk is loaded with this one)
          for (const o of before) {
            if (sets.get(o)?.has(abs)) {
              return { path: abs, namespace: "crdkit-ref", pluginData: { owner: o } };
            }
          }
          // an entry of another chunk: its functions, loading that chunk on the first call
          const chunk = entryOwner.get(abs);
          if (chunk !== undefined && chunk !== owner) return { path: abs, namespace: "crdkit-stub", pluginData: { chunk } };
          return undefined;
        });
        rules(build);
        // a chunk's entry: its entry modules and the modules later chunks take from it, by owner-relative name
        // mods: module → the names to expose (undefined: all)
        const exposedModule = async (mods) => {
          const lines = [];
          const props = [];
          let i = 0;
          for (const [abs, names] of mods) {
            const ns = names ? [...names].sort() : Object.keys(await exportsOf(abs));
            if (ns.includes("default")) throw new Error(`bundle: ${rel(abs)} has a default export, which the chunks cannot share`);
            lines.push(`import { ${ns.map((n) => `${n} as m${i}_${n}`).join(", ")} } from ${JSON.stringify(abs)};`);
            props.push(`${JSON.stringify(rel(abs))}: { ${ns.map((n) => `${n}: m${i}_${n}`).join(", ")} }`);
            i++;
          }
          return `${lines.join("\n")}\nexport function exposed() {\n  return { ${props.join(",\n    ")} };\n}\n`;
        };
        build.onLoad({ filter: /.*/, namespace: "crdkit-entry" }, async (args) => {
          const chunk = CHUNKS.find((c) => c.name === args.path);
          const mods = new Map(expose.get(chunk.name));
          for (const e of chunk.entries) mods.set(resolve(dist, e), undefined);
          return { contents: await exposedModule(mods), resolveDir: dist, loader: "js" };
        });
        build.onLoad({ filter: /.*/, namespace: "crdkit-runtime" }, async (args) => {
          if (args.path === "exposed") return { contents: await exposedModule(expose.get("core") ?? []), resolveDir: dist, loader: "js" };
          if (!isCore) {
            return {
              contents:
                "export const chunk = (name) => __crdkitRuntime.chunk(name);\nexport const __crdkitTake = (owner, module) => __crdkitRuntime.owner(owner)[module];\nexport const __crdkitPick = (m, name) => m[name];\n",
              loader: "js",
            };
          }
          // the core's loader: each chunk file required once, its factory called with this runtime
          const cases = CHUNKS.map((c) => `    case ${JSON.stringify(c.name)}: return require(${JSON.stringify(`./${c.name}.cjs`)});`).join("\n");
          return {
            contents: `import { exposed } from "crdkit:exposed";
const loaded = new Map();
let core;
function file(name) {
  switch (name) {
${cases}
  }
  throw new Error("crdkit: no chunk " + name);
}
export function chunk(name) {
  let c = loaded.get(name);
  if (c === undefined) {
    let factory;
    try {
      factory = file(name);
    } catch (e) {
      throw new Error("crdkit: cannot load " + name + ".cjs beside crdkit.cjs (" + (e instanceof Error ? e.message : String(e)) + "); the build is incomplete: run \`npm run build\`");
    }
    c = factory(runtime);
    loaded.set(name, c);
  }
  return c;
}
export function owner(name) {
  return name === "core" ? (core ??= exposed()) : chunk(name);
}
const runtime = { chunk, owner };
`,
            resolveDir: dist,
            loader: "js",
          };
        });
        build.onLoad({ filter: /.*/, namespace: "crdkit-stub" }, async (args) => {
          const mod = await exportsOf(args.path);
          const fns = Object.keys(mod).filter((n) => typeof mod[n] === "function" && !/^class\b/.test(Function.prototype.toString.call(mod[n])));
          const name = JSON.stringify(rel(args.path));
          return {
            contents: `import { chunk as __crdkitChunk } from "crdkit:runtime";
let __crdkitLoaded;
const __crdkitModule = () => (__crdkitLoaded ??= __crdkitChunk(${JSON.stringify(args.pluginData.chunk)})[${name}]);
${fns.map((f) => `export function ${f}(...args) {\n  return __crdkitModule().${f}(...args);\n}`).join("\n")}
`,
            resolveDir: dist,
            loader: "js",
          };
        });
        build.onLoad({ filter: /.*/, namespace: "crdkit-ref" }, async (args) => {
          const ns = Object.keys(await exportsOf(args.path));
          return {
            // (pure: esbuild drops the names this chunk does not use, and the owner exposes only the others)
            contents: `import { __crdkitTake, __crdkitPick } from "crdkit:runtime";
const __crdkitOwned = /* @__PURE__ */ __crdkitTake(${JSON.stringify(args.pluginData.owner)}, ${JSON.stringify(rel(args.path))});
${ns.map((n) => `export const ${n} = /* @__PURE__ */ __crdkitPick(__crdkitOwned, ${JSON.stringify(n)});`).join("\n")}
`,
            resolveDir: dist,
            loader: "js",
          };
        });
      },
    };
  }
}

/** Fails the build when a module is bundled into two outputs (two copies: two classes, two caches). */
export function checkOneCopy(sets, rel) {
  const where = new Map();
  const twice = [];
  for (const [owner, set] of sets) {
    for (const m of set) {
      if (where.has(m)) twice.push(`${rel(m)} (${where.get(m)} and ${owner})`);
      else where.set(m, owner);
    }
  }
  if (twice.length > 0) throw new Error(`bundle: modules in two outputs: ${twice.join(", ")}`);
}
