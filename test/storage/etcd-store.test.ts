import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { StoreUnavailableError } from "../../src/storage/types.js";
import { EtcdProcess } from "./etcd-process.js";
import { storeSuite } from "./store-suite.js";

let etcd: EtcdProcess;
let n = 0;
before(async () => {
  etcd = await EtcdProcess.start();
});
after(() => etcd.cleanup());

storeSuite("EtcdStore", async () => {
  const store = new EtcdStore({ servers: [etcd.url], prefix: `/suite-${++n}`, callTimeoutMs: 10_000 });
  return { store, compact: (rev) => store.compact(rev), close: () => store.close() };
});

describe("EtcdStore connection", () => {
  it("uses the next --etcd-servers member when one does not answer", async () => {
    // A loopback port nobody listens on (etcd's peer port is taken by etcd itself, so use a fresh one).
    const dead = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, "127.0.0.1", () => {
        const port = (srv.address() as { port: number }).port;
        srv.close(() => resolve(port));
      });
    });
    const store = new EtcdStore({ servers: [`http://127.0.0.1:${dead}`, etcd.url], prefix: "/failover", callTimeoutMs: 10_000, compactionIntervalMs: 0 });
    try {
      const c = await store.create("/registry/x", "{}");
      assert.equal((await store.get("/registry/x"))?.modRevision, c.modRevision);
      assert.match(await store.serverVersion(), /^3\.\d+\.\d+/);
    } finally {
      await store.close();
    }
  });
});

describe("EtcdStore over TLS", () => {
  it("connects with --etcd-cafile/--etcd-certfile/--etcd-keyfile to an etcd that requires client certificates", async () => {
    const tlsEtcd = await EtcdProcess.start({ tls: true });
    const tls = tlsEtcd.tls!;
    try {
      const store = new EtcdStore({ servers: [tlsEtcd.url], caFile: tls.caFile, certFile: tls.certFile, keyFile: tls.keyFile, compactionIntervalMs: 0 });
      try {
        const c = await store.create("/registry/tls", '{"a":1}');
        assert.deepEqual(await store.get("/registry/tls"), { key: "/registry/tls", value: '{"a":1}', createRevision: c.modRevision, modRevision: c.modRevision });
      } finally {
        await store.close();
      }
      // Without a client certificate etcd refuses the handshake: the call fails instead of hanging.
      const anonymous = new EtcdStore({ servers: [tlsEtcd.url], caFile: tls.caFile, callTimeoutMs: 2000, compactionIntervalMs: 0 });
      try {
        await assert.rejects(anonymous.get("/registry/tls"), StoreUnavailableError);
      } finally {
        await anonymous.close();
      }
    } finally {
      await tlsEtcd.cleanup();
    }
  });
});
