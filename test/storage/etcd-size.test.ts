/**
 * etcd's request size limit, against a real etcd: its refusal reaches crdkit as RequestTooLargeError with
 * etcd's text, and the embedded store's prediction of the limit (the protobuf size of the transaction)
 * is within a few dozen bytes of what etcd accepts.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { checkEtcdRequestSize, RequestTooLargeError } from "../../src/storage/request-size.js";
import { EtcdProcess } from "./etcd-process.js";

let etcd: EtcdProcess;
before(async () => {
  etcd = await EtcdProcess.start();
});
after(() => etcd.cleanup());

describe("etcd request size", { timeout: 120_000 }, () => {
  it("etcd refuses as crdkit's store predicts", async () => {
    const store = new EtcdStore({ servers: [etcd.url], prefix: "", callTimeoutMs: 10_000, compactionIntervalMs: 0 });
    try {
      const key = (i: number) => `/registry/test.example.com/widgets/default/w${String(i).padStart(3, "0")}`;
      let n = 0;
      const accepts = async (size: number) => {
        try {
          await store.create(key(n++), "x".repeat(size));
          return true;
        } catch (e) {
          assert.ok(e instanceof RequestTooLargeError, String(e));
          assert.equal(e.message, "etcdserver: request is too large");
          return false;
        }
      };
      let lo = 1_500_000;
      let hi = 1_600_000;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (await accepts(mid)) lo = mid;
        else hi = mid;
      }
      // The embedded store's limit for the same key (the stored text plus the encoder's newline).
      const predicts = (size: number) => {
        try {
          checkEtcdRequestSize(key(999), "x".repeat(size - 1), 0, false);
          return true;
        } catch {
          return false;
        }
      };
      let a = 1_500_000;
      let b = 1_600_000;
      while (b - a > 1) {
        const mid = (a + b) >> 1;
        if (predicts(mid)) a = mid;
        else b = mid;
      }
      assert.ok(Math.abs(lo - a) <= 64, `etcd accepts ${lo} bytes, crdkit predicts ${a}`);
      // Over the client's 2 MiB send limit: refused before it reaches etcd, as a size error too.
      await assert.rejects(store.create(key(998), "x".repeat(2_100_000)), RequestTooLargeError);
    } finally {
      await store.close();
    }
  });
});
