/**
 * inputIncludes (which input files may hold CRDs) searches a file's bytes in 1 MiB chunks: a needle across
 * a chunk boundary is found, a missing one is not, non-ASCII text around it does not matter, the one buffer
 * of the process keeps nothing of an earlier file, and an unreadable path is an InputError.
 */
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { InputError, inputIncludes } from "../../src/cli/files.js";
import { inputMayHoldCrds } from "../../src/cli/lazy-registry.js";
import { tmpFiles } from "./helpers.js";

const dir = tmpFiles({});
after(() => rmSync(dir, { recursive: true, force: true }));
const CHUNK = 1 << 20;
const needle = "CustomResourceDefinition";

test("a needle is found wherever it is, across chunk boundaries too", () => {
  for (const at of [0, 5, CHUNK - needle.length, CHUNK - 10, CHUNK - 1, CHUNK, 2 * CHUNK - 3, 3 * CHUNK + 7]) {
    const f = join(dir, `at-${at}.yaml`);
    writeFileSync(f, `${"x".repeat(at)}${needle}${"y".repeat(100)}`);
    assert.equal(inputIncludes(f, [needle]), true, `at ${at}`);
    assert.equal(inputMayHoldCrds(f), true, `at ${at}`);
  }
});

test("absent needles are not found; a backslash is a hint", () => {
  const f = join(dir, "none.yaml");
  writeFileSync(f, `kind: CustomResource\nname: é日本 ${"z".repeat(2 * CHUNK)} Definition`);
  assert.equal(inputIncludes(f, [needle, "\\"]), false);
  assert.equal(inputMayHoldCrds(f), false);
  writeFileSync(f, `kind: "Custom\\u0052esourceDefinition"`);
  assert.equal(inputMayHoldCrds(f), true);
  writeFileSync(f, "");
  assert.equal(inputMayHoldCrds(f), false);
});

test("the buffer shared by the searches holds nothing of a file searched before", () => {
  // a large file with the needle near its end, then shorter files without it: their search sees only their bytes
  const big = join(dir, "big.yaml");
  writeFileSync(big, `${"x".repeat(CHUNK - 100)}${needle}${"y".repeat(CHUNK)}`);
  assert.equal(inputIncludes(big, [needle]), true);
  const small = join(dir, "small.yaml");
  writeFileSync(small, "kind: Widget\n");
  assert.equal(inputIncludes(small, [needle]), false);
  const tail = join(dir, "tail.yaml");
  writeFileSync(tail, `${"z".repeat(CHUNK + 200)}Custom`);
  assert.equal(inputIncludes(tail, [needle]), false);
  assert.equal(inputIncludes(big, [needle]), true);
});

test("an unreadable path is an InputError with the file's name", () => {
  const missing = join(dir, "missing.yaml");
  assert.throws(() => inputIncludes(missing, [needle]), (e: unknown) => e instanceof InputError && e.message.startsWith(`cannot read ${missing}: ENOENT`));
});
