/**
 * A watch stream of EtcdClient, as grpc-js' duplex stream of the Watch method looks to its users: `write` a
 * WatchRequest, `cancel`, and the events `data` (a decoded WatchResponse), `error` (a ServiceError: gRPC status
 * code, details and metadata; also after `cancel`, as CANCELLED) and `end`. The stream itself runs on the gRPC
 * thread; requests are encoded and responses decoded here.
 */
import { EventEmitter } from "node:events";
import * as grpc from "@grpc/grpc-js";
import { decodeWatchResponse, encodeWatchRequest, type WatchRequest, type WatchResponse } from "./etcd-codec.js";
import type { EtcdThread } from "./etcd-thread.js";

/** A failed call's error, as grpc-js' Client reports one (`callErrorFromStatus`). */
export function serviceError(code: grpc.status, details: string, metadata = new grpc.Metadata()): grpc.ServiceError {
  return Object.assign(new Error(`${code} ${grpc.status[code]}: ${details}`), { code, details, metadata });
}

export class EtcdWatchStream extends EventEmitter {
  private readonly id: number;
  /** A response that could not be decoded: the stream is cancelled and fails with this status (as grpc-js does). */
  private failed: { code: grpc.status; details: string } | undefined;

  constructor(private readonly thread: EtcdThread) {
    super();
    this.id = thread.openStream({
      data: (b) => {
        if (this.failed) return;
        let r: WatchResponse;
        try {
          r = decodeWatchResponse(b);
        } catch (e) {
          this.failed = { code: grpc.status.INTERNAL, details: `Response message parsing error: ${e instanceof Error ? e.message : String(e)}` };
          this.thread.cancelStream(this.id);
          return;
        }
        this.emit("data", r);
      },
      error: (code, details) => {
        const f = this.failed ?? { code, details };
        this.emit("error", serviceError(f.code, f.details));
      },
      end: () => {
        this.emit("end");
      },
    });
  }

  write(req: WatchRequest): boolean {
    this.thread.writeStream(this.id, encodeWatchRequest(req));
    return true;
  }

  cancel(): void {
    this.thread.cancelStream(this.id);
  }
}
