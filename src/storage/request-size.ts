/**
 * etcd's request size limits, applied by the embedded store so that it accepts exactly what an API
 * server backed by a default etcd would: the client refuses a gRPC message over 2 MiB
 * (`MaxCallSendMsgSize`), etcd refuses a raft request over `--max-request-bytes` (1.5 MiB) with
 * `etcdserver: request is too large`. The sizes are the protobuf encodings of the transaction the API
 * server's etcd3 store sends (`OptimisticPut`: compare on the key's mod revision, put, and for updates a
 * get on failure) of the stored value (the object's JSON and the newline its encoder writes).
 */

/** etcd's default `--max-request-bytes`. */
export const ETCD_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;
/** The etcd client's default `MaxCallSendMsgSize` (the server limit plus gRPC overhead). */
export const ETCD_CLIENT_MAX_SEND_BYTES = 2 * 1024 * 1024;

/** A write the store refuses for its size; `message` is the error text the API server reports. */
export class RequestTooLargeError extends Error {}

/** Bytes of a protobuf varint. */
function varint(n: number): number {
  let b = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    b++;
  }
  return b;
}

/** Bytes of a length-delimited field (tag of a field number below 16, length, payload). */
function field(len: number, tagBytes = 1): number {
  return tagBytes + varint(len) + len;
}

/** Size of the `TxnRequest` and of the `InternalRaftRequest` etcd checks, for a put of `value` at `key`. */
export function etcdPutSizes(key: string, valueBytes: number, expectedRevision: number, getOnFailure: boolean): { grpc: number; raft: number } {
  const k = Buffer.byteLength(key);
  // Compare{result: EQUAL (default, omitted), target: MOD, key, mod_revision (a oneof: always written)}
  const compare = 2 + field(k) + 1 + varint(expectedRevision);
  // RequestOp{request_put: PutRequest{key, value}}
  const put = field(field(k) + field(valueBytes));
  // RequestOp{request_range: RangeRequest{key}}
  const get = getOnFailure ? field(field(field(k))) : 0;
  const txn = field(compare) + field(put) + get;
  // InternalRaftRequest{header: RequestHeader{ID} (field 100, a two-byte tag; IDs take 10 bytes at most), txn: 7}
  const raft = field(1 + 10, 2) + field(txn);
  return { grpc: txn, raft };
}

/**
 * Throws {@link RequestTooLargeError} with the text the API server answers when etcd would refuse to
 * store `value` at `key` (`expectedRevision` 0 for a create).
 */
export function checkEtcdRequestSize(key: string, value: string, expectedRevision: number, getOnFailure: boolean): void {
  // The API server's JSON encoder ends the stored object with a newline.
  const { grpc, raft } = etcdPutSizes(key, Buffer.byteLength(value) + 1, expectedRevision, getOnFailure);
  if (grpc > ETCD_CLIENT_MAX_SEND_BYTES) {
    throw new RequestTooLargeError(
      `rpc error: code = ResourceExhausted desc = trying to send message larger than max (${grpc} vs. ${ETCD_CLIENT_MAX_SEND_BYTES})`,
    );
  }
  if (raft > ETCD_MAX_REQUEST_BYTES) throw new RequestTooLargeError("etcdserver: request is too large");
}
