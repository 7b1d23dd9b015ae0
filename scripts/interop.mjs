#!/usr/bin/env node
// `npm run interop`: builds tools/k8s-server-oracle (Go: the real apiextensions-apiserver) and runs the interop
// test — the real server and crdkit serve on one etcd, each serving what the other wrote.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "node_modules", ".cache", "k8s-server-oracle");
mkdirSync(out, { recursive: true });
const bin = join(out, "kube-apiserver");
execFileSync("go", ["build", "-o", bin, "."], { cwd: join(root, "tools", "k8s-server-oracle"), stdio: "inherit" });
execFileSync(process.execPath, ["--import", "tsx", "--test", "--test-timeout=120000", "test/interop/real-server-etcd.test.ts"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, K8S_SERVER_ORACLE: bin },
});
