/**
 * The entry of EtcdClient's gRPC thread (a worker_threads Worker): grpc-js and Node's HTTP/2 client run here,
 * off the server's main thread. It makes the unary calls and watch streams the messages of
 * etcd-thread-protocol.ts ask for, with the bytes as given (requests are encoded and answers decoded by the
 * caller), and answers each with its raw response bytes or its gRPC status.
 */
import { parentPort, workerData } from "node:worker_threads";
import * as grpc from "@grpc/grpc-js";
import { openChannel } from "./etcd-grpc-channel.js";
import { type FromThread, ownBytes, type ThreadConfig, type ToThread, UNARY_PATHS, WATCH_PATH } from "./etcd-thread-protocol.js";

const port = parentPort;
if (!port) throw new Error("etcd-client-thread.ts runs as a worker thread of EtcdClient");
const config = workerData as ThreadConfig;
const client = openChannel(config.servers, config);
const channel = client.getChannel() as grpc.Channel;
/** Every call's metadata: wait for a connection until the deadline (grpc-js copies it per call). */
const waitForReady = new grpc.Metadata({ waitForReady: true });
const streams = new Map<number, grpc.ClientDuplexStream<Buffer, Buffer>>();
/**
 * How long the thread took to start: calls made before it was ready get this much more time (their deadline,
 * set by the caller, would otherwise count the thread's start, up to a second or more on a loaded machine).
 */
const startMs = Math.max(0, Date.now() - config.startedAt);
const identity = (b: Buffer) => b;

/** Answers are sent together once per callback (one socket read: one wake-up of the caller's thread for its answers). */
const outbox: FromThread[] = [];
const transfers: ArrayBuffer[] = [];
let flushing = false;
function flush(): void {
  flushing = false;
  port!.postMessage(outbox.splice(0), transfers.splice(0));
}

function send(m: FromThread, bytes?: Uint8Array): void {
  outbox.push(m);
  if (bytes) transfers.push(bytes.buffer as ArrayBuffer);
  if (!flushing) {
    flushing = true;
    queueMicrotask(flush);
  }
}

/**
 * One call on the channel's own call layer (`Channel.createCall`, grpc-js' public API for interceptors): one
 * listener object receives the answer, where the Client's `makeUnaryRequest` adds an interceptor chain, a call
 * emitter, two listener wrappers and a record of the caller's stack per call. The deadline is a timer of ours
 * that cancels the call (answered as gRPC's DEADLINE_EXCEEDED), not grpc-js' deadline option, whose per-call
 * timers and filter cost more than the call's encoding.
 */
function unary(id: number, path: string, deadline: number, bytes: Uint8Array): void {
  let message: Buffer | undefined;
  let expired = false;
  const call = channel.createCall(path, Number.POSITIVE_INFINITY, undefined, null, undefined);
  const timer = setTimeout(() => {
    expired = true;
    call.cancelWithStatus(grpc.status.CANCELLED, "Cancelled on client");
  }, Math.max(0, deadline - Date.now()));
  call.start(waitForReady, {
    onReceiveMetadata() {},
    onReceiveMessage(msg: Buffer) {
      message = msg;
    },
    onReceiveStatus(status: grpc.StatusObject) {
      clearTimeout(timer);
      if (expired) return send([1, id, grpc.status.DEADLINE_EXCEEDED, "Deadline exceeded"]);
      if (status.code !== grpc.status.OK) return send([1, id, status.code, status.details]);
      if (message === undefined) return send([1, id, grpc.status.UNIMPLEMENTED, "No message received"]);
      const own = ownBytes(message);
      send([0, id, own], own);
    },
  });
  call.sendMessageWithContext({}, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  call.halfClose();
  call.startRead();
}

function openStream(id: number): void {
  const s = client.makeBidiStreamRequest(WATCH_PATH, identity, identity, waitForReady, {});
  streams.set(id, s);
  s.on("data", (b: Buffer) => {
    const own = ownBytes(b);
    send([2, id, own], own);
  });
  s.on("error", (e: grpc.ServiceError) => {
    streams.delete(id);
    send([3, id, e.code, e.details ?? e.message]);
  });
  s.on("end", () => {
    streams.delete(id);
    send([4, id]);
  });
}

send([5]);
port.on("message", (batch: ToThread[]) => {
  for (const m of batch) receive(m);
});

function receive(m: ToThread): void {
  switch (m[0]) {
    case 0:
      unary(m[1], UNARY_PATHS[m[2]]!, m[5] ? m[3] + startMs : m[3], m[4]);
      break;
    case 1:
      openStream(m[1]);
      break;
    case 2: {
      const b = m[2];
      streams.get(m[1])?.write(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
      break;
    }
    case 3:
      streams.get(m[1])?.cancel();
      break;
    case 4:
      client.close();
      // the thread ends when its calls and streams have
      port!.unref();
      break;
  }
}
