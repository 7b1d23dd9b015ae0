#!/usr/bin/env node
// Builds the Go programs the etcd interop tests need into `.cache/go-tools/` (outside node_modules, so that
// `npm ci` may run meanwhile): `kube-apiserver` (tools/k8s-server-oracle, the real apiextensions-apiserver),
// `etcd-3.6` (tools/etcd-3.6, a current etcd; Debian ships 3.4) and `controller-e2e` (tools/controller-e2e, a
// controller-runtime controller run against a server: test/interop/controller-runtime.test.ts). For each tool it writes `<tool>.log`
// and, when done, `<tool>.exit` ("0", a failure code, or "no-go" when Go is not installed); `<tool>.pending`
// exists while it builds, so that a test started meanwhile can wait (test/interop/go-tools.ts).
//
//   node scripts/go-tools.mjs [--timeout-min=N]     (.ci/run starts it in the background, niced)
import { spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const GO_TOOLS_DIR = join(root, ".cache", "go-tools");
export const GO_TOOLS = [
  { name: "kube-apiserver", dir: join(root, "tools", "k8s-server-oracle") },
  { name: "etcd-3.6", dir: join(root, "tools", "etcd-3.6") },
  { name: "controller-e2e", dir: join(root, "tools", "controller-e2e") },
];

function hasGo() {
  return spawnSync("go", ["version"], { stdio: "ignore" }).status === 0;
}

/** Builds one tool; resolves to its exit text. */
function build(tool, timeoutMs) {
  const base = join(GO_TOOLS_DIR, tool.name);
  const log = openSync(`${base}.log`, "w");
  return new Promise((done) => {
    const child = spawn("go", ["build", "-buildvcs=false", "-o", base, "."], { cwd: tool.dir, stdio: ["ignore", log, log] });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    // Stopped (.ci/run ending early): stop the build too.
    const stop = () => {
      child.kill("SIGKILL");
      process.exit(143);
    };
    process.once("SIGTERM", stop);
    const finish = (exit) => {
      clearTimeout(timer);
      process.off("SIGTERM", stop);
      closeSync(log);
      done(exit);
    };
    child.once("error", () => finish("spawn-failed"));
    child.once("exit", (code, signal) => finish(signal ? `killed-${signal}` : String(code)));
  });
}

export async function buildGoTools() {
  const minutes = Number(process.argv.find((a) => a.startsWith("--timeout-min="))?.slice(14) ?? "45");
  mkdirSync(GO_TOOLS_DIR, { recursive: true });
  for (const t of GO_TOOLS) {
    rmSync(join(GO_TOOLS_DIR, `${t.name}.exit`), { force: true });
    writeFileSync(join(GO_TOOLS_DIR, `${t.name}.pending`), String(process.pid));
  }
  const go = hasGo();
  const deadline = Date.now() + minutes * 60_000;
  for (const t of GO_TOOLS) {
    const t0 = Date.now();
    const exit = go ? await build(t, Math.max(1000, deadline - Date.now())) : "no-go";
    writeFileSync(join(GO_TOOLS_DIR, `${t.name}.exit`), exit);
    rmSync(join(GO_TOOLS_DIR, `${t.name}.pending`), { force: true });
    process.stdout.write(`go-tools: ${t.name}: ${exit === "0" ? "built" : `failed (${exit})`} in ${Math.round((Date.now() - t0) / 1000)} s\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildGoTools();
