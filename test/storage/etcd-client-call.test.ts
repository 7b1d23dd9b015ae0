/**
 * EtcdClient's unary calls (made on grpc-js' channel call layer, not through Client.makeUnaryRequest) against
 * a gRPC server of the test's own that answers as the test says: answers are decoded, gRPC failures reach the
 * store as kube-apiserver words them, an undecodable answer is an error (never a crash), a call past its
 * deadline is the 504's StoreUnavailableError, reads are retried on Unavailable and writes are not.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import * as grpc from "@grpc/grpc-js";
import { EtcdClient } from "../../src/storage/etcd/etcd-client.js";
import { StoreUnavailableError } from "../../src/storage/types.js";
import { etcdProtoRoot } from "./etcd-proto-schema.js";

const root = etcdProtoRoot();
const encode = (name: string, obj: object) => {
  const t = root.lookupType(`etcdserverpb.${name}`);
  return Buffer.from(t.encode(t.fromObject(obj)).finish());
};

type Answer = { error: Partial<grpc.StatusObject> } | { bytes: Buffer } | "never";
/** What the server answers, per method name, call by call (the last one repeats). */
const script = new Map<string, Answer[]>();
const calls = new Map<string, number>();
const held: (() => void)[] = [];

function handler(name: string): grpc.handleUnaryCall<Buffer, Buffer> {
  return (_call, callback) => {
    const n = calls.get(name) ?? 0;
    calls.set(name, n + 1);
    const answers = script.get(name) ?? [];
    const a = answers[Math.min(n, answers.length - 1)];
    if (a === undefined) return callback({ code: grpc.status.UNIMPLEMENTED, details: "no answer scripted" });
    if (a === "never") {
      held.push(() => callback({ code: grpc.status.CANCELLED, details: "test over" }));
      return;
    }
    if ("error" in a) return callback(a.error);
    callback(null, a.bytes);
  };
}

const raw = (path: string): grpc.MethodDefinition<Buffer, Buffer> => ({
  path,
  requestStream: false,
  responseStream: false,
  requestSerialize: (b: Buffer) => b,
  requestDeserialize: (b: Buffer) => b,
  responseSerialize: (b: Buffer) => b,
  responseDeserialize: (b: Buffer) => b,
});

describe("EtcdClient unary calls", () => {
  let server: grpc.Server;
  let client: EtcdClient;

  before(async () => {
    server = new grpc.Server();
    server.addService({ Range: raw("/etcdserverpb.KV/Range"), Txn: raw("/etcdserverpb.KV/Txn") }, { Range: handler("Range"), Txn: handler("Txn") });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    client = new EtcdClient({ servers: [`http://127.0.0.1:${port}`] });
  });

  after(() => {
    for (const release of held) release();
    client.close();
    server.forceShutdown();
  });

  const reset = (name: string, answers: Answer[]) => {
    script.set(name, answers);
    calls.set(name, 0);
  };

  it("decodes an answer", async () => {
    reset("Range", [{ bytes: encode("RangeResponse", { header: { revision: 42 }, count: 7 }) }]);
    const r = await client.range({ key: Buffer.from("/registry/x"), count_only: true });
    assert.equal(r.header.revision, 42);
    assert.equal(r.count, 7);
  });

  it("reports a failed call with Go's gRPC error text", async () => {
    reset("Range", [{ error: { code: grpc.status.INVALID_ARGUMENT, details: "etcdserver: mvcc: something" } }]);
    await assert.rejects(client.range({ key: Buffer.from("/registry/x") }), (e: Error) => {
      assert.equal(e.message, "rpc error: code = InvalidArgument desc = etcdserver: mvcc: something");
      return true;
    });
    assert.equal(calls.get("Range"), 1);
  });

  it("fails a call whose answer is not the method's message", async () => {
    reset("Range", [{ bytes: Buffer.from([0x0a, 0xff, 0xff, 0xff]) }]);
    await assert.rejects(client.range({ key: Buffer.from("/registry/x") }), (e: Error) => {
      assert.match(e.message, /^rpc error: code = Internal desc = Response message parsing error: /);
      return true;
    });
  });

  it("answers a call past its deadline with the request timeout's text", async () => {
    reset("Range", ["never"]);
    await assert.rejects(client.range({ key: Buffer.from("/registry/x") }, Date.now() + 200), (e: Error) => {
      assert.ok(e instanceof StoreUnavailableError);
      assert.equal(e.timeout, true);
      assert.equal(e.message, "request did not complete within requested timeout - context deadline exceeded");
      return true;
    });
  });

  it("retries a read that failed with Unavailable, and never a write", async () => {
    const unavailable: Answer = { error: { code: grpc.status.UNAVAILABLE, details: "etcdserver: leader changed" } };
    reset("Range", [unavailable, unavailable, { bytes: encode("RangeResponse", { header: { revision: 9 } }) }]);
    const r = await client.range({ key: Buffer.from("/registry/x"), count_only: true });
    assert.equal(r.header.revision, 9);
    assert.equal(calls.get("Range"), 3);

    reset("Txn", [unavailable, { bytes: encode("TxnResponse", { header: { revision: 10 }, succeeded: true }) }]);
    const put = client.txn({ compare: [], success: [{ request_put: { key: Buffer.from("/registry/x"), value: Buffer.from("{}") } }], failure: [] });
    await assert.rejects(put, (e: Error) => {
      assert.ok(e instanceof StoreUnavailableError);
      assert.equal(e.message, "rpc error: code = Unavailable desc = etcdserver: leader changed");
      return true;
    });
    assert.equal(calls.get("Txn"), 1);
  });
});
