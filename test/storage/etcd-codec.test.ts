/**
 * The etcd store's protobuf codec (src/storage/etcd/etcd-codec.ts) against protobufjs' reflection of etcd's
 * schema (etcd-proto-schema.ts): every request the store sends encodes to the bytes protobufjs writes for
 * it, and responses protobufjs writes decode to the plain objects the store reads.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as codec from "../../src/storage/etcd/etcd-codec.js";
import { etcdProtoRoot } from "./etcd-proto-schema.js";

const root = etcdProtoRoot();
const type = (name: string) => root.lookupType(`etcdserverpb.${name}`);
/** protobufjs' encoding of a plain object (enum names resolved by fromObject). */
const reflect = (name: string, obj: object) => Buffer.from(type(name).encode(type(name).fromObject(obj)).finish());

const k = (s: string) => Buffer.from(s);
const BIG = 2 ** 45 + 3; // beyond 32 bits: int64 varints of 7 bytes
/** The decoded header of `header` below. */
const H = { revision: BIG, member_id: 12 };

describe("etcd codec: requests encode as protobufjs encodes them", () => {
  const txns: [string, codec.TxnRequest][] = [
    ["create", { compare: [{ result: "EQUAL", target: "MOD", key: k("/registry/a"), mod_revision: 0 }], success: [{ request_put: { key: k("/registry/a"), value: k('{"a":1}\n') } }], failure: [] }],
    [
      "update with a guard and a failure read",
      {
        compare: [{ result: "EQUAL", target: "MOD", key: k("/registry/a"), mod_revision: BIG }],
        success: [{ request_put: { key: k("/registry/a"), value: k("x".repeat(300)), prev_kv: true } }],
        failure: [{ request_range: { key: k("/registry/a") } }],
      },
    ],
    [
      "unconditional delete",
      {
        compare: [{ result: "GREATER", target: "CREATE", key: k("/registry/a"), create_revision: 0 }],
        success: [{ request_delete_range: { key: k("/registry/a"), prev_kv: true } }],
        failure: [{ request_range: { key: k("/registry/a") } }],
      },
    ],
    [
      "compactor",
      {
        compare: [{ result: "EQUAL", target: "VERSION", key: k("compact_rev_key"), version: 7 }],
        success: [{ request_put: { key: k("compact_rev_key"), value: k("123") } }],
        failure: [{ request_range: { key: k("compact_rev_key") } }],
      },
    ],
    ["other compares", { compare: [{ result: "NOT_EQUAL", target: "VALUE", key: k("a"), value: k("v") }, { result: "LESS", target: "LEASE", key: k("b"), lease: 5 }], success: [], failure: [] }],
    ["batched reads", { compare: [], success: [{ request_range: { key: k("/r/a") } }, { request_range: { key: k("/r/b"), count_only: true } }], failure: [] }],
    ["empty", { compare: [], success: [], failure: [] }],
  ];
  for (const [name, req] of txns) it(`Txn: ${name}`, () => assert.deepEqual(codec.encodeTxnRequest(req), reflect("TxnRequest", req)));

  const ranges: codec.RangeRequest[] = [
    { key: k("/registry/") },
    { key: k("/registry/"), range_end: k("/registry0"), limit: 500, revision: BIG },
    { key: k("/registry/"), count_only: true },
    { key: k("\0"), range_end: k("\0"), revision: 3, count_only: true, keys_only: false, serializable: true },
    { key: k(""), limit: 0 },
  ];
  for (const [i, req] of ranges.entries()) it(`Range ${i}: ${Object.keys(req).join(", ")}`, () => assert.deepEqual(codec.encodeRangeRequest(req), reflect("RangeRequest", req)));

  it("DeleteRange, Compaction, Status", () => {
    const del = { key: k("/registry/"), range_end: k("/registry0") };
    assert.deepEqual(codec.encodeDeleteRangeRequest(del), reflect("DeleteRangeRequest", del));
    assert.deepEqual(codec.encodeCompactionRequest(H), reflect("CompactionRequest", H));
    assert.deepEqual(codec.encodeStatusRequest({}), reflect("StatusRequest", {}));
  });

  const watches: codec.WatchRequest[] = [
    { create_request: { key: k("/registry/"), range_end: k("/registry0"), start_revision: BIG, prev_kv: true, progress_notify: true } },
    { create_request: { key: k("\0"), range_end: k("\0"), start_revision: 1 } },
    { progress_request: {} },
    { cancel_request: { watch_id: 4 } },
  ];
  for (const req of watches) it(`Watch ${Object.keys(req)[0]}`, () => assert.deepEqual(codec.encodeWatchRequest(req), reflect("WatchRequest", req)));

  it("refuses an unknown compare target", () => {
    assert.throws(() => codec.encodeTxnRequest({ compare: [{ result: "EQUAL", target: "NOPE" as "MOD", key: k("a") }], success: [], failure: [] }), TypeError);
  });
});

describe("etcd codec: responses decode to plain objects", () => {
  // Fields the store does not read (cluster_id, raft_term, lease) are in the input and skipped.
  const header = { cluster_id: 11, member_id: 12, revision: BIG, raft_term: 13 };
  const kv = (key: string, value: string, create: number, mod: number) => ({ key: k(key), value: k(value), create_revision: create, mod_revision: mod, version: 2, lease: 9 });
  const plainKv = (key: string, value: string, create: number, mod: number): codec.EtcdKv => ({ key: k(key), value: k(value), create_revision: create, mod_revision: mod, version: 2 });

  it("Range", () => {
    const b = reflect("RangeResponse", { header, kvs: [kv("/a", "1", 5, 6), kv("/b", "", 7, 7)], more: true, count: 42 });
    assert.deepEqual(codec.decodeRangeResponse(b), { header: H, kvs: [plainKv("/a", "1", 5, 6), plainKv("/b", "", 7, 7)], more: true, count: 42 });
    assert.deepEqual(codec.decodeRangeResponse(reflect("RangeResponse", { header })), { header: H, kvs: [], more: false, count: 0 });
  });

  it("Txn with each kind of response", () => {
    const b = reflect("TxnResponse", {
      header,
      succeeded: true,
      responses: [
        { response_put: { header, prev_kv: kv("/a", "old", 3, 4) } },
        { response_put: { header } },
        { response_range: { header, kvs: [kv("/a", "v", 3, 8)], count: 1 } },
        { response_delete_range: { header, deleted: 1, prev_kvs: [kv("/d", "gone", 2, 2)] } },
      ],
    });
    const h = H;
    assert.deepEqual(codec.decodeTxnResponse(b), {
      header: h,
      succeeded: true,
      responses: [
        { response_put: { header: h, prev_kv: plainKv("/a", "old", 3, 4) } },
        { response_put: { header: h, prev_kv: null } },
        { response_range: { header: h, kvs: [plainKv("/a", "v", 3, 8)], more: false, count: 1 } },
        { response_delete_range: { header: h, deleted: 1, prev_kvs: [plainKv("/d", "gone", 2, 2)] } },
      ],
    });
    assert.deepEqual(codec.decodeTxnResponse(reflect("TxnResponse", { header })), { header: h, succeeded: false, responses: [] });
  });

  it("Watch: created, events, progress, cancellation", () => {
    const h = H;
    const events = reflect("WatchResponse", {
      header,
      watch_id: 3,
      events: [{ type: "PUT", kv: kv("/a", "1", 9, 9) }, { type: "PUT", kv: kv("/a", "2", 9, 10), prev_kv: kv("/a", "1", 9, 9) }, { type: "DELETE", kv: { key: k("/a"), mod_revision: 11 }, prev_kv: kv("/a", "2", 9, 10) }],
    });
    assert.deepEqual(codec.decodeWatchResponse(events), {
      header: h,
      watch_id: 3,
      created: false,
      canceled: false,
      compact_revision: 0,
      cancel_reason: "",
      fragment: false,
      events: [
        { type: "PUT", kv: plainKv("/a", "1", 9, 9), prev_kv: null },
        { type: "PUT", kv: plainKv("/a", "2", 9, 10), prev_kv: plainKv("/a", "1", 9, 9) },
        { type: "DELETE", kv: { key: k("/a"), value: Buffer.alloc(0), create_revision: 0, mod_revision: 11, version: 0 }, prev_kv: plainKv("/a", "2", 9, 10) },
      ],
    });
    const cancelled = codec.decodeWatchResponse(reflect("WatchResponse", { header, created: true, canceled: true, compact_revision: 77, cancel_reason: "mvcc: required revision has been compacted" }));
    assert.deepEqual([cancelled.created, cancelled.canceled, cancelled.compact_revision, cancelled.cancel_reason, cancelled.events], [true, true, 77, "mvcc: required revision has been compacted", []]);
  });

  it("DeleteRange, Compaction, Status", () => {
    assert.deepEqual(codec.decodeDeleteRangeResponse(reflect("DeleteRangeResponse", { header, deleted: BIG })), { header: H, deleted: BIG, prev_kvs: [] });
    assert.deepEqual(codec.decodeCompactionResponse(reflect("CompactionResponse", { header })), { header: H });
    assert.deepEqual(codec.decodeStatusResponse(reflect("StatusResponse", { header, version: "3.4.23", dbSize: 20480, leader: 2 ** 60, raftIndex: 2, raftTerm: 3 })), {
      header: H,
      version: "3.4.23",
      dbSize: 20480,
      leader: 2 ** 60,
    });
  });

  it("rejects a truncated message instead of reading past it", () => {
    const b = reflect("RangeResponse", { header, kvs: [kv("/a", "1", 5, 6)] });
    assert.throws(() => codec.decodeRangeResponse(b.subarray(0, b.length - 3)), RangeError);
  });
});
