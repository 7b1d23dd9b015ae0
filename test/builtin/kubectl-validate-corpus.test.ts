/**
 * crdkit against kubectl-validate's recorded answers (kubectl-validate-corpus.json, written by
 * `scripts/compare-kubectl-validate.ts --write-golden`) for every built-in-kind document of the corpus:
 * each document gives kubectl-validate's messages, or differs in one of the known classes (see README,
 * "Built-in kinds vs kubectl-validate"); verdicts differ only where crdkit follows the API server.
 */
import * as assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { builtinKindLookup } from "../../src/cli/builtin-lookup.js";
import { loadBuiltinSchemas } from "../../src/cli/builtin-loader.js";
import type { Result } from "../../src/cli/results.js";
import { runValidate } from "../../src/cli/run-validate.js";
import { corpusRoot } from "../corpus-root.js";
import { VERDICT_CLASSES, builtinDocuments, classify, crdkitMessages } from "./kubectl-validate-compare.js";

interface Recorded {
  kubernetesVersion: string;
  kubectlValidate: string;
  documents: Record<string, string[]>;
}

const root = corpusRoot();
const recorded = JSON.parse(readFileSync(new URL("./kubectl-validate-corpus.json", import.meta.url), "utf8")) as Recorded;

test("corpus built-in documents agree with kubectl-validate's recorded answers", { skip: existsSync(root) ? false : `no corpus at ${root}` }, (t) => {
  const docs = builtinDocuments(root, loadBuiltinSchemas(), recorded.kubernetesVersion);
  const dir = mkdtempSync(join(tmpdir(), "crdkit-kv-corpus-"));
  try {
    const files = docs.map((d, i) => {
      const p = join(dir, `${i}.yaml`);
      writeFileSync(p, d.text);
      return p;
    });
    const results = new Map<string, Result>();
    for (const r of runValidate({ crds: [], old: [], inputs: files, fieldValidation: "Strict", showObject: false, builtins: builtinKindLookup(recorded.kubernetesVersion) })) {
      if (!results.has(r.file)) results.set(r.file, r);
    }
    assert.deepEqual(docs.map((d) => d.source).sort(), Object.keys(recorded.documents).sort(), "the corpus changed: re-record with --write-golden");
    const classes = new Map<string, number>();
    let same = 0;
    docs.forEach((d, i) => {
      const k = recorded.documents[d.source]!;
      const c = crdkitMessages(results.get(files[i]!));
      if (JSON.stringify(k) === JSON.stringify(c)) {
        same++;
        return;
      }
      const cls = classify(k, c);
      assert.notEqual(cls, "other", `${d.source}: unexplained difference\n  kubectl-validate: ${JSON.stringify(k)}\n  crdkit: ${JSON.stringify(c)}`);
      if ((k.length === 0) !== (c.length === 0)) assert.ok(VERDICT_CLASSES.has(cls), `${d.source}: verdict differs (${cls})`);
      classes.set(cls, (classes.get(cls) ?? 0) + 1);
    });
    t.diagnostic(`${docs.length} documents (Kubernetes ${recorded.kubernetesVersion}, kubectl-validate ${recorded.kubectlValidate.slice(0, 7)}): ${same} identical`);
    for (const [cls, n] of classes) t.diagnostic(`${n} × ${cls}`);
    assert.ok(same > docs.length * 0.8);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
