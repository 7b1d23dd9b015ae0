/**
 * Bad input never crashes, hangs or prints a stack trace: each case gives a clear error with file and
 * line. Inputs are generated on the fly (nothing large is committed).
 */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { runCli, tmpFiles } from "./helpers.js";

const CRD = readFileSync("examples/crontab-crd.yaml", "utf8");
const head = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: x\nspec:\n";

async function validate(files: Record<string, string>, ...flags: string[]) {
  const dir = tmpFiles({ "crd.yaml": CRD, ...files });
  const r = await runCli("validate", "--crds", `${dir}/crd.yaml`, ...flags, ...Object.keys(files).map((f) => `${dir}/${f}`));
  return { ...r, out: r.stdout.split(`${dir}/`).join("") };
}

const cases: [string, Record<string, string>, string][] = [
  ["malformed YAML", { "a.yaml": `${head}  image: [unclosed\n  replicas: 2\n` }, "a.yaml:7:"],
  ["malformed JSON", { "a.json": '{"apiVersion": "stable.example.com/v1",\n "kind": "CronTab",, }' }, "a.json:2:"],
  ["a scalar document", { "a.yaml": "just a string\n" }, "a.yaml:1:1: json: cannot unmarshal string into Go value of type map[string]interface {}"],
  ["a list document", { "a.yaml": "- 1\n- 2\n" }, "a.yaml:1:1: json: cannot unmarshal array into Go value of type map[string]interface {}"],
  ["a document without kind", { "a.yaml": "apiVersion: v1\nmetadata: {}\n" }, "a.yaml:1:1: error validating data: kind not set"],
  ["a document with an empty kind", { "a.yaml": "apiVersion: v1\nkind: ''\nmetadata: {}\n" }, "a.yaml:1:1: Object 'Kind' is missing in '{\"apiVersion\":\"v1\",\"kind\":\"\",\"metadata\":{}}'"],
  ["a bad document separator", { "a.yaml": `${head}  image: x\n--- oops\n` }, "a.yaml:7:1: invalid Yaml document separator: oops"],
  ["NaN in YAML", { "a.yaml": `${head}  image: x\n  replicas: .nan\n` }, "a.yaml:7:13: json: unsupported value: NaN"],
  ["bad metadata", { "a.yaml": "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: 12\n" }, 'a.yaml:1:1: CronTab in version "v1" cannot be handled as a CronTab: '],
];
for (const [name, files, want] of cases) {
  test(`bad input: ${name}`, async () => {
    const r = await validate(files);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.ok(r.out.includes(want), `${JSON.stringify(want)} not in:\n${r.out}`);
    assert.doesNotMatch(r.stdout + r.stderr, /\n\s+at /);
  });
}

test("bad input: duplicate keys are strict decoding errors (go-yaml text), warnings in Warn mode", async () => {
  const doc = `${head}  image: a\n  image: b\n`;
  const strict = await validate({ "a.yaml": doc });
  assert.equal(strict.code, 1);
  // one line per error in text output; JSON keeps Kubernetes' exact (multi-line) text
  assert.equal(strict.out.split("\n")[0], 'a.yaml:7:10: yaml: unmarshal errors: line 7: key "image" already set in map');
  const warn = await validate({ "a.yaml": doc }, "--field-validation", "Warn", "-o", "json", "--show-object");
  const res = JSON.parse(warn.stdout).results[0];
  assert.equal(res.valid, true);
  assert.deepEqual(res.warnings, [{ message: 'yaml: unmarshal errors:\n  line 7: key "image" already set in map', line: 7, column: 10 }]);
  assert.equal(res.object.spec.image, "b");
  const json = await validate({ "a.json": '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x"},"spec":{"image":"a","image":"b"}}' });
  assert.equal(json.out.split("\n")[0], 'a.json:1:96: duplicate field "spec.image"');
});

test("bad input: 10,000-deep nesting", async () => {
  const deep = `${head}  image: ${"[".repeat(10000)}${"]".repeat(10000)}\n`;
  const r = await validate({ "a.yaml": deep });
  assert.equal(r.code, 1);
  // go-yaml reads 10000 flow levels; the JSON made of them (object, spec, 10000 arrays) is then one level
  // too deep for the API server's JSON decoding
  assert.match(r.out, /^a\.yaml:6:\d+: invalid character '\[' exceeded max depth$/m);
  const yamlTooDeep = `${head}  image: ${"[".repeat(10001)}${"]".repeat(10001)}\n`;
  assert.match((await validate({ "a.yaml": yamlTooDeep })).out, /^a\.yaml:6:\d+: yaml: line 6: exceeded max depth of 10000$/m);
  const deepJson = `{"apiVersion":"stable.example.com/v1","kind":"CronTab","spec":{"image":${"[".repeat(10000)}${"]".repeat(10000)}}}`;
  const j = await validate({ "a.json": deepJson });
  assert.match(j.out, /^a\.json:1:\d+: invalid character '\[' exceeded max depth$/m);
});

test("bad input: a 50 MB file is refused like the API server's request size limit", async () => {
  const big = `${head}  image: ${"x".repeat(50 * 1024 * 1024)}\n`;
  const r = await validate({ "big.yaml": big });
  assert.equal(r.code, 1);
  assert.equal(r.out.split("\n")[0], "big.yaml:1:1: Request entity too large: limit is 3145728");
});

test("bad input: a 4 MB file (read whole, its size taken from the reader) is refused, a 700 KB one is not", async () => {
  const big = `${head}  image: ${"x".repeat(4 * 1024 * 1024)}\n`;
  const small = `${head}  image: ${"x".repeat(700 * 1024)}\n`;
  const r = await validate({ "big.yaml": big, "small.yaml": small });
  assert.equal(r.code, 1);
  const lines = r.out.split("\n");
  assert.equal(lines[0], "big.yaml:1:1: Request entity too large: limit is 3145728");
  assert.ok(!r.out.includes("small.yaml:1:1: Request entity too large"), r.out);
});

test("bad input: a pattern JavaScript accepts but RE2 rejects makes the CRD invalid, with its position", async () => {
  const crd = CRD.replace("pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'", "pattern: '^(?=a)b'");
  assert.notEqual(crd, CRD);
  const dir = tmpFiles({ "crd.yaml": crd, "a.yaml": `${head}  image: x\n` });
  const r = await runCli("validate", "--crds", `${dir}/crd.yaml`, `${dir}/a.yaml`, "-v");
  assert.equal(r.code, 1);
  const out = r.stdout.split(`${dir}/`).join("");
  assert.match(out, /^crd\.yaml:29:26: spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[cronSpec\]\.pattern: Invalid value: "\^\(\?=a\)b": must be a valid regular expression, but isn't: error parsing regexp: invalid or unsupported Perl syntax: `\(\?=`$/m);
  assert.match(out, /^a\.yaml:1:1: not validated: CRD crontabs\.stable\.example\.com is invalid \(crd\.yaml:3\)$/m);
});
