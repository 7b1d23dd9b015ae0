import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { EtcdKv, TxnResponse } from "../../src/storage/etcd/etcd-client.js";
import { EtcdReadBatcher } from "../../src/storage/etcd/etcd-read-batcher.js";
import { StoreUnavailableError } from "../../src/storage/types.js";

const kv = (key: string, rev: number): EtcdKv => ({ key: Buffer.from(key), value: Buffer.from("{}\n"), create_revision: rev, mod_revision: rev, version: 1 });

/** A fake etcd Txn over a fixed map, recording each call's range keys; `gate` holds calls until released. */
function fakeEtcd(data: Record<string, number>) {
  const calls: string[][] = [];
  const gates: (() => void)[] = [];
  const txn = async (req: object): Promise<TxnResponse> => {
    const ops = (req as { success: { request_range: { key: Buffer } }[] }).success;
    const keys = ops.map((o) => o.request_range.key.toString());
    calls.push(keys);
    await new Promise<void>((r) => gates.push(r));
    return {
      header: { revision: 100 },
      succeeded: true,
      responses: keys.map((k) => ({ response_range: { header: { revision: 100 }, kvs: data[k] ? [kv(k, data[k])] : [], more: false, count: data[k] ? 1 : 0 } })),
    };
  };
  const release = async () => {
    await new Promise((r) => setImmediate(r));
    for (const g of gates.splice(0)) g();
    await new Promise((r) => setImmediate(r));
  };
  return { txn, calls, release };
}

describe("EtcdReadBatcher", () => {
  it("sends the reads of one turn in one Txn and coalesces the reads that arrive meanwhile into the next", async () => {
    const etcd = fakeEtcd({ a: 5, b: 7 });
    const b = new EtcdReadBatcher(etcd.txn, 10_000);
    const first = [b.get(Buffer.from("a")), b.get(Buffer.from("b"))];
    // Nothing is sent before the turn ends.
    assert.deepEqual(etcd.calls, []);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(etcd.calls, [["a", "b"]]);
    // A second batch may be in flight with the first; reads of a later turn go in it.
    const second = [b.get(Buffer.from("b")), b.get(Buffer.from("a"))];
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(etcd.calls, [["a", "b"], ["b", "a"]]);
    // Both slots busy: the next reads wait and go together once one is free.
    const later = [b.get(Buffer.from("b")), b.get(Buffer.from("missing")), b.get(Buffer.from("a")), b.get(Buffer.from("b"))];
    await new Promise((r) => setImmediate(r));
    assert.equal(etcd.calls.length, 2);
    await etcd.release();
    await new Promise((r) => setImmediate(r));
    // Distinct keys once each, in arrival order.
    assert.deepEqual(etcd.calls.slice(2), [["b", "missing", "a"]]);
    await etcd.release();
    const got = await Promise.all([...first, ...second, ...later]);
    assert.deepEqual(
      got.map((r) => (r.kv ? `${r.kv.key.toString()}@${r.kv.mod_revision}` : "none")),
      ["a@5", "b@7", "b@7", "a@5", "b@7", "none", "a@5", "b@7"],
    );
    assert.ok(got.every((r) => r.revision === 100));
  });

  it("fails every read of a failed batch with its error, and serves the next batch", async () => {
    let fail = true;
    let n = 0;
    const b = new EtcdReadBatcher(async () => {
      n++;
      if (fail) throw new StoreUnavailableError("rpc error: code = Unavailable desc = connection refused");
      return { header: { revision: 3 }, succeeded: true, responses: [{ response_range: { header: { revision: 3 }, kvs: [kv("x", 2)], more: false, count: 1 } }] };
    }, 10_000);
    await assert.rejects(b.get(Buffer.from("x")), /connection refused/);
    fail = false;
    assert.equal((await b.get(Buffer.from("x"))).kv?.mod_revision, 2);
    assert.equal(n, 2);
  });

  it("answers a read whose deadline passed while it waited with the request timeout, without sending it", async () => {
    const etcd = fakeEtcd({ a: 1 });
    const b = new EtcdReadBatcher(etcd.txn, 30);
    const busy = [b.get(Buffer.from("a"))];
    await new Promise((r) => setImmediate(r));
    busy.push(b.get(Buffer.from("a")));
    await new Promise((r) => setImmediate(r));
    const waiting = b.get(Buffer.from("late")).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 60));
    await etcd.release();
    const e = await waiting;
    assert.ok(e instanceof StoreUnavailableError);
    assert.equal(e.message, "request did not complete within requested timeout - context deadline exceeded");
    await Promise.all(busy);
    assert.deepEqual(etcd.calls, [["a"], ["a"]]);
  });

  it("sends a batch of revision reads alone as one count-only Range of the revision key, and counts batches and reads", async () => {
    const ranges: { req: object; deadline: number }[] = [];
    let txns = 0;
    const b = new EtcdReadBatcher(
      async () => {
        txns++;
        return { header: { revision: 9 }, succeeded: true, responses: [{ response_range: { header: { revision: 9 }, kvs: [kv("a", 4)], more: false, count: 1 } }] };
      },
      5000,
      Buffer.from("/registry/"),
      async (req, deadline) => {
        ranges.push({ req, deadline });
        return { header: { revision: 12 } };
      },
    );
    const t0 = Date.now();
    assert.deepEqual(await Promise.all([b.revision(), b.revision(), b.revision()]), [12, 12, 12]);
    assert.equal(ranges.length, 1);
    assert.deepEqual(ranges[0]!.req, { key: Buffer.from("/registry/"), count_only: true });
    assert.ok(ranges[0]!.deadline >= t0 + 5000);
    assert.equal(txns, 0);
    // A batch with a key read goes as a Txn; its revision reads take the Txn's revision.
    const [rev, got] = await Promise.all([b.revision(), b.get(Buffer.from("a"))]);
    assert.equal(rev, 9);
    assert.equal(got.kv?.mod_revision, 4);
    assert.equal(txns, 1);
    assert.equal(ranges.length, 1);
    assert.deepEqual(b.stats, { batches: 2, reads: 5 });
  });

  it("passes the earliest deadline of a batch's readers to the Txn", async () => {
    const deadlines: number[] = [];
    const b = new EtcdReadBatcher(async (_req, deadline) => {
      deadlines.push(deadline);
      return { header: { revision: 1 }, succeeded: true, responses: [{ response_range: { header: { revision: 1 }, kvs: [], more: false, count: 0 } }] };
    }, 5000);
    const t0 = Date.now();
    await b.get(Buffer.from("k"));
    assert.ok(deadlines[0]! >= t0 + 5000 && deadlines[0]! <= Date.now() + 5000);
  });
});
