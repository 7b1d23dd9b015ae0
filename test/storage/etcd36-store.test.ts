/**
 * The shared store suite on etcd 3.6 (built from the Go module proxy by scripts/go-tools.mjs; Debian ships
 * 3.4), so that EtcdStore is known to work on current etcd too. `npm run interop` builds and runs it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { goTool } from "../interop/go-tools.js";
import { EtcdProcess } from "./etcd-process.js";
import { storeSuite } from "./store-suite.js";

const { path: bin, skip } = goTool("etcd-3.6", "CRDKIT_ETCD36");

let etcd: EtcdProcess | undefined;
let n = 0;
before(async () => {
  if (bin) etcd = await EtcdProcess.start({ bin });
});
after(() => etcd?.cleanup());

describe("etcd 3.6", { skip }, () => {
  it("is the etcd this file runs on", async () => {
    assert.match(EtcdProcess.version(bin!), /^3\.6\./);
    const store = new EtcdStore({ servers: [etcd!.url], compactionIntervalMs: 0 });
    try {
      assert.match(await store.serverVersion(), /^3\.6\./);
    } finally {
      await store.close();
    }
  });
});

storeSuite(
  "EtcdStore on etcd 3.6",
  async () => {
    const store = new EtcdStore({ servers: [etcd!.url], prefix: `/suite-${++n}`, callTimeoutMs: 10_000 });
    return { store, compact: (rev) => store.compact(rev), close: () => store.close() };
  },
  skip,
);
