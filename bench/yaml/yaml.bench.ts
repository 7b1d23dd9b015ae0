/**
 * Benchmark: YAML decoding speed (src/io `decodeDocuments`, crdkit's go-yaml v2 port) in MB/s over the
 * corpus examples and the corpus CRD files, with the `yaml` and `js-yaml` packages on the same files for
 * reference, then the time of huge flow sequences / mappings and long scalars at growing sizes (each
 * size should cost about twice the previous: linear time). CPU time (user+sys) of this process; rounds
 * interleaved, median printed.
 *
 *   npm run bench:yaml [-- --rounds 5] [-- --impl /path/to/other/src/io/decode.ts] [-- --no-peers]
 *
 * `--impl` adds another build of decodeDocuments (an older checkout) to compare in the same run;
 * `--no-peers` leaves out the yaml and js-yaml packages.
 * The corpus is read from CRDKIT_CORPUS (default ../shared/corpus).
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import * as jsYaml from "js-yaml";
import { parseAllDocuments } from "yaml";
import { decodeDocuments } from "../../src/io/decode.js";
import { corpusRoot } from "../../test/corpus-root.js";

type Decoder = (text: string) => unknown;

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

process.removeAllListeners("warning");
const rounds = Number(flag("rounds") ?? 5);
const implPath = flag("impl");

function yamlFiles(dir: string, out: string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (n.endsWith(".yaml") || n.endsWith(".yml")) out.push(p);
  }
  return out;
}

function load(kind: "examples" | "crds"): string[] {
  const root = corpusRoot();
  const files: string[] = [];
  for (const project of readdirSync(root).sort()) {
    const d = join(root, project);
    if (statSync(d).isDirectory()) yamlFiles(join(d, kind), files);
  }
  return files.map((f) => readFileSync(f, "utf8"));
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

const decoders: [string, Decoder][] = [["crdkit", (t) => decodeDocuments(t)]];
if (implPath) {
  const other = (await import(implPath)) as { decodeDocuments: Decoder };
  decoders.push([`crdkit@${implPath}`, (t) => other.decodeDocuments(t)]);
}
const peers: [string, Decoder][] = process.argv.includes("--no-peers") ? [] : [
  ["yaml (npm)", (t) => parseAllDocuments(t).map((d) => (Array.isArray(d) ? null : d.toJS({ maxAliasCount: -1 })))],
  ["js-yaml", (t) => jsYaml.loadAll(t)],
];

function time(dec: Decoder, texts: string[]): number {
  const t0 = cpuMs();
  for (const t of texts) {
    try {
      dec(t);
    } catch {
      // peers throw on some documents; crdkit never does
    }
  }
  return cpuMs() - t0;
}

for (const kind of ["examples", "crds"] as const) {
  const texts = load(kind);
  const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  const all = [...decoders, ...peers];
  const samples = all.map(() => [] as number[]);
  for (const [, d] of all) time(d, texts.slice(0, 50)); // warm-up
  for (let r = 0; r < rounds; r++) for (let i = 0; i < all.length; i++) samples[i]!.push(time(all[i]![1], texts));
  console.log(`corpus ${kind}: ${texts.length} files, ${(bytes / 1e6).toFixed(1)} MB, median of ${rounds} rounds (CPU)`);
  all.forEach(([name], i) => {
    const ms = median(samples[i]!);
    console.log(`  ${name.padEnd(24)} ${ms.toFixed(0).padStart(7)} ms  ${(bytes / 1e6 / (ms / 1000)).toFixed(2).padStart(7)} MB/s`);
  });
}

const shapes: [string, (n: number) => string][] = [
  ["flow sequence [1,2,...]", (n) => `[${Array.from({ length: n }, (_, i) => i).join(",")}]\n`],
  ["flow mapping {k0: 0, ...}", (n) => `{${Array.from({ length: n }, (_, i) => `k${i}: ${i}`).join(", ")}}\n`],
  ["block sequence - x", (n) => Array.from({ length: n }, (_, i) => `- x${i}\n`).join("")],
  ["plain scalar 10n chars", (n) => `a: ${"x".repeat(n * 10)}\n`],
  ["folded plain scalar n lines", (n) => `a: ${Array.from({ length: n }, () => "word word").join("\n  ")}\n`],
  ["double-quoted 10n chars", (n) => `a: "${"y\\n".repeat(n * 5)}"\n`],
];
console.log("scaling (CPU ms per size; linear time doubles with n)");
for (const [name, gen] of shapes) {
  const sizes = [50_000, 100_000, 200_000];
  const cells: string[] = [];
  for (const [dn, d] of decoders) {
    const ms = sizes.map((n) => {
      const t = gen(n);
      return median(Array.from({ length: 3 }, () => time(d, [t])));
    });
    cells.push(`${dn}: ${ms.map((m) => m.toFixed(0)).join(" / ")}`);
  }
  console.log(`  ${name.padEnd(30)} n=${sizes.map((s) => s / 1000 + "k").join("/")}  ${cells.join("   ")}`);
}
