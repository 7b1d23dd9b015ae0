import * as assert from "node:assert/strict";
import { test } from "node:test";
import { runCli, tmpFiles } from "./helpers.js";

const CRD = "examples/crontab-crd.yaml";

test("text output on the bundled examples: file:line:column: exact field.Error text, summary, exit 1", async () => {
  const r = await runCli("validate", "--crds", CRD, "examples/");
  assert.equal(r.code, 1);
  assert.equal(
    r.stdout,
    [
      "examples/crontab-invalid.yaml:9:13: spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
      `examples/crontab-invalid.yaml:16:13: spec.cronSpec: Invalid value: "every minute": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'`,
      'examples/crontab-invalid.yaml:26:20: unknown field "spec.someRandomField"',
      "Summary: 7 resources: 4 valid, 3 invalid, 0 skipped",
      "",
    ].join("\n"),
  );
});

test("valid files exit 0", async () => {
  const r = await runCli("validate", "--crds", CRD, "examples/crontab-valid.yaml", "examples/crontab-list.json");
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "Summary: 3 resources: 3 valid, 0 invalid, 0 skipped\n");
});

test("json output: documented schema, stored object with defaults in Go key order", async () => {
  const r = await runCli("validate", "--crds", CRD, "-o", "json", "--show-object", "examples/crontab-valid.yaml");
  assert.equal(r.code, 0);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.summary, { resources: 2, valid: 2, invalid: 0, skipped: 0 });
  const second = out.results[1];
  assert.equal(second.file, "examples/crontab-valid.yaml");
  assert.equal(second.index, 1);
  assert.equal(second.kind, "CronTab");
  assert.equal(second.name, "defaulted");
  assert.equal(second.namespace, "default");
  assert.equal(second.valid, true);
  assert.deepEqual(second.errors, []);
  // nullable suspend keeps null; non-nullable timeZone null is dropped then defaulted
  assert.match(
    r.stdout,
    /"object":\{"apiVersion":"stable.example.com\/v1","kind":"CronTab","metadata":\{"generation":1,"name":"defaulted","namespace":"default"\},"spec":\{"cronSpec":"5 0 \* \* \*","image":"my-awesome-cron-image","replicas":1,"suspend":null,"timeZone":"Etc\/UTC"\}\}/,
  );
});

test("json output: errors carry type, field, exact message, line and column", async () => {
  const r = await runCli("validate", "--crds", CRD, "-o", "json", "examples/crontab-invalid.yaml");
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.results[0].errors, [
    {
      type: "FieldValueInvalid",
      field: "spec.replicas",
      message: "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
      line: 9,
      column: 13,
    },
  ]);
  assert.equal(out.results[0].object, undefined);
  assert.deepEqual(out.results[2].errors, [
    { type: "UnknownField", field: "spec.someRandomField", message: 'unknown field "spec.someRandomField"', line: 26, column: 20 },
  ]);
  assert.equal(
    out.results[2].decodeError,
    'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.someRandomField"',
  );
});

test("--field-validation Warn and Ignore: unknown fields pruned, reported as warnings or not at all", async () => {
  const warn = JSON.parse((await runCli("validate", "--crds", CRD, "-o", "json", "--field-validation", "Warn", "--show-object", "examples/crontab-invalid.yaml")).stdout);
  assert.equal(warn.results[2].valid, true);
  assert.deepEqual(warn.results[2].warnings, [{ message: 'unknown field "spec.someRandomField"' }]);
  assert.equal(warn.results[2].object.spec.someRandomField, undefined);
  const ignore = JSON.parse((await runCli("validate", "--crds", CRD, "-o", "json", "--field-validation=Ignore", "examples/crontab-invalid.yaml")).stdout);
  assert.deepEqual(ignore.results[2].warnings, []);
  assert.equal(ignore.results[2].valid, true);
});

test("objects without a CRD are skipped with kubectl's reason; -v lists them", async () => {
  const dir = tmpFiles({ "cm.yaml": "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: x\n" });
  const r = await runCli("validate", "-v", `${dir}/cm.yaml`);
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    `${dir}/cm.yaml:1:1: skipped: no matches for kind "Widget" in version "example.com/v1"\nSummary: 1 resource: 0 valid, 0 invalid, 1 skipped\n`,
  );
});

test("--old: matching objects are validated as updates (generation bumped, ratcheting)", async () => {
  const dir = tmpFiles({
    "old.yaml": "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\n  namespace: default\n  generation: 4\nspec:\n  image: x\n  replicas: 20\n",
    "new.yaml": "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: a\n  namespace: default\nspec:\n  image: z2\n  replicas: 20\n",
  });
  const r = await runCli("validate", "--crds", CRD, "--old", `${dir}/old.yaml`, "-o", "json", "--show-object", `${dir}/new.yaml`);
  const res = JSON.parse(r.stdout).results[0];
  assert.equal(res.operation, "update");
  // replicas 20 > maximum 10 is unchanged from the old object: ratcheted
  assert.deepEqual(res.errors, []);
  assert.equal(res.object.metadata.generation, 5);
  const create = JSON.parse((await runCli("validate", "--crds", CRD, "-o", "json", `${dir}/new.yaml`)).stdout).results[0];
  assert.equal(create.operation, "create");
  assert.equal(create.errors[0].message, "spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10");
});

test("CRDs found among the inputs are registered", async () => {
  const r = await runCli("validate", "examples/crontab-crd.yaml", "examples/crontab-valid.yaml");
  assert.equal(r.code, 0);
  assert.equal(r.stdout, "Summary: 3 resources: 3 valid, 0 invalid, 0 skipped\n");
});

test("github format: workflow commands with escaped data", async () => {
  const r = await runCli("validate", "--crds", CRD, "-o", "github", "examples/crontab-invalid.yaml");
  assert.equal(r.code, 1);
  const lines = r.stdout.split("\n");
  assert.equal(
    lines[0],
    "::error file=examples/crontab-invalid.yaml,line=9,col=13::spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
  );
  assert.equal(lines[3], "3 resources: 0 valid, 3 invalid, 0 skipped");
});

test("junit format: one testcase per document, failures and skips", async () => {
  const r = await runCli("validate", "--crds", CRD, "-o", "junit", "examples/crontab-invalid.yaml");
  assert.match(r.stdout, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="crdkit" tests="3" failures="3" skipped="0">/);
  assert.match(r.stdout, /<testcase classname="examples\/crontab-invalid.yaml" name="CronTab\/too-many-replicas">\n {6}<failure message="spec.replicas: Invalid value: 15: /);
});

test("usage errors and missing files exit 2", async () => {
  assert.equal((await runCli("validate")).code, 2);
  assert.equal((await runCli("validate", "--output", "yaml", "x")).code, 2);
  assert.equal((await runCli("validate", "--bogus", "x")).code, 2);
  assert.equal((await runCli("frobnicate")).code, 2);
  const r = await runCli("validate", "does/not/exist.yaml");
  assert.equal(r.code, 2);
  assert.equal(r.stderr, "crdkit validate: cannot read does/not/exist.yaml: no such file or directory\n");
  assert.equal((await runCli("validate", "--help")).code, 0);
});

test("crdkit check is dispatched to the CRD checker", async () => {
  const r = await runCli("check", "examples/crontab-crd.yaml");
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /crontabs\.stable\.example\.com/);
});

test("crdkit serve is dispatched (help only: no server is started)", async () => {
  const r = await runCli("serve", "--help");
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^Usage: crdkit serve/);
});
