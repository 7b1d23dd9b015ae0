/**
 * Every example resource of the corpus (/work/shared/corpus, or $CRDKIT_CORPUS) runs through
 * `crdkit validate` against its project's CRDs without a crash; every invalid result has located errors.
 * Prints the valid / invalid / skipped counts and the most frequent first messages.
 */
import * as assert from "node:assert/strict";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { corpusRoot } from "../corpus-root.js";
import type { Result } from "../../src/cli/results.js";
import { summarize } from "../../src/cli/results.js";
import { builtinKindLookup } from "../../src/cli/builtin-lookup.js";
import { runValidate } from "../../src/cli/run-validate.js";

const root = corpusRoot();
/** Built-in kinds (Deployments, Secrets, ...) in the examples are validated too (newest release). */
const builtins = builtinKindLookup(undefined);
const projects = existsSync(root) ? readdirSync(root).filter((p) => existsSync(join(root, p, "crds"))).sort() : [];

test("corpus: every example validates without a crash", { skip: projects.length === 0 ? `no corpus at ${root}` : false }, (t) => {
  const all: Result[] = [];
  for (const p of projects) {
    const inputs = ["examples", "invalid-examples", "cel-tests"].map((d) => join(root, p, d)).filter((d) => existsSync(d));
    const results = runValidate({ crds: [join(root, p, "crds")], old: [], inputs, fieldValidation: "Strict", showObject: false, ignoreMissingSchemas: true, builtins });
    const crs = results.filter((r) => r.kind !== "CustomResourceDefinition");
    const s = summarize(crs);
    t.diagnostic(`${p}: ${s.resources} documents, ${s.valid} valid, ${s.invalid} invalid, ${s.skipped} skipped`);
    assert.equal(results.filter((r) => r.kind === "CustomResourceDefinition" && !r.valid).length, 0, `${p}: a CRD was refused`);
    all.push(...crs);
  }
  for (const r of all) {
    if (r.status === "invalid") {
      assert.ok(r.errors.length > 0, `${r.file}#${r.index}: invalid without errors`);
      for (const e of r.errors) {
        assert.ok(e.message.length > 0 && (e.line ?? 0) >= 1 && (e.column ?? 0) >= 1, `${r.file}: unlocated error`);
      }
    }
    if (r.status === "skipped") assert.match(r.reason ?? "", /^no matches for kind /);
  }
  const s = summarize(all);
  t.diagnostic(`total: ${s.resources} documents, ${s.valid} valid, ${s.invalid} invalid, ${s.skipped} skipped`);
  const first = new Map<string, number>();
  for (const r of all) {
    if (r.status !== "invalid") continue;
    const m = r.errors[0]!.message.split("\n")[0]!.slice(0, 140);
    first.set(m, (first.get(m) ?? 0) + 1);
  }
  for (const [m, n] of [...first.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15)) t.diagnostic(`${n} × ${m}`);
  assert.ok(s.valid > 0);
});
