#!/usr/bin/env node
/**
 * `npm run golden:server`: builds tools/k8s-server-oracle (Go: the real k8s.io/apiextensions-apiserver,
 * standalone), starts it on a fresh etcd on free loopback ports, runs every sequence of
 * test/server-diff/sequences against it and writes the normalised answers to test/golden/server/<name>.json.
 * `npm test` replays them against `crdkit serve` (test/server-diff/server-diff.test.ts).
 * Needs Go and etcd (`apt-get install -y etcd-server`); `K8S_SERVER_ORACLE_BIN=.cache/go-tools/kube-apiserver` uses
 * that build of the oracle instead of building it; `K8S_SERVER_ORACLE_ETCD=.cache/go-tools/etcd-3.6` runs it on that etcd
 * (default: `etcd` on the PATH; a sequence records the etcd it ran on). Arguments: sequence names to record (default all).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { oracleBinary, startOracleCluster } from "../test/server-diff/oracle.js";
import { loadSequences, REPO_ROOT, runSequence } from "../test/server-diff/runner.js";

async function main(): Promise<void> {
  const only = new Set(process.argv.slice(2));
  const cluster = await startOracleCluster(oracleBinary());
  try {
    mkdirSync(join(REPO_ROOT, "test", "golden", "server"), { recursive: true });
    for (const [name, seq] of loadSequences()) {
      if (only.size > 0 && !only.has(name)) continue;
      // A fresh server on its own etcd prefix per sequence: sequences cannot see each other's objects.
      const oracle = await cluster.startOracle(name);
      try {
        const results = await runSequence(oracle.target, seq);
        const out = { recordedWith: `k8s.io/apiextensions-apiserver v0.37.2 on etcd ${cluster.etcdVersion} (tools/k8s-server-oracle)`, sequence: name, results };
        writeFileSync(join(REPO_ROOT, "test", "golden", "server", `${name}.json`), `${JSON.stringify(out, null, 1)}\n`);
        process.stdout.write(`recorded ${name}: ${results.length} answers\n`);
      } finally {
        await oracle.stop();
      }
    }
  } finally {
    await cluster.close();
  }
}

await main();
