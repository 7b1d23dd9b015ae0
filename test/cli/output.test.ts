/**
 * The CLI people expect: one line per error in text and GitHub output, consistent positions, `check` in
 * every format, `--version`/`version`, `help <command>`, enum flags in any case, `1 resource`.
 */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { oneLine } from "../../src/cli/output/one-line.js";
import { runCli, tmpFiles } from "./helpers.js";

const CRD = readFileSync("examples/crontab-crd.yaml", "utf8");
const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };

async function run(files: Record<string, string>, ...args: string[]) {
  const dir = tmpFiles(files);
  const r = await runCli(...args.map((a) => a.replaceAll("$D", dir)));
  return { ...r, out: r.stdout.split(`${dir}/`).join("") };
}

// a second document (after a comment) with an unknown field and three values for one key
const twoDocs = [
  "apiVersion: stable.example.com/v1",
  "kind: CronTab",
  "metadata:",
  "  name: a",
  "spec:",
  "  image: x",
  "---",
  "# the second one",
  "apiVersion: stable.example.com/v1",
  "kind: CronTab",
  "metadata:",
  "  name: b",
  "spec:",
  "  image: x",
  "  foo: 1",
  "  image: y",
  "  image: z",
  "",
].join("\n");

test("text and github: one line per error, go-yaml's document-relative lines rebased to the file", async () => {
  const text = await run({ "crd.yaml": CRD, "a.yaml": twoDocs }, "validate", "--crds", "$D/crd.yaml", "$D/a.yaml");
  assert.equal(
    text.out,
    [
      'a.yaml:16:10: yaml: unmarshal errors: line 16: key "image" already set in map; line 17: key "image" already set in map',
      'a.yaml:15:8: unknown field "spec.foo"',
      "Summary: 2 resources: 1 valid, 1 invalid, 0 skipped",
      "",
    ].join("\n"),
  );
  const gh = await run({ "crd.yaml": CRD, "a.yaml": twoDocs }, "validate", "--crds", "$D/crd.yaml", "-o", "github", "$D/a.yaml");
  assert.equal(
    gh.out.split("\n")[0],
    '::error file=a.yaml,line=16,col=10::yaml: unmarshal errors: line 16: key "image" already set in map; line 17: key "image" already set in map',
  );
  // JSON keeps the API server's exact text (lines relative to the document, as go-yaml counts them)
  const json = JSON.parse((await run({ "crd.yaml": CRD, "a.yaml": twoDocs }, "validate", "--crds", "$D/crd.yaml", "-o", "json", "$D/a.yaml")).stdout);
  assert.equal(json.results[1].errors[0].message, 'yaml: unmarshal errors:\n  line 9: key "image" already set in map\n  line 10: key "image" already set in map');
  assert.equal(json.results[1].errors[0].line, 16);
});

test("Warn mode: unknown and duplicate fields are warnings at the same positions as the Strict errors", async () => {
  const r = await run({ "crd.yaml": CRD, "a.yaml": twoDocs }, "validate", "--crds", "$D/crd.yaml", "--field-validation", "warn", "$D/a.yaml");
  assert.equal(r.code, 0);
  assert.equal(
    r.out,
    [
      'a.yaml:16:10: warning: yaml: unmarshal errors: line 16: key "image" already set in map; line 17: key "image" already set in map',
      'a.yaml:15:8: warning: unknown field "spec.foo"',
      "Summary: 2 resources: 2 valid, 0 invalid, 0 skipped",
      "",
    ].join("\n"),
  );
  const gh = await run({ "crd.yaml": CRD, "a.yaml": twoDocs }, "validate", "--crds", "$D/crd.yaml", "--field-validation=WARN", "-o", "GITHUB", "$D/a.yaml");
  assert.equal(gh.out.split("\n")[1], '::warning file=a.yaml,line=15,col=8::unknown field "spec.foo"');
});

test("oneLine: joins lines, rebases go-yaml line numbers, leaves single lines alone", () => {
  assert.equal(oneLine("plain"), "plain");
  assert.equal(oneLine('yaml: unmarshal errors:\n  line 2: key "a" already set in map', 12), 'yaml: unmarshal errors: line 12: key "a" already set in map');
  assert.equal(oneLine("other text:\n  line 2: x", 12), "other text: line 2: x");
  assert.equal(oneLine("compilation failed: ERROR: <input>:1:1: undeclared reference\n | x\n | ^"), "compilation failed: ERROR: <input>:1:1: undeclared reference | x | ^");
});

test("1 resource / N resources in text and github output", async () => {
  const one = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\nspec:\n  image: x\n";
  const t = await run({ "crd.yaml": CRD, "a.yaml": one }, "validate", "--crds", "$D/crd.yaml", "$D/a.yaml");
  assert.equal(t.out, "Summary: 1 resource: 1 valid, 0 invalid, 0 skipped\n");
  const g = await run({ "crd.yaml": CRD, "a.yaml": one }, "validate", "--crds", "$D/crd.yaml", "-o", "github", "$D/a.yaml");
  assert.equal(g.out, "1 resource: 1 valid, 0 invalid, 0 skipped\n");
  const c = await run({ "crd.yaml": CRD }, "check", "-o", "github", "$D/crd.yaml");
  assert.equal(c.out, "1 CustomResourceDefinition: 1 valid, 0 invalid, 0 skipped\n");
});

test("crdkit check -o json|junit|github (any case), errors at their node", async () => {
  const bad = CRD.replace("scope: Namespaced", "scope: Galactic");
  const msg = 'spec.scope: Unsupported value: "Galactic": supported values: "Cluster", "Namespaced"';
  const gh = await run({ "crd.yaml": bad }, "check", "-o", "GitHub", "$D/crd.yaml");
  assert.equal(gh.code, 1);
  assert.equal(gh.out, `::error file=crd.yaml,line=9,col=10::${msg}\n1 CustomResourceDefinition: 0 valid, 1 invalid, 0 skipped\n`);
  const junit = await run({ "crd.yaml": bad }, "check", "-o", "junit", "$D/crd.yaml");
  assert.match(junit.out, /<testsuite name="crdkit check" tests="1" failures="1" skipped="0">/);
  assert.match(junit.out, /<testcase classname="[^"]*crd\.yaml" name="CustomResourceDefinition\/crontabs\.stable\.example\.com">\n {6}<failure message="spec\.scope: Unsupported value: &quot;Galactic&quot;/);
  const json = JSON.parse((await run({ "crd.yaml": bad }, "check", "-o", "JSON", "$D/crd.yaml")).stdout);
  assert.deepEqual(json.results[0].errors, [{ type: "FieldValueNotSupported", field: "spec.scope", message: msg, line: 9, column: 10 }]);
  // validate places the same CRD error at the same node
  const v = await run({ "crd.yaml": bad }, "validate", "$D/crd.yaml");
  assert.equal(v.out.split("\n")[0], `crd.yaml:9:10: ${msg}`);
  assert.equal((await runCli("check", "-o", "yaml", "x")).code, 2);
});

test("--version, crdkit version, help validate, help check", async () => {
  for (const args of [["--version"], ["version"]]) {
    const r = await runCli(...args);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `crdkit ${pkg.version} (node ${process.versions.node})\n`);
  }
  const h = await runCli("help", "validate");
  assert.equal(h.code, 0);
  assert.equal(h.stdout, (await runCli("validate", "--help")).stdout);
  assert.match(h.stdout, /^Usage: crdkit validate/);
  assert.match((await runCli("help", "check")).stdout, /^Usage: crdkit check/);
  assert.match((await runCli("help")).stdout, /^Usage: crdkit <command>/);
  assert.equal((await runCli("help", "frobnicate")).code, 2);
});

test("enum flags in any case; unknown values are usage errors naming the choices", async () => {
  const r = await run({ "crd.yaml": CRD }, "validate", "-o", "JSON", "--field-validation", "ignore", "$D/crd.yaml");
  assert.equal(r.code, 0);
  assert.equal(JSON.parse(r.stdout).summary.resources, 1);
  const bad = await runCli("validate", "--field-validation", "loose", "x");
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^crdkit validate: unknown --field-validation "loose" \(want Strict, Warn or Ignore\)/);
});

test("check: Warn-mode unknown fields point at the field, as the Strict errors do", async () => {
  const crd = CRD.replace("  scope: Namespaced\n", "  scope: Namespaced\n  bogus: 1\n");
  assert.notEqual(crd, CRD);
  const strict = await run({ "crd.yaml": crd }, "check", "-o", "json", "$D/crd.yaml");
  const warn = await run({ "crd.yaml": crd }, "check", "-o", "json", "--field-validation", "Warn", "$D/crd.yaml");
  const e = JSON.parse(strict.stdout).results[0].errors[0];
  const w = JSON.parse(warn.stdout).results[0].warnings[0];
  assert.equal(e.type, "UnknownField");
  assert.deepEqual(w, { message: 'unknown field "spec.bogus"', line: e.line, column: e.column });
  assert.equal(e.line, 10);
  const text = await run({ "crd.yaml": crd }, "check", "--field-validation", "Warn", "$D/crd.yaml");
  assert.equal(text.out.split("\n")[0], `crd.yaml:10:${e.column}: warning: crontabs.stable.example.com: unknown field "spec.bogus"`);
});
