/** `crdkit validate -j N`: worker threads give the output of a single-threaded run, in the same order. */
import * as assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { splitFiles } from "../../src/cli/workers.js";
import { corpusRoot } from "../corpus-root.js";
import { runCli, tmpFiles } from "./helpers.js";

test("splitFiles: contiguous runs in file order, about equal in size, never empty", () => {
  const d = tmpFiles({ a: "x".repeat(100), b: "x".repeat(100), c: "x".repeat(100), d: "x".repeat(300), e: "x" });
  const f = ["a", "b", "c", "d", "e"].map((n) => join(d, n));
  assert.deepEqual(splitFiles(f, 2), [f.slice(0, 3), f.slice(3)]);
  assert.deepEqual(splitFiles(f, 5), f.map((x) => [x]));
  assert.deepEqual(splitFiles(f, 1), [f]);
  const runs = splitFiles(f, 3);
  assert.equal(runs.length, 3);
  assert.deepEqual(runs.flat(), f);
});

const root = corpusRoot();
const projects = ["istio", "crossplane", "external-snapshotter"].filter((p) => existsSync(join(root, p, "examples")));

test("same output with -j1 and -j3 on corpus projects (CRDs among the inputs, rejected and skipped documents)", { skip: projects.length === 0 && "corpus not found" }, async () => {
  // the CRDs are inputs too: they are reported once, before the documents, by the first thread
  const inputs = projects.flatMap((p) => [join(root, p, "crds"), join(root, p, "examples")]);
  const one = await runCli("validate", "--no-cache", "-o", "json", "-j", "1", ...inputs);
  const three = await runCli("validate", "--no-cache", "-o", "json", "-j", "3", ...inputs);
  assert.equal(three.stderr, "");
  assert.equal(three.code, one.code);
  assert.equal(three.stdout, one.stdout);
  const out = JSON.parse(one.stdout) as { summary: { resources: number; invalid: number; skipped: number } };
  assert.ok(out.summary.resources > 100 && out.summary.invalid > 0, JSON.stringify(out.summary));
  // --crds files given to every thread: their problems are reported once, where one thread reports them
  const bad = tmpFiles({ "bad.yaml": "key: [unclosed\n" });
  const crdsArgs = ["--crds", join(root, projects[0]!, "crds"), "--crds", join(bad, "bad.yaml"), join(root, projects[0]!, "examples")];
  const s1 = await runCli("validate", "-o", "json", "-j", "1", ...crdsArgs);
  const s3 = await runCli("validate", "-o", "json", "-j", "3", ...crdsArgs);
  assert.equal(s3.stdout, s1.stdout);
  assert.match(s1.stdout, /"DecodeError"/);
});

test("-j needs a positive number", async () => {
  const r = await runCli("validate", "-j", "0", "examples/");
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^crdkit validate: -j needs a positive number of worker threads, got "0"\n/);
});
