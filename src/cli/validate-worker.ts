/** A worker thread of `crdkit validate -j N` (see ./workers.ts): validates its files, posts the results. */
import { parentPort, workerData } from "node:worker_threads";
import { InputError } from "./files.js";
import { runValidate } from "./run-validate.js";
import { SchemaCache } from "./schema-cache.js";
import type { WorkerTask } from "./workers.js";

const task = workerData as WorkerTask;
try {
  const warnings: { message: string; file: string; line: number }[] = [];
  const results = runValidate({
    ...task.opts,
    cache: task.cacheDir === undefined ? undefined : new SchemaCache(task.cacheDir),
    onWarning: (message, at) => warnings.push({ message, ...at }),
    // progress: files done in this worker's run (the parent adds the runs up)
    onFileDone: task.progress ? (done) => parentPort!.postMessage({ progress: done }) : undefined,
  });
  parentPort!.postMessage({ results, warnings });
} catch (e) {
  if (e instanceof InputError) parentPort!.postMessage({ inputError: e.message });
  else parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) });
}
