#!/usr/bin/env node
/**
 * `npm run golden:controller`: runs tools/controller-e2e (a controller-runtime controller, built by
 * scripts/go-tools.mjs) against the real apiextensions-apiserver (tools/k8s-server-oracle on a fresh etcd) and
 * writes its observations to test/golden/controller/controller-e2e.jsonl, which
 * test/interop/controller-runtime.test.ts compares crdkit's with; and writes client-go's protobuf request
 * bodies beside their JSON (`controller-e2e --protobuf-fixtures`) to test/server/fixtures/protobuf-bodies.json.
 * Environment as `npm run golden:server` (K8S_SERVER_ORACLE_BIN, K8S_SERVER_ORACLE_ETCD); CONTROLLER_E2E: the
 * program (default .cache/go-tools/controller-e2e).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { oracleBinary, startOracleCluster } from "../test/server-diff/oracle.js";
import { REPO_ROOT } from "../test/server-diff/runner.js";

const binary = process.env["CONTROLLER_E2E"] ?? join(REPO_ROOT, ".cache", "go-tools", "controller-e2e");
writeFileSync(join(REPO_ROOT, "test", "server", "fixtures", "protobuf-bodies.json"), execFileSync(binary, ["--protobuf-fixtures"], { encoding: "utf8" }));
const cluster = await startOracleCluster(oracleBinary());
try {
  const oracle = await cluster.startOracle("controller-e2e");
  try {
    const url = oracle.target.url;
    const run = spawnSync(binary, ["--server", url, "--token", "oracle", "--insecure", "--wait", "60s"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`controller-e2e failed against the real server:\n${run.stdout}\n${run.stderr.slice(-4000)}`);
    mkdirSync(join(REPO_ROOT, "test", "golden", "controller"), { recursive: true });
    writeFileSync(join(REPO_ROOT, "test", "golden", "controller", "controller-e2e.jsonl"), run.stdout);
    process.stdout.write(`recorded controller-e2e: ${run.stdout.trim().split("\n").length} observations\n`);
  } finally {
    await oracle.stop();
  }
} finally {
  await cluster.close();
}
