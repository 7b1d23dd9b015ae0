/** The garbage collector on etcd (each server a new client of the same etcd, so restarts keep the data). */
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "../storage/etcd-process.js";
import { gcSuite } from "./gc-suite.js";

gcSuite("etcd", async () => {
  const etcd = await EtcdProcess.start();
  return {
    open: () => new EtcdStore({ servers: [etcd.url], prefix: "/registry", compactionIntervalMs: 0 }),
    cleanup: () => etcd.cleanup(),
  };
});
