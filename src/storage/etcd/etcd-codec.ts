/**
 * Protobuf encoders and decoders of the etcd v3 messages crdkit sends and reads, written per message on
 * protobufjs' Writer and Reader — what protobufjs' static code generation emits for etcd's `rpc.proto` and
 * `kv.proto`, cut to the fields crdkit uses (field numbers and wire types are etcd's; `test/storage/etcd-proto-schema.ts`
 * holds the schema and `etcd-codec.test.ts` checks these against protobufjs' reflection of it). Requests and
 * responses are the plain objects the client always used (snake_case names, enum names as strings,
 * int64 as JS numbers: revisions stay far below 2^53, absent messages `null`, absent lists `[]`); no
 * conversion to and from protobufjs message objects per call.
 *
 * A request field is written when it is given (not undefined or null), whatever its value, as protobufjs
 * writes a field set on a message; unknown response fields are skipped.
 */
import protobuf from "protobufjs";

type Writer = protobuf.Writer;
type Reader = protobuf.Reader;

export interface RangeRequest {
  key: Uint8Array;
  range_end?: Uint8Array;
  limit?: number;
  revision?: number;
  serializable?: boolean;
  keys_only?: boolean;
  count_only?: boolean;
}

export interface PutRequest {
  key: Uint8Array;
  value?: Uint8Array;
  lease?: number;
  prev_kv?: boolean;
}

export interface DeleteRangeRequest {
  key: Uint8Array;
  range_end?: Uint8Array;
  prev_kv?: boolean;
}

export interface RequestOp {
  request_range?: RangeRequest;
  request_put?: PutRequest;
  request_delete_range?: DeleteRangeRequest;
}

const COMPARE_RESULT = { EQUAL: 0, GREATER: 1, LESS: 2, NOT_EQUAL: 3 } as const;
const COMPARE_TARGET = { VERSION: 0, CREATE: 1, MOD: 2, VALUE: 3, LEASE: 4 } as const;

export interface Compare {
  result: keyof typeof COMPARE_RESULT;
  target: keyof typeof COMPARE_TARGET;
  key: Uint8Array;
  version?: number;
  create_revision?: number;
  mod_revision?: number;
  value?: Uint8Array;
  lease?: number;
}

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}

export interface CompactionRequest {
  revision: number;
  physical?: boolean;
}

export interface WatchCreateRequest {
  key: Uint8Array;
  range_end?: Uint8Array;
  start_revision?: number;
  progress_notify?: boolean;
  prev_kv?: boolean;
  watch_id?: number;
  fragment?: boolean;
}

export interface WatchRequest {
  create_request?: WatchCreateRequest;
  cancel_request?: { watch_id: number };
  progress_request?: Record<string, never>;
}

/** A decoded `mvccpb.KeyValue`. */
export interface EtcdKv {
  key: Buffer;
  value: Buffer;
  create_revision: number;
  mod_revision: number;
  version: number;
}

export interface EtcdHeader {
  revision: number;
  /** The answering member (a uint64 id, as a JS number like every int64 here). */
  member_id?: number;
}

export interface RangeResponse {
  header: EtcdHeader;
  kvs: EtcdKv[];
  more: boolean;
  count: number;
}

export interface PutResponse {
  header: EtcdHeader;
  prev_kv: EtcdKv | null;
}

export interface DeleteRangeResponse {
  header: EtcdHeader;
  deleted: number;
  prev_kvs: EtcdKv[];
}

export interface ResponseOp {
  response_range?: RangeResponse;
  response_put?: PutResponse;
  response_delete_range?: DeleteRangeResponse;
}

export interface TxnResponse {
  header: EtcdHeader;
  succeeded: boolean;
  responses: ResponseOp[];
}

export interface WatchEvent {
  type: "PUT" | "DELETE";
  kv: EtcdKv;
  prev_kv: EtcdKv | null;
}

export interface WatchResponse {
  header: EtcdHeader;
  watch_id: number;
  created: boolean;
  canceled: boolean;
  compact_revision: number;
  cancel_reason: string;
  fragment: boolean;
  events: WatchEvent[];
}

export interface StatusResponse {
  header: EtcdHeader;
  version: string;
  dbSize: number;
  /** The member id of the leader this member follows (0: none). */
  leader: number;
}

// Tags: field number << 3 | wire type (0 varint, 2 length-delimited).
const varint = (field: number) => (field << 3) | 0;
const delimited = (field: number) => (field << 3) | 2;

function writeRange(w: Writer, m: RangeRequest): void {
  if (m.key != null) w.uint32(delimited(1)).bytes(m.key);
  if (m.range_end != null) w.uint32(delimited(2)).bytes(m.range_end);
  if (m.limit != null) w.uint32(varint(3)).int64(m.limit);
  if (m.revision != null) w.uint32(varint(4)).int64(m.revision);
  if (m.serializable != null) w.uint32(varint(7)).bool(m.serializable);
  if (m.keys_only != null) w.uint32(varint(8)).bool(m.keys_only);
  if (m.count_only != null) w.uint32(varint(9)).bool(m.count_only);
}

function writePut(w: Writer, m: PutRequest): void {
  if (m.key != null) w.uint32(delimited(1)).bytes(m.key);
  if (m.value != null) w.uint32(delimited(2)).bytes(m.value);
  if (m.lease != null) w.uint32(varint(3)).int64(m.lease);
  if (m.prev_kv != null) w.uint32(varint(4)).bool(m.prev_kv);
}

function writeDeleteRange(w: Writer, m: DeleteRangeRequest): void {
  if (m.key != null) w.uint32(delimited(1)).bytes(m.key);
  if (m.range_end != null) w.uint32(delimited(2)).bytes(m.range_end);
  if (m.prev_kv != null) w.uint32(varint(3)).bool(m.prev_kv);
}

/** A nested message: its tag, then its length-prefixed body. */
function writeNested<T>(w: Writer, field: number, m: T, body: (w: Writer, m: T) => void): void {
  w.uint32(delimited(field)).fork();
  body(w, m);
  w.ldelim();
}

function writeRequestOp(w: Writer, m: RequestOp): void {
  // A oneof: the first member given is the one sent.
  if (m.request_range != null) writeNested(w, 1, m.request_range, writeRange);
  else if (m.request_put != null) writeNested(w, 2, m.request_put, writePut);
  else if (m.request_delete_range != null) writeNested(w, 3, m.request_delete_range, writeDeleteRange);
}

function writeCompare(w: Writer, m: Compare): void {
  const result = COMPARE_RESULT[m.result];
  const target = COMPARE_TARGET[m.target];
  if (result === undefined || target === undefined) throw new TypeError(`etcd compare: unknown result ${m.result} or target ${m.target}`);
  w.uint32(varint(1)).int32(result);
  w.uint32(varint(2)).int32(target);
  if (m.key != null) w.uint32(delimited(3)).bytes(m.key);
  // The target_union oneof: present (even when 0) when given.
  if (m.version != null) w.uint32(varint(4)).int64(m.version);
  else if (m.create_revision != null) w.uint32(varint(5)).int64(m.create_revision);
  else if (m.mod_revision != null) w.uint32(varint(6)).int64(m.mod_revision);
  else if (m.value != null) w.uint32(delimited(7)).bytes(m.value);
  else if (m.lease != null) w.uint32(varint(8)).int64(m.lease);
}

function writeTxn(w: Writer, m: TxnRequest): void {
  for (const c of m.compare) writeNested(w, 1, c, writeCompare);
  for (const op of m.success) writeNested(w, 2, op, writeRequestOp);
  for (const op of m.failure) writeNested(w, 3, op, writeRequestOp);
}

function writeWatchCreate(w: Writer, m: WatchCreateRequest): void {
  if (m.key != null) w.uint32(delimited(1)).bytes(m.key);
  if (m.range_end != null) w.uint32(delimited(2)).bytes(m.range_end);
  if (m.start_revision != null) w.uint32(varint(3)).int64(m.start_revision);
  if (m.progress_notify != null) w.uint32(varint(4)).bool(m.progress_notify);
  if (m.prev_kv != null) w.uint32(varint(6)).bool(m.prev_kv);
  if (m.watch_id != null) w.uint32(varint(7)).int64(m.watch_id);
  if (m.fragment != null) w.uint32(varint(8)).bool(m.fragment);
}

function writeWatch(w: Writer, m: WatchRequest): void {
  if (m.create_request != null) writeNested(w, 1, m.create_request, writeWatchCreate);
  else if (m.cancel_request != null) writeNested(w, 2, m.cancel_request, (w2, c) => (c.watch_id != null ? void w2.uint32(varint(1)).int64(c.watch_id) : undefined));
  else if (m.progress_request != null) writeNested(w, 3, m.progress_request, () => {});
}

function writeCompaction(w: Writer, m: CompactionRequest): void {
  if (m.revision != null) w.uint32(varint(1)).int64(m.revision);
  if (m.physical != null) w.uint32(varint(2)).bool(m.physical);
}

function encoder<T>(body: (w: Writer, m: T) => void): (m: T) => Buffer {
  return (m) => {
    const w = protobuf.Writer.create();
    body(w, m);
    return w.finish() as Buffer;
  };
}

export const encodeRangeRequest = encoder(writeRange);
export const encodeTxnRequest = encoder(writeTxn);
export const encodeDeleteRangeRequest = encoder(writeDeleteRange);
export const encodeCompactionRequest = encoder(writeCompaction);
export const encodeWatchRequest = encoder(writeWatch);
export const encodeStatusRequest = encoder<Record<string, never>>(() => {});

/**
 * An int64 or uint64 varint as a JS number (protobufjs hands out a Long when the `long` package is present);
 * beyond 2^53 it is rounded, as @grpc/proto-loader's `longs: Number` did (member ids; revisions stay below).
 */
function int64(r: Reader): number {
  const v = r.int64() as unknown;
  return typeof v === "number" ? v : (v as { toNumber(): number }).toNumber();
}

/** Reads a length-delimited nested message: `body` is called for each of its fields until its end. */
function nested<T>(r: Reader, init: T, field: (r: Reader, m: T, tag: number) => void): T {
  const end = r.uint32() + r.pos;
  while (r.pos < end) field(r, init, r.uint32());
  return init;
}

function readHeader(r: Reader): EtcdHeader {
  return nested(r, emptyHeader(), (r, m, tag) => {
    if (tag === varint(3)) m.revision = int64(r);
    else if (tag === varint(2)) m.member_id = int64(r);
    else r.skipType(tag & 7);
  });
}

const emptyHeader = (): EtcdHeader => ({ revision: 0, member_id: 0 });

function readKv(r: Reader): EtcdKv {
  return nested(r, { key: EMPTY, value: EMPTY, create_revision: 0, mod_revision: 0, version: 0 }, (r, m, tag) => {
    switch (tag) {
      case delimited(1):
        m.key = r.bytes() as Buffer;
        break;
      case varint(2):
        m.create_revision = int64(r);
        break;
      case varint(3):
        m.mod_revision = int64(r);
        break;
      case varint(4):
        m.version = int64(r);
        break;
      case delimited(5):
        m.value = r.bytes() as Buffer;
        break;
      default:
        r.skipType(tag & 7);
    }
  });
}

const EMPTY: Buffer = Buffer.alloc(0);

function rangeFields(r: Reader, m: RangeResponse, tag: number): void {
  switch (tag) {
    case delimited(1):
      m.header = readHeader(r);
      break;
    case delimited(2):
      m.kvs.push(readKv(r));
      break;
    case varint(3):
      m.more = r.bool();
      break;
    case varint(4):
      m.count = int64(r);
      break;
    default:
      r.skipType(tag & 7);
  }
}

const newRange = (): RangeResponse => ({ header: emptyHeader(), kvs: [], more: false, count: 0 });

function putFields(r: Reader, m: PutResponse, tag: number): void {
  if (tag === delimited(1)) m.header = readHeader(r);
  else if (tag === delimited(2)) m.prev_kv = readKv(r);
  else r.skipType(tag & 7);
}

function deleteRangeFields(r: Reader, m: DeleteRangeResponse, tag: number): void {
  if (tag === delimited(1)) m.header = readHeader(r);
  else if (tag === varint(2)) m.deleted = int64(r);
  else if (tag === delimited(3)) m.prev_kvs.push(readKv(r));
  else r.skipType(tag & 7);
}

const newDeleteRange = (): DeleteRangeResponse => ({ header: emptyHeader(), deleted: 0, prev_kvs: [] });

function responseOpFields(r: Reader, m: ResponseOp, tag: number): void {
  // A oneof: a later member replaces an earlier one, as protobuf decoders do.
  switch (tag) {
    case delimited(1):
      clearOneof(m);
      m.response_range = nested(r, newRange(), rangeFields);
      break;
    case delimited(2):
      clearOneof(m);
      m.response_put = nested(r, { header: emptyHeader(), prev_kv: null }, putFields);
      break;
    case delimited(3):
      clearOneof(m);
      m.response_delete_range = nested(r, newDeleteRange(), deleteRangeFields);
      break;
    default:
      r.skipType(tag & 7);
  }
}

function clearOneof(m: ResponseOp): void {
  delete m.response_range;
  delete m.response_put;
  delete m.response_delete_range;
}

function txnFields(r: Reader, m: TxnResponse, tag: number): void {
  switch (tag) {
    case delimited(1):
      m.header = readHeader(r);
      break;
    case varint(2):
      m.succeeded = r.bool();
      break;
    case delimited(3):
      m.responses.push(nested(r, {}, responseOpFields));
      break;
    default:
      r.skipType(tag & 7);
  }
}

function eventFields(r: Reader, m: WatchEvent, tag: number): void {
  switch (tag) {
    case varint(1):
      m.type = r.int32() === 1 ? "DELETE" : "PUT";
      break;
    case delimited(2):
      m.kv = readKv(r);
      break;
    case delimited(3):
      m.prev_kv = readKv(r);
      break;
    default:
      r.skipType(tag & 7);
  }
}

const emptyKv = (): EtcdKv => ({ key: EMPTY, value: EMPTY, create_revision: 0, mod_revision: 0, version: 0 });

function watchFields(r: Reader, m: WatchResponse, tag: number): void {
  switch (tag) {
    case delimited(1):
      m.header = readHeader(r);
      break;
    case varint(2):
      m.watch_id = int64(r);
      break;
    case varint(3):
      m.created = r.bool();
      break;
    case varint(4):
      m.canceled = r.bool();
      break;
    case varint(5):
      m.compact_revision = int64(r);
      break;
    case delimited(6):
      m.cancel_reason = r.string();
      break;
    case varint(7):
      m.fragment = r.bool();
      break;
    case delimited(11):
      m.events.push(nested(r, { type: "PUT", kv: emptyKv(), prev_kv: null } as WatchEvent, eventFields));
      break;
    default:
      r.skipType(tag & 7);
  }
}

function statusFields(r: Reader, m: StatusResponse, tag: number): void {
  if (tag === delimited(1)) m.header = readHeader(r);
  else if (tag === delimited(2)) m.version = r.string();
  else if (tag === varint(3)) m.dbSize = int64(r);
  else if (tag === varint(4)) m.leader = int64(r);
  else r.skipType(tag & 7);
}

/** A top-level message: the whole buffer is its body. */
function decoder<T>(init: () => T, field: (r: Reader, m: T, tag: number) => void): (b: Buffer) => T {
  return (b) => {
    const r = protobuf.Reader.create(b);
    const m = init();
    while (r.pos < r.len) field(r, m, r.uint32());
    return m;
  };
}

export const decodeRangeResponse = decoder(newRange, rangeFields);
export const decodeTxnResponse = decoder((): TxnResponse => ({ header: emptyHeader(), succeeded: false, responses: [] }), txnFields);
export const decodeDeleteRangeResponse = decoder(newDeleteRange, deleteRangeFields);
export const decodeCompactionResponse = decoder(
  (): { header: EtcdHeader } => ({ header: emptyHeader() }),
  (r, m, tag) => {
    if (tag === delimited(1)) m.header = readHeader(r);
    else r.skipType(tag & 7);
  },
);
export const decodeStatusResponse = decoder((): StatusResponse => ({ header: emptyHeader(), version: "", dbSize: 0, leader: 0 }), statusFields);
export const decodeWatchResponse = decoder(
  (): WatchResponse => ({ header: emptyHeader(), watch_id: 0, created: false, canceled: false, compact_revision: 0, cancel_reason: "", fragment: false, events: [] }),
  watchFields,
);
