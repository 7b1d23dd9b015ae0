/**
 * Golden comparison: every test/golden/<area>/<file>.json (written by `npm run golden` from the real
 * k8s.io/apiextensions-apiserver, see tools/k8s-oracle/README.md) is replayed through crdkit and compared
 * exactly: errors (type, field, full text, order), warnings, decode errors, unknown fields and the stored
 * object. test/golden/known-disagreements.txt lists the cases crdkit does not match yet (skipped with
 * their reason); an unlisted disagreement fails with a diff; a listed case that agrees fails as well.
 *
 * UPDATE_KNOWN=1 rewrites known-disagreements.txt from the current results (keeping existing reasons).
 * CRDKIT_CORPUS (default /work/shared/corpus) locates the corpus for test/golden/corpus/*.json.
 */
import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import { type JsonObject, type JsonValue, isObject } from "../../src/value/json-value.js";
import { runCrdCase, runPipelineCase, SKIP } from "./lib/compare.js";
import { runDecodeCase } from "./lib/decode-case.js";
import { compareProject, sha256 } from "./lib/corpus.js";
import { loadCrdkit, repoRoot } from "./lib/crdkit-api.js";
import { KnownList, type KnownEntry, readKnown, writeKnown } from "./lib/known.js";
import { parseTaggedJson } from "./lib/tagged-json.js";
import { corpusRoot } from "../corpus-root.js";

const goldenDir = join(repoRoot, "test", "golden");
const knownPath = join(goldenDir, "known-disagreements.txt");
const corpusDir = corpusRoot();
const update = process.env["UPDATE_KNOWN"] === "1";
const knownEntries = readKnown(knownPath);
const known = new KnownList(knownEntries);
const oldReasons = new Map(knownEntries.map((e) => [e.id, e.reason]));
/** Disagreements seen in this run (for UPDATE_KNOWN). */
const seen: KnownEntry[] = [];

function walk(dir: string, out: string[] = [], exts: readonly string[] = [".json"]): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out, exts);
    else if (exts.some((e) => name.endsWith(e))) out.push(p);
  }
  return out;
}

function summary(diffs: string[]): string {
  return (diffs[0] ?? "disagrees").replace(/: - (only )?kubernetes, \+ (only )?crdkit$/, "") + (diffs[1] ? ` ${diffs[1].trim()}` : "");
}

/** Applies the known-disagreements policy to one case outcome. */
function judge(t: { skip: (m?: string) => void; diagnostic: (m: string) => void }, id: string, diffs: string[]): void {
  const reason = known.reason(id);
  if (diffs.length === 1 && diffs[0]!.startsWith(SKIP)) {
    t.skip(diffs[0]!.slice(SKIP.length));
    return;
  }
  if (diffs.length > 0) {
    seen.push({ id, reason: oldReasons.get(id) ?? summary(diffs).slice(0, 200) });
    if (update) {
      t.diagnostic(`disagreement recorded: ${summary(diffs)}`);
      return;
    }
    if (reason !== undefined) {
      t.skip(`known disagreement: ${reason}`);
      return;
    }
    assert.fail(`crdkit disagrees with Kubernetes on ${id} (add it to test/golden/known-disagreements.txt only with a reason):\n${diffs.join("\n")}`);
  }
  if (!update && reason !== undefined && known.listedExactly(id)) {
    assert.fail(`${id} now agrees with Kubernetes: remove it from test/golden/known-disagreements.txt`);
  }
}

// corpus goldens are compared below; server goldens (test/golden/server, recorded HTTP answers) are
// replayed by the server differential suite
const files = walk(goldenDir).filter((f) => !/^(corpus|server)\//.test(relative(goldenDir, f)));
const api = await loadCrdkit();
const casesDir = join(repoRoot, "test", "cases");
const pinned = /k8s\.io\/apiextensions-apiserver (v\S+)/.exec(readFileSync(join(repoRoot, "tools", "k8s-oracle", "go.mod"), "utf8"))?.[1];

describe("golden cases (Kubernetes oracle)", () => {
  it("has golden files", () => {
    assert.ok(files.length > 0, "no golden files under test/golden: run npm run golden");
  });
  it("every case file has an up-to-date golden from the pinned oracle", () => {
    const problems: string[] = [];
    const caseFiles = walk(casesDir, [], [".yaml", ".yml"]);
    for (const cf of caseFiles) {
      const rel = relative(casesDir, cf).replace(/\.ya?ml$/, "");
      const gf = join(goldenDir, `${rel}.json`);
      if (!existsSync(gf)) {
        problems.push(`test/cases/${relative(casesDir, cf)} has no golden`);
        continue;
      }
      const g = parseTaggedJson(readFileSync(gf, "utf8"));
      if (!isObject(g)) continue;
      if (g["sourceSha256"] !== sha256(readFileSync(cf, "utf8"))) problems.push(`test/cases/${relative(casesDir, cf)} changed since its golden was generated`);
      const o = g["oracle"];
      if (pinned && isObject(o) && o["version"] !== pinned) problems.push(`test/golden/${rel}.json comes from ${String(o["version"])}, go.mod pins ${pinned}`);
    }
    for (const gf of files) {
      const rel = relative(goldenDir, gf).replace(/\.json$/, "");
      if (!existsSync(join(casesDir, `${rel}.yaml`)) && !existsSync(join(casesDir, `${rel}.yml`))) problems.push(`test/golden/${rel}.json has no case file`);
    }
    if (problems.length > 0) assert.fail(`${problems.slice(0, 20).join("\n")}\nrun npm run golden (needs Go) to regenerate`);
  });
  for (const file of files) {
    const rel = relative(goldenDir, file);
    const golden = parseTaggedJson(readFileSync(file, "utf8"));
    const goldenCases = isObject(golden) ? golden["cases"] : undefined;
    if (!isObject(golden) || !Array.isArray(goldenCases)) {
      it(rel, () => assert.fail(`${rel} is not a golden file`));
      continue;
    }
    const crds = Array.isArray(golden["crds"]) ? golden["crds"] : [];
    const crdAt = (v: JsonValue | undefined): JsonObject | undefined => {
      const x = typeof v === "number" ? crds[v] : v;
      return isObject(x) ? x : undefined;
    };
    describe(rel, () => {
      for (const c of goldenCases.filter(isObject)) {
        const id = String(c["id"]);
        it(id, (t) => {
          const op = String(c["operation"]);
          if (op === "decode-yaml") {
            judge(t, id, runDecodeCase(c));
            return;
          }
          const crd = crdAt(c["crd"]);
          if (!crd) assert.fail(`${id}: golden case without a CRD`);
          const diffs = op.startsWith("crd-") ? runCrdCase(api, c, crd, crdAt(c["oldCrd"])) : runPipelineCase(api, c, crd);
          judge(t, id, diffs);
        });
      }
    });
  }
});

const corpusFiles = walk(join(goldenDir, "corpus"));
describe("corpus goldens (Kubernetes oracle)", () => {
  for (const file of corpusFiles) {
    const rel = relative(goldenDir, file).replace(/\.json$/, "");
    it(rel, (t) => {
      if (!existsSync(corpusDir)) {
        t.skip(`corpus not found at ${corpusDir} (set CRDKIT_CORPUS)`);
        return;
      }
      const golden = parseTaggedJson(readFileSync(file, "utf8"));
      if (!isObject(golden)) assert.fail(`${rel} is not a corpus golden`);
      const outcomes = compareProject(api, golden, corpusDir);
      const failures: string[] = [];
      let listed = 0;
      let agreed = 0;
      for (const o of outcomes) {
        const reason = known.reason(o.id);
        if (o.diffs.length > 0) {
          seen.push({ id: o.id, reason: oldReasons.get(o.id) ?? summary(o.diffs).slice(0, 200) });
          if (reason !== undefined) listed++;
          else failures.push(`${o.id}:\n${o.diffs.join("\n")}`);
        } else {
          agreed++;
          if (known.listedExactly(o.id)) failures.push(`${o.id} now agrees with Kubernetes: remove it from test/golden/known-disagreements.txt`);
        }
      }
      t.diagnostic(`${agreed} of ${outcomes.length} corpus records agree, ${listed} listed as known disagreements`);
      if (update) return;
      if (failures.length > 0) {
        assert.fail(`${failures.length} unlisted corpus disagreement(s) in ${rel}:\n${failures.slice(0, 10).join("\n")}${failures.length > 10 ? `\n... and ${failures.length - 10} more` : ""}`);
      }
      if (listed > 0 && agreed === 0) t.skip(`all ${listed} records are known disagreements`);
    });
  }
});

after(() => {
  if (!update) return;
  // corpus projects with many disagreements are listed with one wildcard entry
  const byProject = new Map<string, KnownEntry[]>();
  const rest: KnownEntry[] = [];
  for (const e of seen) {
    const m = /^corpus\/([^/]+)\//.exec(e.id);
    if (m) {
      const list = byProject.get(m[1]!) ?? [];
      list.push(e);
      byProject.set(m[1]!, list);
    } else rest.push(e);
  }
  for (const [project, list] of byProject) {
    if (list.length > 20) {
      const wid = `corpus/${project}/*`;
      rest.push({ id: wid, reason: oldReasons.get(wid) ?? `${list.length} corpus records disagree, e.g. ${list[0]!.reason}` });
    } else rest.push(...list);
  }
  writeKnown(knownPath, rest);
  console.log(`known-disagreements.txt rewritten: ${rest.length} entries`);
});
