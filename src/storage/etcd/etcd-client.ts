/**
 * A thin etcd v3 client on @grpc/grpc-js, run on a thread of its own: unary KV/Maintenance calls with a
 * deadline, and watch streams. Calls wait for a connection (gRPC wait-for-ready) until their deadline, so an etcd that is
 * restarting delays requests instead of failing them; errors are mapped to the store's error types.
 */
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import { RequestTooLargeError } from "../request-size.js";
import { StoreUnavailableError } from "../types.js";
import * as codec from "./etcd-codec.js";
import type { CompactionRequest, DeleteRangeRequest, EtcdHeader, RangeRequest, RangeResponse, StatusResponse, TxnRequest, TxnResponse } from "./etcd-codec.js";
import { credentialsOf, targetOf } from "./etcd-grpc-channel.js";
import { EtcdThread } from "./etcd-thread.js";
import { UNARY_PATHS } from "./etcd-thread-protocol.js";
import { EtcdWatchStream, serviceError } from "./etcd-watch-stream.js";

/** Connection settings, as kube-apiserver's `--etcd-servers`, `--etcd-cafile`, `--etcd-certfile`, `--etcd-keyfile`. */
export interface EtcdConnection {
  /** `http://host:port` or `https://host:port` URLs of the etcd members. */
  servers: string[];
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  /** Deadline of one call (default 60 s, kube-apiserver's request timeout). */
  callTimeoutMs?: number;
}

/** The text of a request that ran past its deadline (apiserver's finisher: `NewTimeoutError`). */
export const DEADLINE_TEXT = "request did not complete within requested timeout - context deadline exceeded";

/** Thrown for etcd's `ErrCompacted` (`mvcc: required revision has been compacted`). */
export class EtcdCompactedError extends Error {}
/** Thrown for etcd's `ErrFutureRev` (`mvcc: required revision is a future revision`). */
export class EtcdFutureRevisionError extends Error {}

export type { EtcdHeader, EtcdKv, RangeResponse, TxnResponse, WatchResponse } from "./etcd-codec.js";
export type { EtcdWatchStream } from "./etcd-watch-stream.js";

/** One unary method of etcd's API: its index in UNARY_PATHS and its message codecs (etcd-codec.ts). */
interface Method<Req, Res> {
  index: number;
  encode: (req: Req) => Buffer;
  decode: (b: Buffer) => Res;
}

const method = <Req, Res>(path: (typeof UNARY_PATHS)[number], encode: (req: Req) => Buffer, decode: (b: Buffer) => Res): Method<Req, Res> => ({
  index: UNARY_PATHS.indexOf(path),
  encode,
  decode,
});
const RANGE = method("/etcdserverpb.KV/Range", codec.encodeRangeRequest, codec.decodeRangeResponse);
const TXN = method("/etcdserverpb.KV/Txn", codec.encodeTxnRequest, codec.decodeTxnResponse);
const DELETE_RANGE = method("/etcdserverpb.KV/DeleteRange", codec.encodeDeleteRangeRequest, codec.decodeDeleteRangeResponse);
const COMPACT = method("/etcdserverpb.KV/Compact", codec.encodeCompactionRequest, codec.decodeCompactionResponse);
const STATUS = method("/etcdserverpb.Maintenance/Status", codec.encodeStatusRequest, codec.decodeStatusResponse);

/** Maps a gRPC failure to the store's errors (timeouts and unreachable members are `StoreUnavailableError`). */
export function mapGrpcError(e: grpc.ServiceError): Error {
  const details = e.details ?? e.message;
  if (e.code === grpc.status.DEADLINE_EXCEEDED) return new StoreUnavailableError(DEADLINE_TEXT, true);
  if (details.includes("required revision has been compacted")) return new EtcdCompactedError(details);
  if (details.includes("required revision is a future revision")) return new EtcdFutureRevisionError(details);
  // etcd's size refusal reaches kube-apiserver's clients as the etcd error text (rpctypes.EtcdError).
  if (details === "etcdserver: request is too large") return new RequestTooLargeError(details);
  // Go's gRPC error text, as kube-apiserver passes it on (`rpc error: code = Unavailable desc = …`).
  const codeName = (grpc.status[e.code] ?? String(e.code)).toLowerCase().replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());
  const text = `rpc error: code = ${codeName} desc = ${details}`;
  // The client's own send limit (grpc-js words it differently from Go's `trying to send message larger than max`).
  if (e.code === grpc.status.RESOURCE_EXHAUSTED) return new RequestTooLargeError(text);
  if (e.code === grpc.status.UNAVAILABLE || e.code === grpc.status.CANCELLED) return new StoreUnavailableError(text);
  return new Error(text);
}

/**
 * One connection to an etcd cluster. grpc-js and Node's HTTP/2 client run on a thread of their own
 * (etcd-thread.ts, etcd-client-thread.ts): this thread encodes requests and decodes answers, and pays one
 * message each way per call instead of the gRPC and HTTP/2 work.
 */
export class EtcdClient {
  private readonly thread: EtcdThread;
  readonly callTimeoutMs: number;

  constructor(conn: EtcdConnection) {
    const { secure } = targetOf(conn.servers);
    const tls = {
      ca: conn.caFile ? readFileSync(conn.caFile) : null,
      key: conn.keyFile ? readFileSync(conn.keyFile) : null,
      cert: conn.certFile ? readFileSync(conn.certFile) : null,
    };
    // certificates and keys TLS cannot load fail here, as they did when the channel was opened on this thread
    credentialsOf(secure, tls);
    this.thread = new EtcdThread({ servers: conn.servers, ...tls });
    this.callTimeoutMs = conn.callTimeoutMs ?? 60_000;
  }

  /**
   * One call; `deadline`: epoch ms (the gRPC thread cancels the call then, answered as gRPC's
   * DEADLINE_EXCEEDED). A failed call is reported as grpc-js' Client would (a `ServiceError` with code and
   * details).
   */
  private call<Req, Res>(m: Method<Req, Res>, req: Req, deadline: number): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      let bytes: Buffer;
      try {
        bytes = m.encode(req);
      } catch (e) {
        reject(serviceError(grpc.status.INTERNAL, `Request message serialization failure: ${e instanceof Error ? e.message : String(e)}`));
        return;
      }
      this.thread.unary(m.index, deadline, bytes, (o) => {
        if (!("bytes" in o)) return reject(serviceError(o.code, o.details));
        let res: Res;
        try {
          res = m.decode(o.bytes);
        } catch (e) {
          return reject(serviceError(grpc.status.INTERNAL, `Response message parsing error: ${e instanceof Error ? e.message : String(e)}`));
        }
        resolve(res);
      });
    });
  }

  /**
   * A call with etcd's client retry policy (clientv3's retry interceptor): a repeatable (read-only) call
   * that fails with Unavailable — its member died or dropped the connection — is retried, on the next
   * member, every 25 ms until its deadline; a mutation is never retried (at most once: it may have been
   * applied), so its caller gets the error.
   */
  private async unary<Req, Res>(m: Method<Req, Res>, req: Req, repeatable: boolean, deadline = Date.now() + this.callTimeoutMs): Promise<Res> {
    for (;;) {
      try {
        return await this.call(m, req, deadline);
      } catch (e) {
        const err = e as grpc.ServiceError;
        const wait = 25 + Math.random() * 2.5;
        if (!repeatable || err.code !== grpc.status.UNAVAILABLE || Date.now() + wait >= deadline) throw mapGrpcError(err);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  /** A Range (`deadline`: epoch ms, default the call timeout from now); retried as a read. */
  range(req: RangeRequest, deadline?: number): Promise<RangeResponse> {
    return this.unary(RANGE, req, true, deadline);
  }

  /** A Txn (`deadline`: epoch ms, default the call timeout from now); `readOnly` (ranges only) makes it repeatable. */
  txn(req: TxnRequest, deadline?: number, readOnly = false): Promise<TxnResponse> {
    return this.unary(TXN, req, readOnly, deadline);
  }

  deleteRange(req: DeleteRangeRequest): Promise<{ header: EtcdHeader; deleted: number }> {
    return this.unary(DELETE_RANGE, req, false);
  }

  compact(revision: number): Promise<{ header: EtcdHeader }> {
    const req: CompactionRequest = { revision };
    return this.unary(COMPACT, req, false);
  }

  status(): Promise<StatusResponse> {
    return this.unary(STATUS, {}, true);
  }

  /** Opens a watch stream (one watcher per stream; the caller writes the create request). */
  watchStream(): EtcdWatchStream {
    return new EtcdWatchStream(this.thread);
  }

  /** Closes the connection: calls and streams under way finish, later ones fail as Unavailable. */
  close(): void {
    this.thread.close();
  }
}
