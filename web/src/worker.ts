/**
 * The validation worker: runs crdkit's engine (the package's browser entry) off the main thread so that
 * typing never waits for a large CRD to compile. One message in (the panes' texts), one verdict out.
 */
import { analyze, goJsonMarshal, type PlaygroundInput, type PlaygroundResult } from "crdkit/browser";

export interface WorkerRequest {
  seq: number;
  input: PlaygroundInput;
}

export interface WorkerReply {
  seq: number;
  result?: PlaygroundResult;
  /** The stored object as Go's encoding/json writes it (sorted keys, int64 preserved). */
  storedJson?: string;
  /** An engine failure (a crdkit bug, never a user-data problem). */
  crash?: string;
  elapsedMs: number;
}

self.onmessage = (ev: MessageEvent<WorkerRequest>) => {
  const started = performance.now();
  const { seq, input } = ev.data;
  let reply: WorkerReply;
  try {
    const result = analyze(input);
    const stored = result.request?.stored;
    const storedJson = stored ? goJsonMarshal(stored) : undefined;
    // values may hold Float64 boxes and bigints: the page gets the stored object as JSON text only
    if (result.request) result.request.stored = null;
    reply = { seq, result, ...(storedJson !== undefined ? { storedJson } : {}), elapsedMs: 0 };
  } catch (e) {
    reply = { seq, crash: e instanceof Error ? `${e.name}: ${e.message}` : String(e), elapsedMs: 0 };
  }
  reply.elapsedMs = performance.now() - started;
  (self as unknown as Worker).postMessage(reply);
};
