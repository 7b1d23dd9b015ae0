/** The error of a failed gRPC call, as grpc-js' Client reports one (`callErrorFromStatus`). */
import * as grpc from "@grpc/grpc-js";

export function serviceError(code: grpc.status, details: string, metadata: grpc.Metadata): grpc.ServiceError {
  return Object.assign(new Error(`${code} ${grpc.status[code]}: ${details}`), { code, details, metadata });
}
