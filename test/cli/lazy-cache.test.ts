/**
 * `crdkit validate` compiles --crds CRDs only when a document of their kind is seen, and keeps CRD-check
 * verdicts and CRD file indexes in a cache ($XDG_CACHE_HOME/crdkit) that must never change a result.
 */
import * as assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync, mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { test } from "node:test";
import { LazyCrdRegistry } from "../../src/cli/lazy-registry.js";
import { SchemaCache } from "../../src/cli/schema-cache.js";
import { runCli, tmpFiles } from "./helpers.js";

const CRONTAB_CRD = readFileSync("examples/crontab-crd.yaml", "utf8");

function crd(group: string, kind: string, extra = ""): string {
  const plural = `${kind.toLowerCase()}s`;
  return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.${group}
spec:
  group: ${group}
  scope: Namespaced
  names: {plural: ${plural}, kind: ${kind}}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, maximum: 3}
${extra}`;
}

// a rejected CRD: the rule does not compile (Kubernetes' CEL error), third document of its file
const BAD_RULE = `            x-kubernetes-validations:
            - rule: "self.size >"
`;
const CRDS = `${crd("a.example.com", "Good")}---\n# comment\n---\n${crd("b.example.com", "Unused", BAD_RULE)}---\n${crd("c.example.com", "Bad", BAD_RULE)}---\nkey: [unclosed\n`;

const OBJECTS = `apiVersion: a.example.com/v1
kind: Good
metadata: {name: g}
spec: {size: 5}
---
apiVersion: c.example.com/v1
kind: Bad
metadata: {name: b}
spec: {size: 1}
`;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

async function withCache<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env["XDG_CACHE_HOME"];
  process.env["XDG_CACHE_HOME"] = dir;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env["XDG_CACHE_HOME"];
    else process.env["XDG_CACHE_HOME"] = saved;
  }
}

test("only the CRDs that documents use are compiled; a rejected one is reported when first needed", async () => {
  const d = tmpFiles({ "crds.yaml": CRDS, "objs.yaml": OBJECTS });
  const cacheHome = mkdtempSync(join(tmpdir(), "crdkit-cache-"));
  const run = () => withCache(cacheHome, () => runCli("validate", "-o", "json", "--crds", join(d, "crds.yaml"), join(d, "objs.yaml")));
  const first = await run();
  assert.equal(first.code, 1);
  const out = JSON.parse(first.stdout);
  const brief = out.results.map((r: { file: string; index: number; status: string; errors: { type: string; message: string; line: number }[]; reason?: string }) => ({
    file: r.file.slice(d.length + 1),
    index: r.index,
    status: r.status,
    errors: r.errors.map((e) => `${e.type} ${e.line}: ${e.message}`),
    reason: r.reason,
  }));
  assert.deepEqual(brief, [
    // the undecodable document of the CRD file, then the objects; the Unused CRD (same error) is never checked
    { file: "crds.yaml", index: 3, status: "invalid", errors: ["DecodeError 71: yaml: line 1: did not find expected ',' or ']'"], reason: undefined },
    { file: "objs.yaml", index: 0, status: "invalid", errors: ["FieldValueInvalid 4: spec.size: Invalid value: 5: spec.size in body should be less than or equal to 3"], reason: undefined },
    {
      file: "crds.yaml",
      index: 2,
      status: "invalid",
      errors: [
        'InvalidCRD 68: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self.size \\u003e","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:12: Syntax error: mismatched input \'<EOF>\' expecting {\'[\', \'{\', \'(\', \'.\', \'-\', \'!\', \'true\', \'false\', \'null\', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.size >\n | ...........^',
      ],
      reason: undefined,
    },
    // the objects of an invalid CRD are not validated (issue 14), not skipped as a missing kind
    { file: "objs.yaml", index: 1, status: "invalid", errors: [`CRDInvalid 6: not validated: CRD bads.c.example.com is invalid (${d}/crds.yaml:47)`], reason: undefined },
  ]);
  // warm cache: the CRD file is not decoded again, the verdicts are read: same output, byte for byte
  const cached = files(cacheHome);
  assert.equal(cached.filter((f) => f.includes("/index/")).length, 1);
  assert.equal(cached.filter((f) => f.includes("/verdict/")).length, 2);
  assert.equal(cached.filter((f) => f.includes("/value/")).length, 2);
  // the CRD that passed the checks is also kept decoded (compiled from it next time)
  assert.equal(cached.filter((f) => f.includes("/decoded/")).length, 1);
  // the CRD file's key is remembered by its stat (read and hashed again only when it changed)
  assert.equal(cached.filter((f) => f.includes("/stat/")).length, 1);
  const second = await run();
  assert.equal(second.stdout, first.stdout);
  assert.equal(second.code, first.code);
  // corrupt and truncated entries are ignored (and rewritten), never trusted
  for (const [i, f] of cached.entries()) {
    const text = readFileSync(f, "utf8");
    const altered = f.includes("/value/") || f.includes("/decoded/")
      ? text.replace("maximum", "minimum")
      : f.includes("/index/")
        ? text.replace(/"line":(\d)/, '"line":9$1')
        : f.includes("/stat/")
          ? text.replace(/"key":"([0-9a-f])/, (_m, c) => `"key":"${c === "0" ? "1" : "0"}`)
          : text.replace(/"ok":(true|false)/, (_m, b) => `"ok":${b === "true" ? "false" : "true"}`);
    assert.notEqual(altered, text);
    writeFileSync(f, i % 2 === 0 ? text.slice(0, text.length >> 1) : altered);
  }
  const third = await run();
  assert.equal(third.stdout, first.stdout);
  const fourth = await run();
  assert.equal(fourth.stdout, first.stdout);
});

test("--no-cache (and CRDKIT_NO_CACHE) neither read nor write the cache", async () => {
  const d = tmpFiles({ "crd.yaml": CRONTAB_CRD, "ct.yaml": "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: x}\nspec: {replicas: 2}\n" });
  const cacheHome = mkdtempSync(join(tmpdir(), "crdkit-cache-"));
  const r = await withCache(cacheHome, () => runCli("validate", "--no-cache", "--crds", join(d, "crd.yaml"), join(d, "ct.yaml")));
  assert.equal(r.stdout, "Summary: 1 resource: 1 valid, 0 invalid, 0 skipped\n");
  assert.deepEqual(files(cacheHome), []);
  const saved = process.env["CRDKIT_NO_CACHE"];
  process.env["CRDKIT_NO_CACHE"] = "1";
  try {
    await withCache(cacheHome, () => runCli("validate", "--crds", join(d, "crd.yaml"), join(d, "ct.yaml")));
  } finally {
    if (saved === undefined) delete process.env["CRDKIT_NO_CACHE"];
    else process.env["CRDKIT_NO_CACHE"] = saved;
  }
  assert.deepEqual(files(cacheHome), []);
});

test("LazyCrdRegistry compiles a CRD on its first lookup only, and the last valid CRD of a kind wins", () => {
  const invalid: string[] = [];
  const reg = new LazyCrdRegistry(undefined, (o, _v, errs) => invalid.push(`${o.file}#${o.index}: ${errs.length}`));
  assert.deepEqual(reg.addFile("a.yaml", `${crd("a.example.com", "A")}---\n${crd("b.example.com", "B")}`), []);
  reg.addFile("a2.yaml", crd("a.example.com", "A", BAD_RULE));
  assert.equal(reg.compiled, 0);
  assert.equal(reg.lookup("b.example.com/v1", "B")?.kind, "B");
  assert.equal(reg.compiled, 1);
  assert.equal(reg.lookup("b.example.com/v1", "B")?.kind, "B");
  assert.equal(reg.compiled, 1);
  // a2.yaml's CRD is newer but rejected: reported once, the older valid one is used
  assert.equal(reg.lookup("a.example.com/v1", "A")?.group, "a.example.com");
  assert.equal(reg.lookup("a.example.com/v2", "A")?.group, "a.example.com");
  assert.deepEqual(invalid, ["a2.yaml#0: 1"]);
  assert.equal(reg.lookup("a.example.com/v1", "Nope"), undefined);
  assert.equal(reg.lookup("v1", "A"), undefined);
});

test("cache entries are written whole (temporary file + rename) and concurrent writers agree", async () => {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-cache-"));
  const cache = new SchemaCache(dir, "test-stamp");
  const key = cache.crdKey({ a: 1 });
  cache.putVerdict(key, { ok: false, message: "m", errors: ["e1", "e2"] });
  assert.deepEqual(cache.getVerdict(key), { ok: false, message: "m", errors: ["e1", "e2"] });
  assert.deepEqual(files(dir).map((f) => f.endsWith(".json")), [true]);
  // another build never reads it
  assert.equal(new SchemaCache(dir, "other-stamp").getVerdict(key), undefined);
  // int64 1 and float64 1.0 are different CRDs
  const { Float64 } = await import("../../src/value/json-value.js");
  assert.notEqual(cache.crdKey({ a: 1 }), cache.crdKey({ a: new Float64(1) }));

  // three processes fill one cache at once: every run prints the same, every entry stays readable
  const d = tmpFiles({ "crds.yaml": CRDS, "objs.yaml": OBJECTS });
  const cacheHome = mkdtempSync(join(tmpdir(), "crdkit-cache-"));
  const main = join(import.meta.dirname, "../../src/cli/main.ts");
  const script = `import(${JSON.stringify(main)}).then((m) => m.main(["validate", "--crds", ${JSON.stringify(join(d, "crds.yaml"))}, ${JSON.stringify(join(d, "objs.yaml"))}])).then((c) => { process.exitCode = c; })`;
  const run = () =>
    promisify(execFile)(process.execPath, ["--import", "tsx", "-e", script], { env: { ...process.env, XDG_CACHE_HOME: cacheHome } }).catch(
      (e: { stdout: string; code: number }) => ({ stdout: e.stdout, code: e.code }),
    );
  const outs = await Promise.all([run(), run(), run()]);
  for (const o of outs) assert.equal(o.stdout, outs[0]!.stdout);
  assert.match(outs[0]!.stdout, /Summary: 4 resources: 0 valid, 4 invalid, 0 skipped/);
  const entries = files(cacheHome);
  // index, 2 values, 2 verdicts, decoded, and the CRD file's stat record
  assert.ok(entries.length === 7 && entries.every((f) => f.endsWith(".json")), entries.join(", "));
  for (const f of entries) for (const part of readFileSync(f, "utf8").split("\n")) JSON.parse(part);
  const after = await run();
  assert.equal(after.stdout, outs[0]!.stdout);
});
