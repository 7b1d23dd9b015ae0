import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type EtcdFlags, etcdStoreOptions, setEtcdFlag } from "../../src/cli/etcd-flags.js";
import { runServe } from "../../src/cli/serve.js";

describe("crdkit serve etcd flags", () => {
  const ok: [string, string, Partial<EtcdFlags>][] = [
    ["--etcd-servers", "http://127.0.0.1:2379,http://10.0.0.2:2379", { servers: ["http://127.0.0.1:2379", "http://10.0.0.2:2379"] }],
    ["--etcd-prefix", "/kube", { prefix: "/kube" }],
    ["--etcd-compaction-interval", "5m", { compactionIntervalMs: 300_000 }],
    ["--etcd-compaction-interval", "0", { compactionIntervalMs: 0 }],
    ["--request-timeout", "1m30s", { requestTimeoutMs: 90_000 }],
  ];
  for (const [flag, value, want] of ok) {
    it(`accepts ${flag}=${value}`, () => {
      const f: EtcdFlags = {};
      assert.equal(setEtcdFlag(f, flag, value), undefined);
      assert.deepEqual(f, want);
    });
  }
  const bad: [string, string | undefined, string][] = [
    ["--etcd-servers", "127.0.0.1:2379", 'invalid --etcd-servers URL "127.0.0.1:2379": want http(s)://host:port'],
    ["--etcd-servers", undefined, "flag --etcd-servers needs a value"],
    ["--etcd-compaction-interval", "5 minutes", 'invalid --etcd-compaction-interval "5 minutes": want a duration such as 5m or 30s'],
    ["--request-timeout", "0s", 'invalid --request-timeout "0s": must be positive'],
  ];
  for (const [flag, value, msg] of bad) {
    it(`refuses ${flag}=${value}`, () => assert.equal(setEtcdFlag({}, flag, value), msg));
  }

  it("builds store options only with --etcd-servers, and TLS files in pairs", () => {
    assert.equal(etcdStoreOptions({}), undefined);
    assert.equal(etcdStoreOptions({ prefix: "/x" }), "--etcd-prefix and the --etcd-*file flags need --etcd-servers");
    assert.equal(etcdStoreOptions({ servers: ["https://e:2379"], certFile: "c" }), "--etcd-certfile and --etcd-keyfile go together");
    assert.deepEqual(etcdStoreOptions({ servers: ["http://e:2379"], prefix: "/p", requestTimeoutMs: 5000, compactionIntervalMs: 0 }), {
      servers: ["http://e:2379"],
      prefix: "/p",
      callTimeoutMs: 5000,
      compactionIntervalMs: 0,
    });
  });

  it("exits 2 with the usage for a bad etcd flag or --data with --etcd-servers", async () => {
    for (const args of [["--etcd-servers=nope"], ["--data", "/tmp/x", "--etcd-servers=http://127.0.0.1:1"]]) {
      let err = "";
      const code = await runServe(args, { stdout: () => {}, stderr: (t) => (err += t) });
      assert.equal(code, 2);
      assert.match(err, /^crdkit serve: (invalid --etcd-servers URL "nope": want http\(s\):\/\/host:port|--data and --etcd-servers exclude each other)\nUsage: crdkit serve/);
    }
  });
});
