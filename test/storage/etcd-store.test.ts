import { after, before } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
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
