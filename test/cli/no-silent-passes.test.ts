/**
 * `crdkit validate` never passes silently: kinds without a schema are errors (kubectl's text), unless
 * --ignore-missing-schemas; --skip and --exclude leave things out; documents that are not Kubernetes
 * objects get kubectl's texts; CRDs defined twice and invalid CRDs are reported.
 */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runCli, tmpFiles } from "./helpers.js";

const CRD = readFileSync("examples/crontab-crd.yaml", "utf8");
const cron = (name: string, replicas = 1, extra = "") =>
  `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\n${extra}spec:\n  image: x\n  replicas: ${replicas}\n`;
const widget = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n";

async function run(files: Record<string, string>, ...args: string[]) {
  const dir = tmpFiles(files);
  const r = await runCli(...args.map((a) => a.replaceAll("$D", dir)));
  return { ...r, out: r.stdout.split(`${dir}/`).join(""), err: r.stderr.split(`${dir}/`).join("") };
}

test("a kind without a schema is an error with kubectl's text (exit 1), JSON type NoKindMatch", async () => {
  const r = await run({ "w.yaml": widget }, "validate", "$D/w.yaml");
  assert.equal(r.code, 1);
  assert.equal(r.out, 'w.yaml:1:1: no matches for kind "Widget" in version "example.com/v1"\nSummary: 1 resource: 0 valid, 1 invalid, 0 skipped\n');
  const j = JSON.parse((await run({ "w.yaml": widget }, "validate", "-o", "json", "$D/w.yaml")).stdout);
  assert.equal(j.results[0].status, "invalid");
  assert.deepEqual(j.results[0].errors, [
    { type: "NoKindMatch", field: "", message: 'no matches for kind "Widget" in version "example.com/v1"', line: 1, column: 1 },
  ]);
});

test("a version the CRD does not serve is a missing kind too", async () => {
  const r = await run({ "crd.yaml": CRD, "a.yaml": cron("a").replace("/v1", "/v2") }, "validate", "--crds", "$D/crd.yaml", "$D/a.yaml");
  assert.equal(r.code, 1);
  assert.match(r.out, /^a\.yaml:1:1: no matches for kind "CronTab" in version "stable\.example\.com\/v2"$/m);
});

test("--ignore-missing-schemas turns a missing kind into a skip (exit 0)", async () => {
  const r = await run({ "w.yaml": widget }, "validate", "--ignore-missing-schemas", "-o", "json", "$D/w.yaml");
  assert.equal(r.code, 0);
  const res = JSON.parse(r.stdout).results[0];
  assert.equal(res.status, "skipped");
  assert.equal(res.reason, 'no matches for kind "Widget" in version "example.com/v1"');
});

test("--skip matches Kind and apiVersion/Kind (comma-separated, repeatable)", async () => {
  const files = { "crd.yaml": CRD, "a.yaml": `${cron("a", 50)}---\n${widget}` };
  const byKind = await run(files, "validate", "--crds", "$D/crd.yaml", "--skip", "CronTab,Widget", "$D/a.yaml");
  assert.equal(byKind.code, 0, byKind.out);
  assert.equal(byKind.out, "Summary: 2 resources: 0 valid, 0 invalid, 2 skipped\n");
  const byGvk = await run(files, "validate", "--crds", "$D/crd.yaml", "--skip", "example.com/v1/Widget", "--skip=stable.example.com/v1/CronTab", "$D/a.yaml");
  assert.equal(byGvk.code, 0);
  const wrongVersion = await run(files, "validate", "--crds", "$D/crd.yaml", "--skip", "example.com/v2/Widget", "-o", "json", "$D/a.yaml");
  assert.equal(wrongVersion.code, 1);
  const j = JSON.parse(wrongVersion.stdout);
  assert.deepEqual(j.results.map((r: { status: string }) => r.status), ["invalid", "invalid"]);
});

test("--exclude GLOB leaves files and directories out", async () => {
  const dir = tmpFiles({ "crd.yaml": CRD, "good.yaml": cron("a"), "bad.yaml": cron("b", 50), "values.yaml": "replicas: 3\n" });
  const all = await runCli("validate", "--crds", `${dir}/crd.yaml`, dir);
  assert.equal(all.code, 1);
  // the CRD among the inputs is reported as a resource too
  const r = await runCli("validate", "--exclude", "bad.yaml", "--exclude", "values.*", dir);
  assert.equal(r.code, 0, r.stdout);
  assert.equal(r.stdout, "Summary: 2 resources: 2 valid, 0 invalid, 0 skipped\n");
  const byPath = await runCli("validate", "--exclude", `${dir}/b*.yaml`, "--exclude", "**/values.yaml", "--exclude", "crd.yaml", "--crds", `${dir}/crd.yaml`, dir);
  assert.equal(byPath.stdout, "Summary: 1 resource: 1 valid, 0 invalid, 0 skipped\n");
  // a directory pattern prunes the walk
  const nested = tmpFiles({ "crd.yaml": CRD });
  const { mkdirSync, writeFileSync } = await import("node:fs");
  mkdirSync(`${nested}/vendor/x`, { recursive: true });
  writeFileSync(`${nested}/vendor/x/w.yaml`, widget);
  writeFileSync(`${nested}/a.yaml`, cron("a"));
  assert.equal((await runCli("validate", nested)).code, 1);
  assert.equal((await runCli("validate", "--exclude", "vendor", nested)).stdout, "Summary: 2 resources: 2 valid, 0 invalid, 0 skipped\n");
});

test("documents that are not Kubernetes objects: kubectl's validation texts", async () => {
  const r = await run(
    { "a.yaml": "foo: 1\n---\napiVersion: v1\nmetadata: {}\n---\nkind: Foo\n---\napiVersion: 1\nkind: true\n---\napiVersion: a/b/c\nkind: X\n" },
    "validate", "-o", "json", "$D/a.yaml",
  );
  assert.equal(r.code, 1);
  const msgs = JSON.parse(r.stdout).results.map((x: { errors: { type: string; message: string }[] }) => `${x.errors[0]!.type}: ${x.errors[0]!.message}`);
  assert.deepEqual(msgs, [
    "NotKubernetesObject: error validating data: [apiVersion not set, kind not set]",
    "NotKubernetesObject: error validating data: kind not set",
    "NotKubernetesObject: error validating data: apiVersion not set",
    "NotKubernetesObject: error validating data: [apiVersion isn't string type, kind isn't string type]",
    "NotKubernetesObject: error validating data: unexpected GroupVersion string: a/b/c",
  ]);
});

test("two CRDs with the same name: a warning naming both files and lines; the later argument wins", async () => {
  const strict = CRD.replace("maximum: 10", "maximum: 3");
  assert.notEqual(strict, CRD);
  const files = { "a-crd.yaml": CRD, "b-crd.yaml": `# experimental channel\n${strict}`, "o.yaml": cron("o", 5) };
  const r = await run(files, "validate", "--crds", "$D/a-crd.yaml", "--crds", "$D/b-crd.yaml", "$D/o.yaml");
  assert.equal(
    r.err,
    'crdkit validate: warning: CustomResourceDefinition for CronTab.stable.example.com is defined twice, in a-crd.yaml:3 and in b-crd.yaml:4: the later one (b-crd.yaml:4) is used\n',
  );
  assert.equal(r.code, 1);
  assert.match(r.out, /spec\.replicas: Invalid value: 5: spec\.replicas in body should be less than or equal to 3/);
  const reversed = await run(files, "validate", "--crds", "$D/b-crd.yaml", "--crds", "$D/a-crd.yaml", "$D/o.yaml");
  assert.equal(reversed.code, 0, reversed.out);
  assert.match(reversed.err, /the later one \(a-crd\.yaml:3\) is used/);
  // the same file reached twice (as --crds and inside an input directory) is not a duplicate
  const dir = tmpFiles({ "crd.yaml": CRD, "o.yaml": cron("o") });
  const same = await runCli("validate", "--crds", `${dir}/crd.yaml`, dir);
  assert.equal(same.stderr, "");
  assert.equal(same.code, 0);
});

test("custom resources of an invalid CRD: 'not validated: CRD <name> is invalid (file:line)', status invalid", async () => {
  const bad = CRD.replace("scope: Namespaced", "scope: Galactic");
  const r = await run({ "crd.yaml": bad, "o.yaml": cron("o") }, "validate", "--crds", "$D/crd.yaml", "-o", "json", "$D/o.yaml");
  assert.equal(r.code, 1);
  const out = JSON.parse(r.stdout.split(r.stdout.includes("/tmp") ? "" : "\u0000").join(""));
  const cr = out.results.find((x: { kind: string }) => x.kind === "CronTab");
  assert.equal(cr.status, "invalid");
  assert.equal(cr.errors[0].type, "CRDInvalid");
  assert.match(cr.errors[0].message, /^not validated: CRD crontabs\.stable\.example\.com is invalid \(.*\/crd\.yaml:3\)$/);
  const crd = out.results.find((x: { kind: string }) => x.kind === "CustomResourceDefinition");
  assert.equal(crd.errors[0].message, 'spec.scope: Unsupported value: "Galactic": supported values: "Cluster", "Namespaced"');
});

test("a UTF-8 byte-order mark is accepted (YAML and JSON)", async () => {
  const json = JSON.stringify({ apiVersion: "stable.example.com/v1", kind: "CronTab", metadata: { name: "j" }, spec: { replicas: 50 } });
  const r = await run({ "crd.yaml": `\ufeff${CRD}`, "a.yaml": `\ufeff${cron("a", 50)}`, "b.json": `\ufeff${json}` }, "validate", "--crds", "$D/crd.yaml", "$D/a.yaml", "$D/b.json");
  assert.equal(
    r.out,
    [
      "a.yaml:7:13: spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10",
      "b.json:1:99: spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10",
      "Summary: 2 resources: 0 valid, 2 invalid, 0 skipped",
      "",
    ].join("\n"),
  );
});

test("two CRDs with the same name, -o github: also a ::warning annotation on the CRD used", async () => {
  const files = { "a-crd.yaml": CRD, "b-crd.yaml": CRD, "o.yaml": cron("o") };
  const r = await run(files, "validate", "-o", "github", "--crds", "$D/a-crd.yaml", "--crds", "$D/b-crd.yaml", "$D/o.yaml");
  assert.equal(r.code, 0);
  assert.equal(
    r.out.split("\n")[0],
    '::warning file=b-crd.yaml,line=3::CustomResourceDefinition for CronTab.stable.example.com is defined twice, in a-crd.yaml:3 and in b-crd.yaml:3: the later one (b-crd.yaml:3) is used',
  );
});

test("--skip CustomResourceDefinition: CRDs among the inputs are used but not reported", async () => {
  const r = await run({ "crd.yaml": CRD, "o.yaml": cron("o", 50) }, "validate", "--skip", "CustomResourceDefinition", "-o", "json", "$D/crd.yaml", "$D/o.yaml");
  assert.equal(r.code, 1);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.summary, { resources: 2, valid: 0, invalid: 1, skipped: 1 });
  assert.equal(out.results[0].reason, "kind CustomResourceDefinition is skipped (--skip)");
  assert.match(out.results[1].errors[0].message, /should be less than or equal to 10/);
});

test("an input without any document is not a pass (kubectl: no objects passed to apply)", async () => {
  const r = await run({ "empty.yaml": "# nothing here\n---\n" }, "validate", "$D/empty.yaml");
  assert.equal(r.code, 1);
  assert.equal(r.out, "Summary: 0 resources: 0 valid, 0 invalid, 0 skipped\n");
  assert.equal(r.stderr, "crdkit validate: no objects passed to validate\n");
});

test("two CRDs with the same name, -o json: the warning in the top-level warnings", async () => {
  const r = await run({ "a-crd.yaml": CRD, "b-crd.yaml": CRD, "o.yaml": cron("o") }, "validate", "-o", "json", "--crds", "$D/a-crd.yaml", "--crds", "$D/b-crd.yaml", "$D/o.yaml");
  const out = JSON.parse(r.out);
  assert.equal(out.warnings.length, 1);
  assert.equal(out.warnings[0].file, "b-crd.yaml");
  assert.equal(out.warnings[0].line, 3);
  assert.match(out.warnings[0].message, /is defined twice, in a-crd\.yaml:3 and in b-crd\.yaml:3/);
  // no run warnings: no field
  assert.equal(JSON.parse((await run({ "crd.yaml": CRD }, "validate", "-o", "json", "$D/crd.yaml")).stdout).warnings, undefined);
});
