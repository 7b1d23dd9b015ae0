/**
 * A thin etcd v3 client on @grpc/grpc-js: unary KV/Maintenance calls with a deadline, and raw watch
 * streams. Calls wait for a connection (gRPC wait-for-ready) until their deadline, so an etcd that is
 * restarting delays requests instead of failing them; errors are mapped to the store's error types.
 */
import { readFileSync } from "node:fs";
import * as grpc from "@grpc/grpc-js";
import { RequestTooLargeError } from "../request-size.js";
import { StoreUnavailableError } from "../types.js";
import * as codec from "./etcd-codec.js";
import type { CompactionRequest, DeleteRangeRequest, EtcdHeader, RangeRequest, RangeResponse, StatusResponse, TxnRequest, TxnResponse, WatchRequest, WatchResponse } from "./etcd-codec.js";

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

/** One unary method of etcd's API: its path and its message codecs (etcd-codec.ts). */
interface Method<Req, Res> {
  path: string;
  encode: (req: Req) => Buffer;
  decode: (b: Buffer) => Res;
}

const method = <Req, Res>(path: string, encode: (req: Req) => Buffer, decode: (b: Buffer) => Res): Method<Req, Res> => ({ path, encode, decode });
const RANGE = method("/etcdserverpb.KV/Range", codec.encodeRangeRequest, codec.decodeRangeResponse);
const TXN = method("/etcdserverpb.KV/Txn", codec.encodeTxnRequest, codec.decodeTxnResponse);
const DELETE_RANGE = method("/etcdserverpb.KV/DeleteRange", codec.encodeDeleteRangeRequest, codec.decodeDeleteRangeResponse);
const COMPACT = method("/etcdserverpb.KV/Compact", codec.encodeCompactionRequest, codec.decodeCompactionResponse);
const STATUS = method("/etcdserverpb.Maintenance/Status", codec.encodeStatusRequest, codec.decodeStatusResponse);
const WATCH = "/etcdserverpb.Watch/Watch";

/** A failed call's error, as grpc-js' Client reports one (`callErrorFromStatus`). */
function serviceError(code: grpc.status, details: string, metadata: grpc.Metadata): grpc.ServiceError {
  return Object.assign(new Error(`${code} ${grpc.status[code]}: ${details}`), { code, details, metadata });
}

/** The error of a call that ran past its deadline, as grpc-js reports one. */
function deadlineExceeded(): grpc.ServiceError {
  return Object.assign(new Error("4 DEADLINE_EXCEEDED: Deadline exceeded"), { code: grpc.status.DEADLINE_EXCEEDED, details: "Deadline exceeded", metadata: new grpc.Metadata() });
}

/** The gRPC target of the members: `ipv4:`/`ipv6:` address lists (pick-first failover) or a DNS name. */
function targetOf(servers: string[]): { target: string; secure: boolean } {
  const urls = servers.map((s) => {
    try {
      return new URL(s.includes("://") ? s : `http://${s}`);
    } catch {
      throw new Error(`invalid etcd server URL ${JSON.stringify(s)}`);
    }
  });
  if (urls.length === 0) throw new Error("no etcd servers given");
  const secure = urls[0]!.protocol === "https:";
  for (const u of urls) {
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error(`invalid etcd server URL ${JSON.stringify(u.href)}: want http or https`);
    if ((u.protocol === "https:") !== secure) throw new Error("etcd servers must all use http or all https");
  }
  const hostPort = (u: URL) => `${u.hostname}:${u.port || "2379"}`;
  if (urls.every((u) => /^\d+\.\d+\.\d+\.\d+$/.test(u.hostname))) return { target: `ipv4:${urls.map(hostPort).join(",")}`, secure };
  if (urls.every((u) => u.hostname.startsWith("["))) return { target: `ipv6:${urls.map(hostPort).join(",")}`, secure };
  return { target: `dns:${hostPort(urls[0]!)}`, secure };
}

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

/** One connection to an etcd cluster. */
export class EtcdClient {
  /** One gRPC client (one channel) for the KV, Maintenance and Watch services. */
  private readonly grpc: grpc.Client;
  /** The client's channel, whose `createCall` makes the unary calls (see {@link EtcdClient.call}). */
  private readonly channel: grpc.Channel;
  /** Every call's metadata: wait for a connection until the deadline (grpc-js copies it per call). */
  private readonly waitForReady = new grpc.Metadata({ waitForReady: true });
  readonly callTimeoutMs: number;

  constructor(conn: EtcdConnection) {
    const { target, secure } = targetOf(conn.servers);
    const creds = secure
      ? grpc.credentials.createSsl(
          conn.caFile ? readFileSync(conn.caFile) : null,
          conn.keyFile ? readFileSync(conn.keyFile) : null,
          conn.certFile ? readFileSync(conn.certFile) : null,
        )
      : grpc.credentials.createInsecure();
    this.grpc = new grpc.Client(target, creds, {
      "grpc.max_receive_message_length": -1,
      "grpc.max_send_message_length": 2 * 1024 * 1024,
      "grpc.keepalive_time_ms": 30_000,
      "grpc.keepalive_timeout_ms": 10_000,
      "grpc.initial_reconnect_backoff_ms": 100,
      "grpc.max_reconnect_backoff_ms": 1000,
      "grpc.enable_retries": 0,
      "grpc.enable_channelz": 0,
    });
    this.channel = this.grpc.getChannel() as grpc.Channel;
    this.callTimeoutMs = conn.callTimeoutMs ?? 60_000;
  }

  /**
   * One call; `deadline`: epoch ms. The call is made on the channel's own call layer (`Channel.createCall`,
   * grpc-js' public API for interceptors): one listener object receives the answer, where the Client's
   * `makeUnaryRequest` adds an interceptor chain, a call emitter, two listener wrappers and a record of the
   * caller's stack (a `new Error()`) per call. The deadline is a timer of ours that cancels the call (answered
   * as gRPC's DEADLINE_EXCEEDED), not grpc-js' deadline option, whose per-call timers and filter cost more than
   * the call's encoding. A failed call is reported as the Client would (a `ServiceError` with code, details
   * and metadata).
   */
  private call<Req, Res>(m: Method<Req, Res>, req: Req, deadline: number): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      let message: Buffer | undefined;
      let expired = false;
      const call = this.channel.createCall(m.path, Number.POSITIVE_INFINITY, undefined, null, undefined);
      const timer = setTimeout(() => {
        expired = true;
        call.cancelWithStatus(grpc.status.CANCELLED, "Cancelled on client");
      }, Math.max(0, deadline - Date.now()));
      call.start(this.waitForReady, {
        onReceiveMetadata() {},
        onReceiveMessage(msg: Buffer) {
          message = msg;
        },
        onReceiveStatus(status: grpc.StatusObject) {
          clearTimeout(timer);
          if (expired) return reject(deadlineExceeded());
          if (status.code !== grpc.status.OK) return reject(serviceError(status.code, status.details, status.metadata));
          if (message === undefined) return reject(serviceError(grpc.status.UNIMPLEMENTED, "No message received", status.metadata));
          let res: Res;
          try {
            res = m.decode(message);
          } catch (e) {
            return reject(serviceError(grpc.status.INTERNAL, `Response message parsing error: ${e instanceof Error ? e.message : String(e)}`, status.metadata));
          }
          resolve(res);
        },
      });
      let bytes: Buffer;
      try {
        bytes = m.encode(req);
      } catch (e) {
        call.cancelWithStatus(grpc.status.INTERNAL, `Request message serialization failure: ${e instanceof Error ? e.message : String(e)}`);
        return;
      }
      call.sendMessageWithContext({}, bytes);
      call.halfClose();
      call.startRead();
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
  watchStream(): grpc.ClientDuplexStream<WatchRequest, WatchResponse> {
    return this.grpc.makeBidiStreamRequest(WATCH, codec.encodeWatchRequest, codec.decodeWatchResponse, this.waitForReady, {});
  }

  close(): void {
    this.grpc.close();
  }
}
