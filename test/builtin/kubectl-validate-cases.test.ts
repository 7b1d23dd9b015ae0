/**
 * kubectl-validate's own test cases through `crdkit validate --kubernetes-version 1.30` (kubectl-validate's
 * default release): every document must give exactly kubectl-validate's expected messages, except the
 * documents listed in kubectl-validate-differences.json, which must give exactly the crdkit result
 * recorded there (each with the class of difference and why crdkit is right per Kubernetes).
 */
import * as assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { corpusRoot } from "../corpus-root.js";
import { runKubectlValidateCases } from "./kubectl-validate-cases.js";

interface Differences {
  kubernetesVersion: string;
  classes: Record<string, string>;
  differences: { id: string; class: string; crdkit: string[] }[];
}

const testcases = join(corpusRoot(), "kubectl-validate", "testcases");
const data = JSON.parse(readFileSync(new URL("./kubectl-validate-differences.json", import.meta.url), "utf8")) as Differences;

test("kubectl-validate test cases", { skip: existsSync(testcases) ? false : `no corpus at ${testcases}` }, (t) => {
  const cases = runKubectlValidateCases(testcases, data.kubernetesVersion);
  const known = new Map(data.differences.map((d) => [d.id, d]));
  let same = 0;
  for (const c of cases) {
    const d = known.get(c.id);
    if (d) {
      assert.ok(data.classes[d.class], `${c.id}: class ${d.class} has a reason`);
      assert.deepEqual(c.crdkit, d.crdkit, `${c.id}: crdkit's result changed`);
      assert.notDeepEqual(c.crdkit, c.kubectlValidate, `${c.id}: now agrees with kubectl-validate; drop it from the differences`);
    } else {
      assert.deepEqual(c.crdkit, c.kubectlValidate, `${c.id}: differs from kubectl-validate's expectation`);
      same++;
    }
  }
  for (const id of known.keys()) assert.ok(cases.some((c) => c.id === id), `${id}: no such case document`);
  assert.ok(cases.length >= 30, "all case documents were read");
  t.diagnostic(`${same} of ${cases.length} documents identical to kubectl-validate's expectation; ${known.size} known differences`);
});
