#!/usr/bin/env node
// The test files of `npm test`, sorted, with the ones that need the Go-built programs (scripts/go-tools.mjs:
// test/interop, etcd36-*) last: .ci/run builds those programs in the background while `npm test` runs, and
// these tests wait for the build inside their own file's time bound (--test-timeout), so they start as late
// as possible (the runner runs files in the order given).
import { readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(fileURLToPath(import.meta.url), "..", "..");
const files = [];
for (const top of ["src", "test"]) {
  for (const e of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
    const path = relative(root, join(e.parentPath ?? e.path, e.name));
    if (e.isFile() && e.name.endsWith(".test.ts") && !path.split("/").includes("node_modules")) files.push(path);
  }
}
const needsGo = (f) => f.startsWith("test/interop/") || /(^|\/)etcd36-[^/]*$/.test(f);
files.sort();
process.stdout.write([...files.filter((f) => !needsGo(f)), ...files.filter(needsGo)].join("\n") + "\n");
