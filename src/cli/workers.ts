/**
 * `crdkit validate -j N`: large inputs validated by worker threads. The input files are split into N
 * contiguous runs of about equal size; each worker registers the same CRDs (the `--crds` files and the
 * input files that may hold CRDs), validates its run and sends its results back; the results are joined
 * in file order, so the output is the one of a single-threaded run.
 */
import { existsSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Worker } from "node:worker_threads";
import { InputError, expandPaths, isStreamInput, readInput } from "./files.js";
import { globMatcher } from "./glob.js";
import { inputMayHoldCrds } from "./lazy-registry.js";
import type { Result } from "./results.js";
import type { RunOptions } from "./run-validate.js";
import { lazyBuiltin } from "./lazy-builtin.js";

const threads = lazyBuiltin<typeof import("node:worker_threads")>("node:worker_threads");

/** Below this many input bytes a run stays on one thread (starting a worker costs ~0.1 s of CPU). */
export const PARALLEL_MIN_BYTES = 8 * 1024 * 1024;

/** What a worker receives. */
export interface WorkerTask {
  opts: Omit<RunOptions, "cache">;
  cacheDir: string | undefined;
  /** Post `{ progress: filesDone }` after each file (when the parent shows progress). */
  progress?: boolean;
}

/**
 * The number of threads for a run: `jobs` when given (default: the number of cores), but one thread for
 * standard input or a pipe, `--show-object` (stored objects keep int64/float64 boxes that threads cannot pass), a
 * single file, or (without an explicit `-j`) inputs under {@link PARALLEL_MIN_BYTES}.
 */
export function threadsFor(jobs: number | undefined, opts: RunOptions, files: readonly string[]): number {
  const n = Math.min(jobs ?? availableParallelism(), files.length);
  // (inputs read only once — stdin, pipes — are read by this thread)
  // (the paths as given: a directory's files are regular files)
  if (n <= 1 || opts.showObject || opts.inputs.some(isStreamInput) || opts.crds.some(isStreamInput)) return 1;
  if (jobs === undefined) {
    // (stats stop once the inputs are known to be large enough)
    let bytes = 0;
    for (let i = 0; i < files.length && bytes < PARALLEL_MIN_BYTES; i++) bytes += statSync(files[i]!).size;
    if (bytes < PARALLEL_MIN_BYTES) return 1;
  }
  return n;
}

/** Splits files into `n` contiguous runs of about equal total size, in order. */
export function splitFiles(files: readonly string[], n: number): string[][] {
  const sizes = files.map((f) => Math.max(1, statSync(f).size));
  const total = sizes.reduce((a, b) => a + b, 0);
  const runs: string[][] = [];
  let cur: string[] = [];
  let acc = 0;
  files.forEach((f, i) => {
    // a run ends before the file whose middle crosses the next n-th of the total (or when the files left
    // are just enough for the runs left)
    const runsLeft = n - runs.length - 1;
    const mustCut = cur.length > 0 && runsLeft > 0 && files.length - i === runsLeft;
    if (mustCut || (cur.length > 0 && runsLeft > 0 && acc + sizes[i]! / 2 >= (total * (runs.length + 1)) / n)) {
      runs.push(cur);
      cur = [];
    }
    cur.push(f);
    acc += sizes[i]!;
  });
  if (cur.length > 0) runs.push(cur);
  return runs;
}

function newWorker(task: WorkerTask): Worker {
  const js = new URL("./validate-worker.js", import.meta.url);
  if (existsSync(js)) return new (threads().Worker)(js, { workerData: task });
  // run from the TypeScript sources (tests, development): the worker loads them through tsx
  const ts = JSON.stringify(new URL("./validate-worker.ts", import.meta.url).href);
  return new (threads().Worker)(`import("tsx/esm/api").then((m) => { m.register(); return import(${ts}); })`, { eval: true, workerData: task });
}

/** A run-level warning sent by a worker. */
export interface WorkerWarning {
  message: string;
  file: string;
  line: number;
}

function runWorker(task: WorkerTask, onProgress?: (filesDone: number) => void): Promise<{ results: Result[]; warnings: WorkerWarning[] }> {
  return new Promise((resolve, reject) => {
    const w = newWorker(task);
    let done = false;
    w.on("message", (m: { progress?: number; results?: Result[]; warnings?: WorkerWarning[]; error?: string; inputError?: string }) => {
      if (m.progress !== undefined) {
        onProgress?.(m.progress);
        return;
      }
      done = true;
      if (m.results) resolve({ results: m.results, warnings: m.warnings ?? [] });
      else if (m.inputError !== undefined) reject(new InputError(m.inputError));
      else reject(new Error(m.error ?? "worker failed"));
    });
    w.once("error", (e) => {
      done = true;
      reject(e);
    });
    w.once("exit", (code) => {
      if (!done) reject(new Error(`validation worker exited with code ${code}`));
    });
  });
}

/** Runs the validation on `threads` worker threads; results in the order of a single-threaded run. */
export async function runValidateParallel(opts: RunOptions, threads: number): Promise<Result[]> {
  const files = expandPaths(opts.inputs, opts.exclude && opts.exclude.length > 0 ? globMatcher(opts.exclude) : undefined);
  const crdFiles = files.filter(inputMayHoldCrds);
  const runs = splitFiles(files, threads);
  // callbacks cannot cross to a thread: run-level warnings (the same in every worker, as every worker
  // registers the same CRDs) come from the first worker's messages only, so each is printed once;
  // progress is the sum of the workers' files done
  const { cache, onWarning, onFileDone, builtins: _builtins, ...plain } = opts;
  const doneByRun = runs.map(() => 0);
  let doneTotal = 0;
  const parts = await Promise.all(
    runs.map((inputs, i) =>
      runWorker({ opts: { ...plain, inputs, inputCrdFiles: crdFiles, reportInputCrds: i === 0 }, cacheDir: cache?.dir, progress: onFileDone !== undefined }, (n) => {
        doneTotal += n - doneByRun[i]!;
        doneByRun[i] = n;
        onFileDone?.(doneTotal, files.length);
      }).then((r) => {
        if (i === 0) for (const w of r.warnings) onWarning?.(w.message, w);
        return r.results;
      }),
    ),
  );
  // --crds problems (undecodable documents, rejected CRDs) are found by every worker that needs them:
  // the first report is where a single thread reports it
  const crdsFiles = new Set(expandPaths(opts.crds).map((p) => readInput(p).name));
  const seen = new Set<string>();
  const out: Result[] = [];
  for (const part of parts) {
    for (const r of part) {
      if (crdsFiles.has(r.file) && !files.includes(r.file)) {
        const k = `${r.file}\u0000${r.index}`;
        if (seen.has(k)) continue;
        seen.add(k);
      }
      out.push(r);
    }
  }
  return out;
}
