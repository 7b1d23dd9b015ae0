/**
 * crdkit against kubeconform's recorded answers (kubeconform-corpus.json, written by
 * `scripts/compare-kubeconform.ts --write-golden`) on every custom resource of the corpus, with the
 * Kubernetes oracle's verdicts (test/golden/corpus) as referee: crdkit's verdict is Kubernetes' on every
 * document, and every document where kubeconform's verdict differs falls in a known class (README,
 * "crdkit vs kubeconform").
 */
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import type { Result } from "../../src/cli/results.js";
import { runValidate } from "../../src/cli/run-validate.js";
import { goJsonMarshal } from "../../src/go/json.js";
import { corpusRoot } from "../corpus-root.js";
import { classifyKubeconform, corpusCustomResources, crdkitVerdict } from "./kubeconform-compare.js";

interface Recorded {
  kubeconform: string;
  converter: string;
  documents: Record<string, number>;
  notValid: Record<string, string[]>;
}

const root = corpusRoot();
const recorded = JSON.parse(readFileSync(new URL("./kubeconform-corpus.json", import.meta.url), "utf8")) as Recorded;
const goldenDir = new URL("../golden/corpus/", import.meta.url).pathname;

test("corpus custom resources: crdkit gives Kubernetes' verdict; kubeconform's differences are all classified", { skip: existsSync(root) ? false : `no corpus at ${root}` }, (t) => {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-kc-corpus-"));
  const classes = new Map<string, number>();
  let total = 0;
  let agree = 0;
  try {
    for (const g of readdirSync(goldenDir).filter((f) => f.endsWith(".json")).sort()) {
      const project = g.replace(/\.json$/, "");
      const { crds, docs } = corpusCustomResources(root, JSON.parse(readFileSync(join(goldenDir, g), "utf8")));
      if (docs.length === 0) continue;
      assert.equal(docs.length, recorded.documents[project], `${project}: the corpus changed: re-record with --write-golden`);
      const crdDir = join(dir, project, "crds");
      mkdirSync(crdDir, { recursive: true });
      for (const [i, c] of [...crds.values()].entries()) writeFileSync(join(crdDir, `${i}.json`), goJsonMarshal(c));
      const files = docs.map((d, i) => {
        const p = join(dir, project, `${i}.json`);
        writeFileSync(p, goJsonMarshal(d.body));
        return p;
      });
      const results = new Map<string, Result>();
      for (const r of runValidate({ crds: [crdDir], old: [], inputs: files, fieldValidation: "Strict", showObject: false })) {
        if (!results.has(r.file)) results.set(r.file, r);
      }
      docs.forEach((d, i) => {
        const id = `${project}/${d.id}`;
        const r = results.get(files[i]!);
        const mine = crdkitVerdict(r);
        assert.equal(mine, d.kubernetes, `${id}: crdkit says ${mine}, Kubernetes ${d.kubernetes}: ${JSON.stringify(r?.errors.map((e) => e.message))}`);
        total++;
        const k = recorded.notValid[id];
        const theirs = k === undefined ? "valid" : "invalid";
        if (theirs === mine) {
          agree++;
          return;
        }
        const cls = classifyKubeconform(r?.errors.map((e) => e.message) ?? [], k ?? [], theirs);
        assert.notEqual(cls, "other", `${id}: unexplained difference\n  kubeconform: ${JSON.stringify(k ?? [])}\n  crdkit: ${JSON.stringify(r?.errors.map((e) => e.message))}`);
        classes.set(cls, (classes.get(cls) ?? 0) + 1);
      });
    }
    t.diagnostic(`${total} custom resources (kubeconform ${recorded.kubeconform}, schemas by ${recorded.converter}): same verdict ${agree}; crdkit = Kubernetes on all`);
    for (const [cls, n] of [...classes].sort((a, b) => b[1] - a[1])) t.diagnostic(`${n} × ${cls.slice(0, 100)}`);
    assert.equal(total, Object.values(recorded.documents).reduce((a, b) => a + b, 0));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
