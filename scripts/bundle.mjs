// Bundles the compiled CLI (dist/cli/*.js) with esbuild, run by `npm run build` after tsc, into dist/bundle/:
// - crdkit.cjs: the CLI but the server (and Go's regexp parser, below) as a CommonJS core: no module
//   resolution, no ESM facades of Node's modules, a script that bin/load-cli.js compiles with V8's code
//   cache — a cold start pays neither parsing nor compiling again. What a run may not need (CEL rules, the
//   CEL compiler, the CRD checks, `check`, the built-in schemas, output formats) is in chunks beside it
//   (rules.cjs, ...; see ./bundle-split.mjs), each required on first use with a code-cache entry of its
//   own. Lazily loaded parts (`--kubeconfig`) are wrapped by esbuild and run on demand.
// - regexp-go.cjs: Go's regexp parser and compiler with Go's Unicode tables (src/go/regexp-go.ts), required
//   by crdkit.cjs on first use (its own code-cache entry).
// - main.js, serve.js, validate-worker.js (+ chunks): ES modules, packages external. `crdkit serve`
//   (imported by crdkit.cjs on demand) and the `-j` worker threads run these.
// bin/crdkit.js falls back to dist/cli/main.js when the bundle is missing (esbuild not installed).
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSplitCli } from "./bundle-split.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const outdir = join(root, "dist", "bundle");
let esbuild;
try {
  esbuild = await import("esbuild");
} catch {
  rmSync(outdir, { recursive: true, force: true });
  console.error("bundle: esbuild is not installed; bin/crdkit.js runs the unbundled dist/cli/main.js");
  process.exit(0);
}
rmSync(outdir, { recursive: true, force: true });
const cli = (name) => join(root, "dist", "cli", `${name}.js`);
await esbuild.build({
  entryPoints: { main: cli("main"), serve: cli("serve"), "validate-worker": cli("validate-worker"), "serve-worker": cli("serve-worker") },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "warning",
});
// packages bundled into crdkit.cjs: pure JavaScript, used by validate and check (none now)
const inlined = new Set();
// Go's regexp parser and compiler with Go's Unicode tables, for crdkit.cjs: required by the first pattern
// outside the simple subset (src/go/regexp-go-module.ts)
// the options of every CommonJS file of the CLI bundle (less text to read and hash; names are kept:
// messages and stack traces stay readable)
const cjsOptions = {
  bundle: true,
  minifyWhitespace: true,
  minifySyntax: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  logLevel: "warning",
};
await esbuild.build({
  ...cjsOptions,
  entryPoints: [join(root, "dist", "go", "regexp-go.js")],
  outfile: join(outdir, "regexp-go.cjs"),
});
// the resolve and load rules of crdkit.cjs and its chunks
function cliRules(build) {
  // the server: the ES module bundle beside this file, imported when `crdkit serve` runs
  build.onResolve({ filter: /^\.\/serve\.js$/ }, () => ({ path: "./serve.js", external: true }));
  // Go's regexp parser and compiler on first use (src/go/regexp-go-module.ts), from a file of their own
  // beside this one (regexp-go.cjs, above): runs whose patterns are all in the simple subset never
  // load them, and bin/load-cli.js gives the file a V8 code-cache entry of its own
  build.onLoad({ filter: /[\\/]dist[\\/]go[\\/]regexp-go-module\.js$/ }, () => ({
    contents: 'let mod;\nexport function goRegexpModule() {\n  mod ??= require("./regexp-go.cjs");\n  return mod;\n}\n',
    loader: "js",
  }));
  build.onResolve({ filter: /^\.\/regexp-go\.cjs$/ }, () => ({ path: "./regexp-go.cjs", external: true }));
  // a static import of the parser, compiler or tables would put a second copy in crdkit.cjs, read at
  // every start (and its GoSyntaxError would not be the class goRegexpModule() gives)
  build.onResolve({ filter: /\/regexp-(go|syntax|syntax-class|compile|prefilter|unicode|unicode-tables)\.js$/ }, (args) => ({
    errors: [{ text: `${args.importer} imports ${args.path}: take Go's regexp parser and compiler from goRegexpModule() (src/go/regexp-go-module.ts), which the CLI bundle loads from regexp-go.cjs on first use` }],
  }));
  // the chunks of crdkit.cjs (./bundle-split.mjs), required by its loader
  build.onResolve({ filter: /^\.\/[a-z0-9]+\.cjs$/ }, (args) => ({ path: args.path, external: true }));
  build.onResolve({ filter: /^[^./]/ }, (args) => {
    if (args.path.startsWith("node:")) return { path: args.path, external: true };
    const pkg = args.path.startsWith("@") ? args.path.split("/").slice(0, 2).join("/") : args.path.split("/")[0];
    return inlined.has(pkg) ? undefined : { path: args.path, external: true };
  });
}
// crdkit.cjs: the core of `validate` and `check`, with chunks loaded on first use (./bundle-split.mjs)
const cjsFiles = await buildSplitCli({
  esbuild,
  root,
  dist: join(root, "dist"),
  outdir,
  rules: cliRules,
  // import.meta.url of the modules (schemas/, package.json, the worker script are found from it)
  banner: 'const __crdkitModuleUrl = require("node:url").pathToFileURL(__filename).href;',
  options: {
    ...cjsOptions,
    define: { "import.meta.url": "__crdkitModuleUrl" },
  },
});
// crdkit.cjs in ASCII: esbuild escapes strings, templates and identifiers but leaves non-ASCII characters in
// regular expression literals (`µs` in duration units), and one such character makes the whole source a
// two-byte string (twice the memory; ~1.5 ms more to read at every start). \uXXXX means the same there
// (and in comments); an identity escape of the character (`\µ`) is the character itself.
for (const cjs of [...cjsFiles, join(outdir, "regexp-go.cjs")]) {
  const text = readFileSync(cjs, "utf8");
  const nonAscii = /(\\*)([^\x00-\x7f])/g;
  if (nonAscii.test(text)) {
    const escaped = (_, slashes, c) => `${slashes.slice(slashes.length % 2)}\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
    writeFileSync(cjs, text.replace(nonAscii, escaped));
  }
}
// the chunks' names and sizes on crdkit.cjs's first line: bin/load-cli.js checks them before loading the core
// (a missing or truncated chunk: it runs the unbundled dist/cli/main.js instead of failing mid-run)
const core = join(outdir, "crdkit.cjs");
const sizes = Object.fromEntries([...cjsFiles.filter((f) => f !== core), join(outdir, "regexp-go.cjs")].map((f) => [basename(f, ".cjs"), statSync(f).size]));
writeFileSync(core, `//crdkit-chunks ${JSON.stringify(sizes)}\n${readFileSync(core, "utf8")}`);
