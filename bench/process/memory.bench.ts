/**
 * Memory of `crdkit validate` on large inputs: peak RSS of the whole process (GNU time's `%M`), for
 *   - a stream of small documents on stdin and as a file (default 100 MB, ~500k documents): memory must
 *     not grow with the number of documents — printed for a fifth of the stream too;
 *   - one document holding a 20 MiB string value (peak RSS against the document's size).
 *
 *   npm run bench:memory       CRDKIT_BENCH_STREAM_MB (default 100), CRDKIT_BIN (default bin/crdkit.js)
 *
 * Needs /usr/bin/time (Debian: `apt-get install -y time`); without it, says so and stops.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const bin = resolve(process.env["CRDKIT_BIN"] ?? join(import.meta.dirname, "../../bin/crdkit.js"));
const streamMb = Number(process.env["CRDKIT_BENCH_STREAM_MB"] ?? 100);
const TIME = "/usr/bin/time";

if (!existsSync(TIME)) {
  console.log(`${TIME} not found (Debian: apt-get install -y time): no memory measurement`);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), "crdkit-membench-"));
process.on("exit", () => rmSync(dir, { recursive: true, force: true }));

// the CronTab CRD of the Kubernetes documentation (replicas 1..10, a cronSpec pattern, defaults)
const crd = join(import.meta.dirname, "../../examples/crontab-crd.yaml");

/** Writes `bytes` of small CronTab documents; returns the number of documents. */
function writeStream(path: string, bytes: number): number {
  const fd = openSync(path, "w");
  let n = 0;
  let written = 0;
  let buf = "";
  while (written + buf.length < bytes) {
    buf += `---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ct-${n}\n  namespace: default\n  labels:\n    app: demo\nspec:\n  cronSpec: "* * * * */5"\n  image: my-awesome-cron-image:${n}\n  replicas: ${1 + (n % 10)}\n`;
    n++;
    if (buf.length > 1 << 20) {
      written += writeSync(fd, buf);
      buf = "";
    }
  }
  writeSync(fd, buf);
  closeSync(fd);
  return n;
}

/** Peak RSS (MiB) and CPU seconds of one crdkit run. */
function measure(args: string[], stdin?: string): { rss: number; cpu: number; status: number | null } {
  const input = stdin === undefined ? "ignore" : openSync(stdin, "r");
  const r = spawnSync(TIME, ["-f", "%M %U %S", process.execPath, bin, "validate", ...args], { stdio: [input, "ignore", "pipe"], encoding: "utf8" });
  if (typeof input === "number") closeSync(input);
  const lines = r.stderr.trim().split("\n");
  if (r.status === 2) console.log(lines.slice(0, 3).join("\n"));
  const last = lines.pop() ?? "";
  const [kb, u, s] = last.split(" ").map(Number);
  return { rss: (kb ?? Number.NaN) / 1024, cpu: (u ?? 0) + (s ?? 0), status: r.status };
}

const row = (name: string, m: { rss: number; cpu: number; status: number | null }, extra = "") =>
  console.log(`${name.padEnd(52)} peak RSS ${m.rss.toFixed(0).padStart(5)} MiB  CPU ${m.cpu.toFixed(1).padStart(6)} s  exit ${m.status}${extra}`);

const small = join(dir, "small.yaml");
const big = join(dir, "big.yaml");
const nSmall = writeStream(small, (streamMb * 1e6) / 5);
const nBig = writeStream(big, streamMb * 1e6);
console.log(`crdkit validate, peak RSS (GNU time %M)`);
row(`stdin, ${(streamMb / 5).toFixed(0)} MB, ${nSmall} documents`, measure(["--crds", crd, "-"], small));
row(`stdin, ${streamMb} MB, ${nBig} documents`, measure(["--crds", crd, "-"], big));
row(`file, ${streamMb} MB, ${nBig} documents`, measure(["--crds", crd, big]));

const key = join(dir, "key.yaml");
const size = 20 * 1024 * 1024;
writeFileSync(key, `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: big}\nspec:\n  image: ${"x".repeat(size)}\n`);
const m = measure(["--crds", crd, key]);
row("one document with a 20 MiB string", m, `  (${(m.rss / (size / 1024 / 1024)).toFixed(1)}x the document)`);
