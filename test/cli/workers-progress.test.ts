/** `crdkit validate -j N`: progress adds up the workers' files; run-level warnings are printed once. */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { main } from "../../src/cli/main.js";
import { runValidate } from "../../src/cli/run-validate.js";
import { runValidateParallel } from "../../src/cli/workers.js";
import { tmpFiles } from "./helpers.js";

const CRD = readFileSync("examples/crontab-crd.yaml", "utf8");
const cron = (name: string, replicas: number) =>
  `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\nspec:\n  cronSpec: "* * * * */5"\n  image: x\n  replicas: ${replicas}\n`;

function inputs(n: number, withCrd = true): { dir: string; files: string[] } {
  const files: Record<string, string> = withCrd ? { "crd.yaml": CRD } : {};
  for (let i = 0; i < n; i++) files[`o${String(i).padStart(2, "0")}.yaml`] = cron(`o${i}`, i % 12);
  const dir = tmpFiles(files);
  return { dir, files: Object.keys(files).sort().map((f) => join(dir, f)) };
}

test("-j: the workers' progress adds up to files done/total, in order, ending at total; results as one thread", async () => {
  const { files } = inputs(9);
  const calls: [number, number][] = [];
  const opts = { crds: [], old: [], inputs: files, fieldValidation: "Strict" as const, showObject: false, onFileDone: (d: number, t: number) => calls.push([d, t]) };
  const results = await runValidateParallel(opts, 3);
  assert.equal(calls.length, files.length, JSON.stringify(calls));
  assert.deepEqual(
    calls.map(([, t]) => t),
    files.map(() => files.length),
  );
  assert.deepEqual(
    calls.map(([d]) => d),
    files.map((_, i) => i + 1),
    "one call per file, counting up",
  );
  const single = [...runValidate({ ...opts, onFileDone: undefined })];
  assert.deepEqual(results, single);
});

test("-j with a CRD defined twice: the warning is printed once (text, JSON), not by each worker", async () => {
  const { dir } = inputs(6, false);
  const dup = tmpFiles({ "a-crd.yaml": CRD, "b-crd.yaml": CRD });
  for (const output of ["text", "json"]) {
    let stderr = "";
    let stdout = "";
    const code = await main(["validate", "-j", "3", "-o", output, "--crds", join(dup, "a-crd.yaml"), "--crds", join(dup, "b-crd.yaml"), dir], {
      stdout: (s) => {
        stdout += s;
      },
      stderr: (s) => {
        stderr += s;
      },
      isTTY: false,
      stderrIsTTY: true,
    });
    assert.equal(code, 1, stdout);
    // progress lines (rewritten in place: \r, erase line) may come before and after it, each cleared
    // before the warning is written
    const lines = stderr
      .replace(/\r\u001b\[K(\d+\/\d+ files, [\d.]+ files\/s)?/g, "")
      .split("\n")
      .filter((l) => l !== "");
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0]!, /^crdkit validate: warning: CustomResourceDefinition for CronTab\.stable\.example\.com is defined twice, in \S*a-crd\.yaml:3 and in \S*b-crd\.yaml:3/);
    if (output === "json") assert.equal((JSON.parse(stdout) as { warnings: unknown[] }).warnings.length, 1);
  }
});
