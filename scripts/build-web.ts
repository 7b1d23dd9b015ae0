/**
 * Builds the playground (`web/`) into `web/dist` with esbuild: `main.js` (the page: CodeMirror 6 and the
 * UI), `worker.js` (crdkit's engine, imported through the package's `crdkit/browser` entry, i.e. `dist/`
 * as built by `npm run build`), the HTML and CSS. Prints each file's size and gzipped size, and the
 * engine's share of the worker measured with esbuild's metafile.
 *
 *   npm run build:web            (runs `npm run build` first)
 *   node --import tsx scripts/build-web.ts [--out DIR] [--quiet]
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build, type Metafile, type Plugin } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const WEB = join(ROOT, "web");

/** The engine's gzipped budget (issue 16). */
export const ENGINE_BUDGET_GZIP = 250 * 1024;

export interface WebBuild {
  outDir: string;
  files: { name: string; bytes: number; gzip: number }[];
  /** Bytes of crdkit's engine (dist/ and its dependencies) in worker.js, from the metafile. */
  engineBytes: number;
  /** Gzipped size of worker.js, which is the engine plus a few lines of glue. */
  engineGzip: number;
  /** Raw bytes per package / folder in worker.js. */
  engineBreakdown: Record<string, number>;
}

/**
 * Resolves `crdkit` and `crdkit/…` as a package consumer would, through package.json `exports` with the
 * `browser` condition (esbuild does not resolve a package's references to itself).
 */
function selfReference(): Plugin {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, unknown> };
  return {
    name: "crdkit-self-reference",
    setup(b) {
      b.onResolve({ filter: /^crdkit(\/.*)?$/ }, (args) => {
        const sub = args.path === "crdkit" ? "." : `.${args.path.slice("crdkit".length)}`;
        const entry = pkg.exports[sub];
        const target = typeof entry === "string" ? entry : (entry as Record<string, string> | undefined)?.["browser"] ?? (entry as Record<string, string> | undefined)?.["import"];
        if (!target) return { errors: [{ text: `crdkit does not export ${JSON.stringify(sub)}` }] };
        return { path: join(ROOT, target) };
      });
    },
  };
}

function groupOf(input: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
  if (m) return m[1]!;
  const parts = input.split("/");
  return parts[0] === "dist" ? `dist/${parts[1]?.endsWith(".js") ? "" : (parts[1] ?? "")}` : parts[0]!;
}

/** Builds the page into `outDir` (default web/dist). */
export async function buildWeb(outDir = join(WEB, "dist")): Promise<WebBuild> {
  mkdirSync(outDir, { recursive: true });
  const common = {
    bundle: true,
    format: "esm" as const,
    platform: "browser" as const,
    target: "es2022",
    minify: true,
    sourcemap: false,
    metafile: true,
    logLevel: "warning" as const,
    absWorkingDir: ROOT,
    plugins: [selfReference()],
  };
  const page = await build({ ...common, entryPoints: { main: join(WEB, "src/main.ts") }, outdir: outDir });
  const worker = await build({ ...common, entryPoints: { worker: join(WEB, "src/worker.ts") }, outdir: outDir });
  copyFileSync(join(WEB, "index.html"), join(outDir, "index.html"));
  copyFileSync(join(WEB, "playground.css"), join(outDir, "playground.css"));
  const files = ["index.html", "playground.css", "main.js", "worker.js"].map((name) => {
    const data = readFileSync(join(outDir, name));
    return { name, bytes: data.length, gzip: gzipSync(data, { level: 9 }).length };
  });
  const breakdown: Record<string, number> = {};
  let engineBytes = 0;
  const meta: Metafile = worker.metafile!;
  for (const out of Object.values(meta.outputs)) {
    for (const [input, info] of Object.entries(out.inputs)) {
      const g = groupOf(input);
      breakdown[g] = (breakdown[g] ?? 0) + info.bytesInOutput;
      if (!input.startsWith("web/")) engineBytes += info.bytesInOutput;
    }
  }
  // the metafiles stay out of web/dist (which ships in the npm package)
  const metaDir = join(WEB, ".build");
  mkdirSync(metaDir, { recursive: true });
  writeFileSync(join(metaDir, "meta-main.json"), JSON.stringify(page.metafile));
  writeFileSync(join(metaDir, "meta-worker.json"), JSON.stringify(meta));
  return { outDir, files, engineBytes, engineGzip: files.find((f) => f.name === "worker.js")!.gzip, engineBreakdown: breakdown };
}

/** A size table for humans. */
export function formatBuild(b: WebBuild): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const lines = [`web build in ${relative(ROOT, b.outDir) || "."}:`];
  for (const f of b.files) lines.push(`  ${f.name.padEnd(16)} ${kb(f.bytes).padStart(10)}  gzip ${kb(f.gzip).padStart(9)}`);
  const total = b.files.reduce((s, f) => s + f.gzip, 0);
  lines.push(`  ${"total".padEnd(16)} ${kb(b.files.reduce((s, f) => s + f.bytes, 0)).padStart(10)}  gzip ${kb(total).padStart(9)}`);
  lines.push(`engine (worker.js): ${kb(b.engineBytes)} of crdkit and its dependencies, ${kb(b.engineGzip)} gzipped (budget ${kb(ENGINE_BUDGET_GZIP)})`);
  const top = Object.entries(b.engineBreakdown).sort((a, c) => c[1] - a[1]).slice(0, 8);
  lines.push(`  largest parts: ${top.map(([k, v]) => `${k} ${kb(v)}`).join(", ")}`);
  return lines.join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const i = args.indexOf("--out");
  const b = await buildWeb(i >= 0 && args[i + 1] ? resolve(args[i + 1]!) : undefined);
  if (!args.includes("--quiet")) console.log(formatBuild(b));
  if (b.engineGzip > ENGINE_BUDGET_GZIP) {
    console.error(`the engine is over its budget: ${b.engineGzip} > ${ENGINE_BUDGET_GZIP} bytes gzipped`);
    process.exitCode = 1;
  }
}
