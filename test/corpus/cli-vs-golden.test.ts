/**
 * Every example custom resource of the corpus through `crdkit validate` (runValidate) agrees with the
 * Kubernetes oracle's verdict, errors and warnings recorded in test/golden/corpus/ (see cli-vs-golden.ts).
 * Differences by design (a duplicate YAML key) are listed as diagnostics and must stay few.
 */
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { builtinKindLookup } from "../../src/cli/builtin-lookup.js";
import type { JsonObject } from "../../src/value/json-value.js";
import { corpusRoot } from "../corpus-root.js";
import { compareProjectCli } from "./cli-vs-golden.js";

const root = corpusRoot();
const goldenDir = join(import.meta.dirname, "..", "golden", "corpus");
const projects = existsSync(root) ? readdirSync(goldenDir).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).filter((p) => existsSync(join(root, p))).sort() : [];
const builtins = builtinKindLookup(undefined);

for (const p of projects) {
  test(`corpus CLI vs Kubernetes: ${p}`, (t) => {
    const golden = JSON.parse(readFileSync(join(goldenDir, `${p}.json`), "utf8")) as JsonObject;
    const outcomes = compareProjectCli(golden, root, builtins);
    const bad = outcomes.filter((o) => o.diffs.length > 0 && o.byDesign === undefined);
    for (const o of outcomes) if (o.byDesign !== undefined && o.diffs.length > 0) t.diagnostic(`${o.id}: by design (${o.byDesign})`);
    const designed = outcomes.length - bad.length - outcomes.filter((o) => o.diffs.length === 0).length;
    t.diagnostic(`${p}: ${outcomes.length - bad.length - designed} of ${outcomes.length} agree, ${designed} differ by design`);
    assert.deepEqual(bad.map((o) => [o.id, ...o.diffs].join("\n")), []);
  });
}

test("corpus CLI vs Kubernetes: the corpus is there", { skip: existsSync(root) ? false : `no corpus at ${root}` }, () => {
  assert.ok(projects.length > 0);
});
