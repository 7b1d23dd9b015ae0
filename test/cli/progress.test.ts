/** Progress on stderr (terminal only, not in CI, after a delay) and the --exclude globs. */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { globMatcher } from "../../src/cli/glob.js";
import { progressEnabled, progressLine, progressReporter } from "../../src/cli/progress.js";
import { runCli, tmpFiles } from "./helpers.js";

test("progress is on only when stderr is a terminal and CI is unset or false", () => {
  assert.equal(progressEnabled({ isTTY: true, env: {} }), true);
  assert.equal(progressEnabled({ isTTY: false, env: {} }), false);
  assert.equal(progressEnabled({ isTTY: true, env: { CI: "true" } }), false);
  assert.equal(progressEnabled({ isTTY: true, env: { CI: "1" } }), false);
  assert.equal(progressEnabled({ isTTY: true, env: { CI: "false" } }), true);
});

test("progress line: files done/total and rate; silent for short runs; the line is cleared at the end", () => {
  assert.equal(progressLine(50, 200, 2000), "50/200 files, 25 files/s");
  assert.equal(progressLine(3, 200, 2000), "3/200 files, 1.5 files/s");
  let t = 0;
  let out = "";
  const p = progressReporter({ write: (s) => { out += s; }, isTTY: true, env: {}, now: () => t }, 1000);
  t = 500;
  p.update(1, 4);
  assert.equal(out, "", "nothing before the delay");
  t = 2000;
  p.update(2, 4);
  assert.equal(out, "\r\u001b[K2/4 files, 1.0 files/s");
  p.end();
  assert.equal((out as string).slice(-4), "\r\u001b[K");
  let quiet = "";
  const q = progressReporter({ write: (s) => { quiet += s; }, isTTY: true, env: {}, now: () => t }, 1000);
  q.update(1, 1);
  q.end();
  assert.equal(quiet, "");
  const ci = progressReporter({ write: () => assert.fail("no output in CI"), isTTY: true, env: { CI: "true" }, now: () => (t += 5000) }, 0);
  ci.update(1, 2);
  ci.end();
});

test("validate with stderr not a terminal writes nothing to stderr", async () => {
  const dir = tmpFiles({ "a.yaml": "apiVersion: example.com/v1\nkind: W\nmetadata: {name: a}\n" });
  const r = await runCli("validate", "--ignore-missing-schemas", dir);
  assert.equal(r.stderr, "");
});

test("globs: *, ?, **, classes, alternatives; basename patterns match anywhere", () => {
  const m = (pats: string[], p: string) => globMatcher(pats)(p);
  assert.equal(m(["*.json"], "a/b/c.json"), true);
  assert.equal(m(["*.json"], "a/b/c.yaml"), false);
  assert.equal(m(["vendor"], "repo/vendor"), true);
  assert.equal(m(["vendor"], "repo/vendors"), false);
  assert.equal(m(["charts/**/templates/*"], "x/charts/a/b/templates/d.yaml"), true);
  assert.equal(m(["charts/*/templates/*"], "x/charts/a/b/templates/d.yaml"), false);
  assert.equal(m(["v?.yaml"], "v1.yaml"), true);
  assert.equal(m(["[!a]*.yaml"], "b.yaml"), true);
  assert.equal(m(["[!a]*.yaml"], "a.yaml"), false);
  assert.equal(m(["*.{yml,json}"], "k.yml"), true);
  assert.equal(m(["/abs/*.yaml"], "/abs/x.yaml"), true);
  assert.equal(m(["/abs/*.yaml"], "/other/abs/x.yaml"), false);
  assert.equal(m(["./a/*.yaml"], "a/x.yaml"), true);
  assert.equal(m(["a.b"], "axb"), false);
});

test("progress: clear() before a warning erases the line once; the next update redraws it", () => {
  let t = 2000;
  let out = "";
  const p = progressReporter({ write: (s) => { out += s; }, isTTY: true, env: {}, now: () => t }, 1000);
  t = 3000;
  p.update(1, 3);
  p.clear();
  p.clear();
  assert.equal(out, "\r\u001b[K1/3 files, 1.0 files/s\r\u001b[K");
  t = 4000;
  p.update(2, 3);
  p.end();
  assert.equal(out, "\r\u001b[K1/3 files, 1.0 files/s\r\u001b[K\r\u001b[K2/3 files, 1.0 files/s\r\u001b[K");  assert.equal(p.enabled, true);
  assert.equal(progressReporter({ write: () => assert.fail("off"), isTTY: false, env: {}, now: () => t }).enabled, false);
});
