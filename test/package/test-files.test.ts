/**
 * `npm test`'s file list (scripts/test-files.mjs): every `*.test.ts` under src/ and test/ once, sorted, with the
 * files that wait for the Go-built programs (test/interop, etcd36-*) last, so that .ci/run's background build
 * has the whole test run to finish before they wait for it.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

test("npm test runs every test file once, sorted, those that need the Go build last", () => {
  const listed = execFileSync(process.execPath, [join(ROOT, "scripts", "test-files.mjs")], { encoding: "utf8" }).trim().split("\n");
  const all: string[] = [];
  for (const top of ["src", "test"]) {
    for (const f of readdirSync(join(ROOT, top), { recursive: true, encoding: "utf8" })) if (f.endsWith(".test.ts")) all.push(`${top}/${f}`);
  }
  assert.deepEqual([...listed].sort(), all.sort());
  const goTools = ["test/interop/real-server-etcd.test.ts", "test/server/etcd36-faults.test.ts", "test/storage/etcd36-store.test.ts"];
  assert.deepEqual(listed.slice(-goTools.length), goTools);
  const rest = listed.slice(0, -goTools.length);
  assert.deepEqual(rest, [...rest].sort());
  assert.ok(rest.includes("test/package/test-files.test.ts"));
});
