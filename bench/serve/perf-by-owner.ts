/**
 * On-CPU samples of one thread, charged to their owner: the innermost JavaScript frame's file (crdkit's dist/
 * files by function, Node's internals, grpc-js, undici), else the native part (V8's garbage collector,
 * nghttp2, llhttp, TLS, the kernel). V8's own profiler (--cpu-prof, phase-profile.ts) samples wall time and
 * charges a thread's waits to the function it was in when preempted; `perf record -e cpu-clock` counts only
 * time on a CPU. Round 7 of issue 15 (README) was measured with it:
 *
 *   perf record -e cpu-clock -F 1999 -g -o DATA -- node --perf-basic-prof --interpreted-frames-native-stack \
 *     --import tsx bench/serve/phase-profile.ts --tls --built --no-profile --creates=8000 --gets=1
 *   perf report -i DATA --no-children --sort pid --stdio -g none     # the server's main thread: the busiest
 *   perf script -i DATA --tid TID > samples.txt
 *   node --import tsx bench/serve/perf-by-owner.ts samples.txt [fromFraction=0] [toFraction=1]
 *
 * (the fractions pick a part of the run by time, e.g. 0.5 1 for its second half, after V8 warmed up).
 */
import { readFileSync } from "node:fs";

const [file, fromArg, toArg] = process.argv.slice(2);
if (!file) throw new Error("usage: perf-by-owner.ts PERF_SCRIPT_OUTPUT [from] [to]");
const samples: { t: number; frames: string[] }[] = [];
for (const block of readFileSync(file, "utf8").split("\n\n")) {
  const lines = block.split("\n").filter((l) => l !== "");
  const m = /\s(\d+\.\d+):/.exec(lines[0] ?? "");
  if (m) samples.push({ t: Number(m[1]), frames: lines.slice(1).map((l) => l.trim()) });
}
if (samples.length === 0) throw new Error(`${file}: no samples`);
const t0 = samples[0]!.t;
const span = samples[samples.length - 1]!.t - t0;
const from = t0 + span * Number(fromArg ?? 0);
const to = t0 + span * Number(toArg ?? 1);
const chosen = samples.filter((s) => s.t >= from && s.t <= to);

const GC = /Scaveng|MarkCompact|Heap::|Sweeper|ConcurrentMarking|IncrementalMarking|MinorMC|GlobalHandles/;
const JS_FRAME = /JS:[*~^]?(\S*) (\S+):\d+:\d+/;

/** The owner of one sample, and the group it counts in. */
function ownerOf(frames: string[]): [string, string] {
  if (GC.test(frames.slice(0, 8).join(" ")) && !frames.slice(0, 3).some((f) => f.includes("JS:"))) return ["V8 GC", "V8 GC"];
  for (const f of frames) {
    if (f.includes("RegExp:")) return ["RegExp", "RegExp"];
    const m = JS_FRAME.exec(f);
    if (!m) continue;
    const fn = m[1] || "(anonymous)";
    const url = m[2]!;
    if (url.includes("/dist/")) return [`crdkit ${url.split("/dist/")[1]} ${fn}`, "crdkit"];
    if (url.includes("grpc-js")) return ["grpc-js", "grpc-js"];
    if (url.includes("undici")) return ["undici", "undici"];
    if (url.startsWith("node:")) return [`node ${url.replace(/^node:(internal\/)?/, "")} ${fn}`, "node"];
    return ["other JavaScript", "other JavaScript"];
  }
  const all = frames.join(" ");
  if (/kallsyms/.test(frames[0] ?? "")) return ["kernel", "kernel"];
  if (/nghttp2/.test(all)) return ["native nghttp2", "native nghttp2"];
  if (/llhttp/.test(all)) return ["native llhttp", "native llhttp"];
  if (/SSL|ssl|tls|aes|gcm/i.test(all)) return ["native TLS", "native TLS"];
  return ["native other", "native other"];
}

const groups = new Map<string, number>();
const owners = new Map<string, number>();
for (const s of chosen) {
  const [owner, group] = ownerOf(s.frames);
  owners.set(owner, (owners.get(owner) ?? 0) + 1);
  groups.set(group, (groups.get(group) ?? 0) + 1);
}
const show = (m: Map<string, number>, n: number) => {
  for (const [k, c] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${((100 * c) / chosen.length).toFixed(1).padStart(5)} %  ${k}`);
};
console.log(`${chosen.length} samples`);
show(groups, 20);
console.log("--");
show(owners, 40);
