/**
 * EtcdClient's side of its gRPC thread (etcd-client-thread.ts, a worker_threads Worker): starts the thread,
 * sends calls and stream operations, routes the answers back. The thread keeps the process alive only while a
 * call or stream is under way (an idle client, like an idle gRPC channel, does not); `close` ends it once
 * those are done. If the thread dies, every call and stream under way or made later fails as CANCELLED (the
 * store's StoreUnavailableError). A call made while the thread starts (~0.1-0.3 s built, up to a second or
 * more through tsx) has its deadline counted from the thread's start.
 */
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import * as grpc from "@grpc/grpc-js";
import { type FromThread, ownBytes, type ThreadConfig, type ToThread } from "./etcd-thread-protocol.js";

/** A unary call's outcome: the response bytes, or a gRPC status code and details. */
export type UnaryOutcome = { bytes: Buffer } | { code: number; details: string };

/** What a watch stream hears from the thread. */
export interface StreamSink {
  data(bytes: Buffer): void;
  error(code: number, details: string): void;
  end(): void;
}

/**
 * The process's Node options for the thread, but `--input-type` (a process started with
 * `node --input-type=module -e ...`): a worker refuses it, its entry being a file.
 */
function threadExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--input-type") i++;
    else if (!argv[i]!.startsWith("--input-type=")) out.push(argv[i]!);
  }
  return out;
}

function startWorker(config: ThreadConfig): Worker {
  const execArgv = threadExecArgv();
  const js = new URL("./etcd-client-thread.js", import.meta.url);
  if (existsSync(js)) return new Worker(js, { workerData: config, execArgv });
  // run from the TypeScript sources (tests, development): the thread loads them through tsx
  const ts = JSON.stringify(new URL("./etcd-client-thread.ts", import.meta.url).href);
  return new Worker(`import("tsx/esm/api").then((m) => { m.register(); return import(${ts}); })`, { eval: true, workerData: config, execArgv });
}

/** grpc-js' error for a call on a closed channel (`Channel.createCall`). */
const SHUT_DOWN = "Channel has been shut down";

const asBuffer = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength);

export class EtcdThread {
  /** The thread has said it started (calls made before get their deadline after its start). */
  private ready = false;
  private readonly worker: Worker;
  private readonly calls = new Map<number, (o: UnaryOutcome) => void>();
  private readonly streams = new Map<number, StreamSink>();
  private nextId = 1;
  private refed = false;
  private closed = false;
  /** Why the thread is gone (calls made after fail with it), or undefined. */
  private dead: string | undefined;

  constructor(config: Omit<ThreadConfig, "startedAt">) {
    this.worker = startWorker({ ...config, startedAt: Date.now() });
    this.worker.unref();
    this.worker.on("message", (batch: FromThread[]) => {
      for (const m of batch) this.receive(m);
    });
    this.worker.on("error", (e) => this.die(`etcd client thread failed: ${e instanceof Error ? e.message : String(e)}`));
    this.worker.on("exit", (code) => this.die(`etcd client thread exited with code ${code}`));
  }

  /**
   * A unary call of method `method` (index in UNARY_PATHS) with encoded request `bytes`. After `close`, throws
   * grpc-js' error (a call on a closed channel); after the thread died, fails as CANCELLED (never retried).
   */
  unary(method: number, deadline: number, bytes: Uint8Array, done: (o: UnaryOutcome) => void): void {
    if (this.closed) throw new Error(SHUT_DOWN);
    if (this.dead !== undefined) {
      const details = this.dead;
      queueMicrotask(() => done({ code: grpc.status.CANCELLED, details }));
      return;
    }
    const id = this.nextId++;
    this.calls.set(id, done);
    this.hold();
    const own = ownBytes(bytes);
    this.post([0, id, method, deadline, own, !this.ready], own);
  }

  /** Opens a watch stream whose events go to `sink`; returns its id. Throws after `close`, as grpc-js does. */
  openStream(sink: StreamSink): number {
    if (this.closed) throw new Error(SHUT_DOWN);
    const id = this.nextId++;
    if (this.dead !== undefined) {
      const details = this.dead;
      queueMicrotask(() => sink.error(grpc.status.CANCELLED, details));
      return id;
    }
    this.streams.set(id, sink);
    this.hold();
    this.post([1, id]);
    return id;
  }

  writeStream(id: number, bytes: Uint8Array): void {
    if (!this.streams.has(id)) return;
    const own = ownBytes(bytes);
    this.post([2, id, own], own);
  }

  cancelStream(id: number): void {
    if (this.streams.has(id)) this.post([3, id]);
  }

  /** Closes the channel: calls and streams under way finish; the thread then ends, and never holds the process. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.dead === undefined) this.post([4]);
    this.refed = false;
    this.worker.unref();
  }

  /** Messages are sent together once per callback (one wake-up of the thread for the calls of one I/O event). */
  private post(m: ToThread, bytes?: Uint8Array): void {
    this.outbox.push(m);
    if (bytes) this.transfers.push(bytes.buffer as ArrayBuffer);
    if (!this.flushing) {
      this.flushing = true;
      queueMicrotask(this.flush);
    }
  }

  private readonly outbox: ToThread[] = [];
  private readonly transfers: ArrayBuffer[] = [];
  private flushing = false;
  private readonly flush = () => {
    this.flushing = false;
    const batch = this.outbox.splice(0);
    this.worker.postMessage(batch, this.transfers.splice(0));
  };

  private receive(m: FromThread): void {
    switch (m[0]) {
      case 0:
      case 1: {
        const done = this.calls.get(m[1]);
        if (!done) return;
        this.calls.delete(m[1]);
        this.release();
        done(m[0] === 0 ? { bytes: asBuffer(m[2]) } : { code: m[2], details: m[3] });
        return;
      }
      case 2:
        this.streams.get(m[1])?.data(asBuffer(m[2]));
        return;
      case 5:
        this.ready = true;
        return;
      case 3:
      case 4: {
        const sink = this.streams.get(m[1]);
        if (!sink) return;
        this.streams.delete(m[1]);
        this.release();
        if (m[0] === 3) sink.error(m[2], m[3]);
        else sink.end();
        return;
      }
    }
  }

  /** The process stays up while a call or stream is under way (as it does for a gRPC call on this thread). */
  private hold(): void {
    if (!this.refed && !this.closed) {
      this.refed = true;
      this.worker.ref();
    }
  }

  private release(): void {
    if (this.refed && this.calls.size === 0 && this.streams.size === 0) {
      this.refed = false;
      this.worker.unref();
    }
  }

  private die(reason: string): void {
    if (this.dead !== undefined) return;
    this.dead = reason;
    const calls = [...this.calls.values()];
    const streams = [...this.streams.values()];
    this.calls.clear();
    this.streams.clear();
    this.release();
    // after a close, the thread's end is expected: calls under way were answered before it
    const code = grpc.status.CANCELLED;
    for (const done of calls) done({ code, details: reason });
    for (const s of streams) s.error(code, reason);
  }
}
