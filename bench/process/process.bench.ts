/**
 * Whole-process benchmark of `crdkit validate` against its peers on the corpus (/work/shared/corpus or
 * $CRDKIT_CORPUS): one process per project and tool, `validate --crds <project>/crds <project>/examples`,
 * CPU seconds (user + sys of the child, from bash's `times`), several interleaved rounds, medians.
 *
 * Peers (run when found in $GOPATH/bin or on PATH; install with Go):
 *   kubeconform -strict -n 1 (CRDs converted by ./kubeconform-schemas.ts)
 *     nice go install github.com/yannh/kubeconform/cmd/kubeconform@v0.7.0
 *   kubectl-validate --local-crds
 *     nice go install sigs.k8s.io/kubectl-validate@latest
 * Without them it says so and runs crdkit alone.
 *
 * Also measured: a cold process validating one small resource against one CRD, and one file against all
 * prometheus-operator CRDs (the "compile only what is used" case).
 *
 *   npm run bench:process      CRDKIT_BENCH_ROUNDS (default 3), CRDKIT_BENCH_PROJECTS=a,b (filter),
 *                              CRDKIT_BIN (default bin/crdkit.js), CRDKIT_BENCH_ARGS (extra crdkit flags),
 *                              CRDKIT_BASELINE_BIN (another crdkit build, e.g. before a change, run alike),
 *                              CRDKIT_BENCH_SKIP=kubectl-validate (peers to leave out)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { corpusRoot } from "../../test/corpus-root.js";
import { writeKubeconformSchemas } from "./kubeconform-schemas.js";

const root = corpusRoot();
const rounds = Number(process.env["CRDKIT_BENCH_ROUNDS"] ?? 3);
const bin = resolve(process.env["CRDKIT_BIN"] ?? join(import.meta.dirname, "../../bin/crdkit.js"));
const extra = (process.env["CRDKIT_BENCH_ARGS"] ?? "").split(" ").filter((s) => s !== "");
const only = process.env["CRDKIT_BENCH_PROJECTS"]?.split(",");
const baseline = process.env["CRDKIT_BASELINE_BIN"];
/**
 * The baseline build runs with its own cache directory: the two builds share V8 code-cache entry names
 * (one per command), so in one directory each run would drop the other build's entry and compile the
 * whole CLI again.
 */
const baselineRun = (args: string[]): [string, string[]] => ["env", [`XDG_CACHE_HOME=${join(work, "cache-baseline")}`, "node", resolve(baseline!), ...args]];
const skip = (process.env["CRDKIT_BENCH_SKIP"] ?? "").split(",");

function findTool(name: string): string | undefined {
  const gopath = (() => {
    try {
      return execFileSync("go", ["env", "GOPATH"], { encoding: "utf8" }).trim();
    } catch {
      return "";
    }
  })();
  const candidates = [gopath && join(gopath, "bin", name), ...(process.env["PATH"] ?? "").split(":").map((d) => join(d, name))];
  return candidates.find((p) => p && existsSync(p));
}

/** CPU seconds (user + sys) of one child process run through bash's `times`. */
function cpuSeconds(cmd: string, args: readonly string[]): number {
  const r = spawnSync("bash", ["-c", '"$@" >/dev/null 2>&1; times', "bench", cmd, ...args], { encoding: "utf8" });
  const lines = r.stdout.trim().split("\n");
  const children = lines[lines.length - 1] ?? "";
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return (secs[0] ?? Number.NaN) + (secs[1] ?? 0);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Tool {
  name: string;
  run: (project: string, crds: string, examples: string) => [string, string[]] | undefined;
}

if (!existsSync(root)) {
  console.log(`corpus not found at ${root} (set CRDKIT_CORPUS)`);
  process.exit(0);
}
const kubeconform = skip.includes("kubeconform") ? "" : (findTool("kubeconform") ?? "");
const kubectlValidate = skip.includes("kubectl-validate") ? "" : (findTool("kubectl-validate") ?? "");
const work = mkdtempSync(join(tmpdir(), "crdkit-bench-"));
const projects = readdirSync(root)
  .filter((p) => existsSync(join(root, p, "crds")) && existsSync(join(root, p, "examples")))
  .filter((p) => !only || only.includes(p))
  .sort();

// crdkit twice: without the compiled-CRD cache (a first run), and with a warm one (repeat CI runs; the
// cache lives in a temporary XDG_CACHE_HOME, filled by one unmeasured run per project)
process.env["XDG_CACHE_HOME"] = join(work, "cache");
const tools: Tool[] = [
  { name: "crdkit --no-cache", run: (_p, crds, ex) => ["node", [bin, "validate", "--no-cache", ...extra, "--crds", crds, ex]] },
  { name: "crdkit (warm cache)", run: (_p, crds, ex) => ["node", [bin, "validate", ...extra, "--crds", crds, ex]] },
];
if (baseline) tools.push({ name: "crdkit baseline (warm)", run: (_p, crds, ex) => baselineRun(["validate", "--crds", crds, ex]) });
if (kubeconform) {
  for (const p of projects) writeKubeconformSchemas(join(work, p), [join(root, p, "crds")]);
  tools.push({
    name: "kubeconform -strict -n 1",
    run: (p, _crds, ex) => [
      kubeconform,
      ["-strict", "-n", "1", "-summary", "-ignore-missing-schemas", "-schema-location", join(work, p, "{{.ResourceKind}}-{{.Group}}-{{.ResourceAPIVersion}}.json"), ex],
    ],
  });
} else if (skip.includes("kubeconform")) console.log("kubeconform skipped (CRDKIT_BENCH_SKIP)");
else console.log("kubeconform not found (Go: nice go install github.com/yannh/kubeconform/cmd/kubeconform@v0.7.0): crdkit alone");
if (kubectlValidate) tools.push({ name: "kubectl-validate", run: (_p, crds, ex) => [kubectlValidate, [ex, "--local-crds", crds]] });
else if (skip.includes("kubectl-validate")) console.log("kubectl-validate skipped (CRDKIT_BENCH_SKIP)");
else console.log("kubectl-validate not found (Go: nice go install sigs.k8s.io/kubectl-validate@latest): skipped");

// Node.js 20 builds its root certificate store, plus the extra file, at the start of every process when
// NODE_EXTRA_CA_CERTS is set, before any script runs: a cost of the machine's environment that every
// crdkit process pays and the Go peers do not. Measured here so that the table can be read with it.
if (process.env["NODE_EXTRA_CA_CERTS"]) {
  const withVar: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < 5; i++) {
    withVar.push(cpuSeconds(process.execPath, ["-e", "0"]));
    without.push(cpuSeconds("env", ["-u", "NODE_EXTRA_CA_CERTS", process.execPath, "-e", "0"]));
  }
  const ms = (xs: number[]) => `${(median(xs) * 1000).toFixed(0)} ms`;
  console.log(`note: NODE_EXTRA_CA_CERTS is set: \`node -e 0\` takes ${ms(withVar)} CPU, ${ms(without)} without it (Node.js ${process.version}; paid by every crdkit process)`);
}

// one unmeasured run per project fills the caches (the baseline's too: its rows are warm-cache runs)
for (const p of projects) {
  cpuSeconds("node", [bin, "validate", ...extra, "--crds", join(root, p, "crds"), join(root, p, "examples")]);
  if (baseline) cpuSeconds(...baselineRun(["validate", "--crds", join(root, p, "crds"), join(root, p, "examples")]));
}
const samples = new Map<string, number[]>(); // `${tool}\0${project}` → CPU seconds per round
for (let r = 0; r < rounds; r++) {
  for (const p of projects) {
    for (const t of tools) {
      const cmd = t.run(p, join(root, p, "crds"), join(root, p, "examples"));
      if (!cmd) continue;
      const k = `${t.name}\0${p}`;
      samples.set(k, [...(samples.get(k) ?? []), cpuSeconds(cmd[0], cmd[1])]);
    }
  }
}

console.log(`corpus examples, one process per project and tool, CPU seconds (user+sys), median of ${rounds} interleaved rounds`);
console.log(["project".padEnd(26), ...tools.map((t) => t.name.padStart(26))].join(""));
const totals = tools.map(() => 0);
for (const p of projects) {
  const row = tools.map((t, i) => {
    const m = median(samples.get(`${t.name}\0${p}`) ?? [Number.NaN]);
    totals[i]! += m;
    return m.toFixed(2).padStart(26);
  });
  console.log([p.padEnd(26), ...row].join(""));
}
console.log(["TOTAL".padEnd(26), ...totals.map((x) => x.toFixed(2).padStart(26))].join(""));
for (let c = 0; c < 2; c++) {
  for (let i = 2; i < tools.length; i++) {
    const ratio = totals[i]! / totals[c]!;
    console.log(`${tools[c]!.name} vs ${tools[i]!.name}: ${ratio >= 1 ? `${ratio.toFixed(2)}x faster` : `${(1 / ratio).toFixed(2)}x slower`} (ratio ${ratio.toFixed(2)})`);
  }
}

// Cold start: one small resource, one CRD; and one file against every prometheus-operator CRD.
const examples = join(import.meta.dirname, "../../examples");
const single: [string, [string, string[]]][] = [
  ["node -e 0 (Node.js startup alone)", ["node", ["-e", "0"]]],
  ["crdkit, 1 resource, 1 CRD, --no-cache", ["node", [bin, "validate", "--no-cache", ...extra, "--crds", join(examples, "crontab-crd.yaml"), join(examples, "crontab-valid.yaml")]]],
  ["crdkit, 1 resource, 1 CRD, warm cache", ["node", [bin, "validate", ...extra, "--crds", join(examples, "crontab-crd.yaml"), join(examples, "crontab-valid.yaml")]]],
];
const prom = join(root, "prometheus-operator");
if (existsSync(prom)) {
  for (const cache of [false, true]) {
    single.push([
      `crdkit, 1 file, prometheus-operator CRDs${cache ? ", warm cache" : ", --no-cache"}`,
      ["node", [bin, "validate", ...(cache ? [] : ["--no-cache"]), ...extra, "--crds", join(prom, "crds"), join(prom, "examples", "admission-webhook__service-monitor.yaml")]],
    ]);
  }
}
if (baseline) {
  single.push(["crdkit baseline, 1 resource, 1 CRD", baselineRun(["validate", "--crds", join(examples, "crontab-crd.yaml"), join(examples, "crontab-valid.yaml")])]);
  if (existsSync(prom)) {
    single.push([
      "crdkit baseline, 1 file, prometheus-operator CRDs",
      baselineRun(["validate", "--crds", join(prom, "crds"), join(prom, "examples", "admission-webhook__service-monitor.yaml")]),
    ]);
  }
}
if (kubeconform) {
  writeKubeconformSchemas(join(work, "crontab"), [join(examples, "crontab-crd.yaml")]);
  single.push([
    "kubeconform, 1 resource, 1 CRD",
    [kubeconform, ["-strict", "-n", "1", "-schema-location", join(work, "crontab", "{{.ResourceKind}}-{{.Group}}-{{.ResourceAPIVersion}}.json"), join(examples, "crontab-valid.yaml")]],
  ]);
}
const n = Math.max(5, rounds * 2);
const singleSamples = single.map(() => [] as number[]);
for (const [, [c, a]] of single) cpuSeconds(c, a); // fills the cache for the warm-cache runs
for (let r = 0; r < n; r++) {
  single.forEach(([, [c, a]], i) => {
    singleSamples[i]!.push(cpuSeconds(c, a));
  });
}
console.log(`\nsingle processes, CPU ms, median of ${n} interleaved runs`);
single.forEach(([name], i) => {
  console.log(`${name.padEnd(44)} ${(median(singleSamples[i]!) * 1000).toFixed(0).padStart(7)} ms`);
});
rmSync(work, { recursive: true, force: true });
