#!/usr/bin/env node
// `npm run interop`: the tests that need Go-built programs (scripts/go-tools.mjs) — the real
// apiextensions-apiserver and crdkit serving each other's data on one etcd, and the etcd store suite and
// fault tests on etcd 3.6. Builds the programs unless a background build (.ci/run) is under way, in which
// case it waits for it (`--background-build`, as .ci/run calls it: only wait, never build). Go not installed:
// says so and exits 0 (the tests are skipped); a failed build fails.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildGoTools, GO_TOOLS, GO_TOOLS_DIR } from "./go-tools.mjs";

const root = join(GO_TOOLS_DIR, "..", "..");
const file = (t, ext) => join(GO_TOOLS_DIR, `${t.name}.${ext}`);
const t0 = Date.now();
/** The pid of a build under way (its `.pending` file names it), or undefined. */
function builder() {
  for (const t of GO_TOOLS) {
    if (!existsSync(file(t, "pending"))) continue;
    const pid = Number(readFileSync(file(t, "pending"), "utf8"));
    try {
      process.kill(pid, 0);
      return pid;
    } catch {
      // a stale marker of a build that died
    }
  }
  return undefined;
}
// Wait for a build under way (.ci/run's; `--background-build`: use its results, never build again);
// otherwise build (incremental: quick once Go's caches are warm).
const background = process.argv.includes("--background-build");
if (background || builder() !== undefined) {
  process.stdout.write("interop: waiting for the background Go build (.cache/go-tools)\n");
  while (builder() !== undefined) await new Promise((r) => setTimeout(r, 2000));
  process.stdout.write(`interop: waited ${Math.round((Date.now() - t0) / 1000)} s\n`);
  if (GO_TOOLS.some((t) => !existsSync(file(t, "exit")))) {
    if (background) {
      process.stderr.write("interop: the background Go build did not finish (see .cache/go-tools/build.log)\n");
      process.exit(1);
    }
    await buildGoTools();
  }
} else {
  await buildGoTools();
}
let failed = false;
for (const t of GO_TOOLS) {
  const exit = readFileSync(file(t, "exit"), "utf8").trim();
  if (exit === "no-go") {
    process.stdout.write("interop: skipped — Go is not installed, so the real server and etcd 3.6 cannot be built\n");
    process.exit(0);
  }
  if (exit !== "0") {
    failed = true;
    process.stderr.write(`interop: building ${t.name} failed (${exit}):\n${readFileSync(file(t, "log"), "utf8").slice(-4000)}\n`);
  }
}
if (failed) process.exit(1);
try {
  execFileSync(
    process.execPath,
    ["--import", "tsx", "--import", "./test/leak-guard.ts", "--test", "--test-timeout=300000", "test/interop/real-server-etcd.test.ts", "test/storage/etcd36-store.test.ts", "test/server/etcd36-faults.test.ts"],
    {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, K8S_SERVER_ORACLE: join(GO_TOOLS_DIR, "kube-apiserver"), CRDKIT_ETCD36: join(GO_TOOLS_DIR, "etcd-3.6") },
    },
  );
} catch {
  process.exit(1); // the test runner printed the failures
}
