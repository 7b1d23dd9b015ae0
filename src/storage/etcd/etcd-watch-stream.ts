/**
 * One etcd Watch stream on grpc-js' channel call layer (`Channel.createCall`, the public API interceptors are
 * built on), with the surface of grpc-js' `ClientDuplexStream` the store uses: `write` a request, `cancel`,
 * and the events `data` (one decoded WatchResponse per message), `error` (a `ServiceError`, when the call ends
 * with another status than OK, cancellation by `cancel` included) and then `end`. Without the Client's
 * Duplex stream, interceptor chain and listener wrappers per message; writes are sent one after the other, as
 * the Duplex's writable side sends them.
 */
import { EventEmitter } from "node:events";
import * as grpc from "@grpc/grpc-js";
import { decodeWatchResponse, encodeWatchRequest, type WatchRequest, type WatchResponse } from "./etcd-codec.js";

import { serviceError } from "./grpc-service-error.js";

type Call = ReturnType<grpc.Channel["createCall"]>;

export interface EtcdWatchStream {
  on(event: "data", listener: (r: WatchResponse) => void): this;
  on(event: "error", listener: (e: grpc.ServiceError) => void): this;
  on(event: "end", listener: () => void): this;
}

export class EtcdWatchStream extends EventEmitter {
  private readonly call: Call;
  /** Encoded requests not yet handed to the call (one at a time, each after the previous one was sent). */
  private readonly queue: Buffer[] = [];
  private sending = false;
  private ended = false;

  /** Starts the Watch call on `channel` (`metadata`: the call's metadata, e.g. wait-for-ready). */
  constructor(channel: grpc.Channel, path: string, metadata: grpc.Metadata) {
    super();
    const call = channel.createCall(path, Number.POSITIVE_INFINITY, undefined, null, undefined);
    this.call = call;
    call.start(metadata, {
      onReceiveMetadata: () => {},
      onReceiveMessage: (msg: Buffer) => {
        let r: WatchResponse;
        try {
          r = decodeWatchResponse(msg);
        } catch (e) {
          call.cancelWithStatus(grpc.status.INTERNAL, `Response message parsing error: ${e instanceof Error ? e.message : String(e)}`);
          return;
        }
        try {
          this.emit("data", r);
        } finally {
          // The next message is delivered once this one is handled.
          call.startRead();
        }
      },
      onReceiveStatus: (status: grpc.StatusObject) => {
        if (this.ended) return;
        this.ended = true;
        this.queue.length = 0;
        if (status.code !== grpc.status.OK) this.emit("error", serviceError(status.code, status.details, status.metadata));
        process.nextTick(() => this.emit("end"));
      },
    });
    call.startRead();
  }

  /** Sends a request on the stream (after the ones written before it). */
  write(req: WatchRequest): void {
    if (this.ended) return;
    this.queue.push(encodeWatchRequest(req));
    if (!this.sending) this.sendNext();
  }

  /** Ends the call (reported as `error` CANCELLED, then `end`, as grpc-js' stream does). */
  cancel(): void {
    this.call.cancelWithStatus(grpc.status.CANCELLED, "Cancelled on client");
  }

  private sendNext(): void {
    const next = this.queue.shift();
    if (next === undefined || this.ended) {
      this.sending = false;
      return;
    }
    this.sending = true;
    this.call.sendMessageWithContext({ callback: () => this.sendNext() }, next);
  }
}
