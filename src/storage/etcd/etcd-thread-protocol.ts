/**
 * The messages between EtcdClient (the caller's thread) and its gRPC thread (etcd-client-thread.ts). Requests
 * travel encoded (etcd-codec.ts runs on the caller's thread) and answers raw: each message carries its bytes in
 * an ArrayBuffer of its own, transferred, never copied or structured-cloned as objects. Messages are arrays
 * (cheaper to clone than objects), tagged by their first element, and travel in batches: each side sends the
 * messages of one callback as one array (one wake-up of the other thread for many calls).
 */

/** The unary methods, by index in messages. */
export const UNARY_PATHS = [
  "/etcdserverpb.KV/Range",
  "/etcdserverpb.KV/Txn",
  "/etcdserverpb.KV/DeleteRange",
  "/etcdserverpb.KV/Compact",
  "/etcdserverpb.Maintenance/Status",
] as const;

export const WATCH_PATH = "/etcdserverpb.Watch/Watch";

/** What the gRPC thread needs to open the channel (the TLS files already read by the caller's thread). */
export interface ThreadConfig {
  servers: string[];
  ca: Uint8Array | null;
  key: Uint8Array | null;
  cert: Uint8Array | null;
  /** when the caller started the thread (epoch ms) */
  startedAt: number;
}

/** To the gRPC thread. */
export type ToThread =
  /**
   * a unary call: id, method index, deadline (epoch ms), the encoded request, and whether it was made before the
   * thread was ready (its deadline then does not count the thread's start)
   */
  | [tag: 0, id: number, method: number, deadline: number, bytes: Uint8Array, early: boolean]
  /** open watch stream `id` */
  | [tag: 1, id: number]
  /** write an encoded WatchRequest to stream `id` */
  | [tag: 2, id: number, bytes: Uint8Array]
  /** cancel stream `id` */
  | [tag: 3, id: number]
  /** close the channel (calls and streams under way finish) */
  | [tag: 4];

/** From the gRPC thread. */
export type FromThread =
  /** a unary call's answer: the response message */
  | [tag: 0, id: number, bytes: Uint8Array]
  /** a unary call's failure (gRPC status code and details; DEADLINE_EXCEEDED for our own deadline) */
  | [tag: 1, id: number, code: number, details: string]
  /** a response message of watch stream `id` */
  | [tag: 2, id: number, bytes: Uint8Array]
  /** watch stream `id` failed (its 'error' event) */
  | [tag: 3, id: number, code: number, details: string]
  /** watch stream `id` ended (its 'end' event) */
  | [tag: 4, id: number]
  /** the thread has started (its first message) */
  | [tag: 5];

/**
 * `b` in an ArrayBuffer of its own, to transfer: a view of a larger buffer (Node's pool, a received frame) is
 * copied, as a transfer would detach the whole buffer (and a clone would copy all of it).
 */
export function ownBytes(b: Uint8Array): Uint8Array {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength && b.buffer instanceof ArrayBuffer ? b : new Uint8Array(b);
}
