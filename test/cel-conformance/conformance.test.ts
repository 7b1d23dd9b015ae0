// CEL conformance (cel-spec simple tests + cel-go checker tests with cel-go's recorded types and
// error texts) over the sections Kubernetes uses. Every failure must be listed with a reason in
// known-failures.json, and the pass count may not drop below the recorded floor.
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runConformance, summarize } from "./report.js";

interface KnownFailures {
  /** Minimum number of passing tests. */
  readonly passFloor: number;
  /** Test path → reason. */
  readonly failures: Readonly<Record<string, string>>;
}

const known = JSON.parse(readFileSync(new URL("./known-failures.json", import.meta.url), "utf8")) as KnownFailures;
const results = runConformance();
const total = summarize(results).at(-1);

test("conformance: no failures beyond the known-failures list", () => {
  const unexpected = results
    .filter((r) => r.status === "fail" && !Object.hasOwn(known.failures, r.test.path))
    .map((r) => `${r.test.path}: ${r.test.original.expr}\n  ${r.detail ?? ""}`);
  assert.deepEqual(unexpected, []);
});

test("conformance: pass count at or above the floor", () => {
  const passed = total?.passed ?? 0;
  assert.ok(passed >= known.passFloor, `${passed} passed, floor ${known.passFloor}`);
});

test("conformance: known failures have reasons and still exist in the data", () => {
  const paths = new Set(results.map((r) => r.test.path));
  for (const [path, reason] of Object.entries(known.failures)) {
    assert.ok(reason.trim().length > 0, `no reason for ${path}`);
    assert.ok(paths.has(path), `known failure ${path} is not a test`);
  }
});
