/**
 * The compiled CEL programs kept in the schema cache (`programs/`, src/cli/rule-program-cache.ts): the first
 * run writes them, the next reads them (and gives the same output, byte for byte), and a corrupt file is
 * ignored and rewritten.
 */
import * as assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { SchemaCache } from "../../src/cli/schema-cache.js";
import { runCli, tmpFiles } from "./helpers.js";

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
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
            x-kubernetes-validations:
            - rule: "self.min <= self.max"
              messageExpression: "'min exceeds max in ' + self.name"
            - rule: "self.name.startsWith('w-')"
              message: "name must start with w-"
            - rule: "self.max >= oldSelf.max"
            properties:
              min: {type: integer}
              max: {type: integer}
              name: {type: string, maxLength: 63}
              tags:
                type: array
                maxItems: 10
                items:
                  type: string
                  maxLength: 10
                  x-kubernetes-validations:
                  - rule: "self.size() <= 3"
`;

const OBJECTS = `apiVersion: example.com/v1
kind: Widget
metadata: {name: a}
spec: {min: 5, max: 2, name: x, tags: [ab, abcd]}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: b}
spec: {min: 1, max: 2, name: w-b, tags: [ab]}
`;

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

function programFiles(cacheHome: string): string[] {
  const root = join(cacheHome, "crdkit");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.parentPath.endsWith("/programs"))
    .map((e) => join(e.parentPath, e.name));
}

test("compiled programs are written by a run, read by the next, and a corrupt file is rewritten", async () => {
  const d = tmpFiles({ "crd.yaml": CRD, "objs.yaml": OBJECTS });
  const cacheHome = mkdtempSync(join(tmpdir(), "crdkit-cache-"));
  const run = () => withCache(cacheHome, () => runCli("validate", "-o", "json", "--crds", join(d, "crd.yaml"), join(d, "objs.yaml")));
  const uncached = await runCli("validate", "--no-cache", "-o", "json", "--crds", join(d, "crd.yaml"), join(d, "objs.yaml"));
  const first = await run();
  assert.equal(first.code, 1);
  assert.equal(first.stdout, uncached.stdout);
  const messages = (JSON.parse(first.stdout) as { results: { errors: { message: string }[] }[] }).results.flatMap((r) => r.errors.map((e) => e.message));
  assert.deepEqual(messages, [
    "spec: Invalid value: min exceeds max in x",
    "spec: Invalid value: name must start with w-",
    'spec.tags[1]: Invalid value: "abcd": failed rule: self.size() <= 3',
  ]);
  const files = programFiles(cacheHome);
  assert.equal(files.length, 1);
  const written = readFileSync(files[0]!, "utf8");

  // the next run reads the programs: same output; the file is not rewritten
  const second = await run();
  assert.equal(second.stdout, first.stdout);
  assert.equal(readFileSync(files[0]!, "utf8"), written);

  // proof that the programs are read: an entry (with a valid checksum) whose first rule is the constant true
  const cache = withCacheSync(cacheHome, () => new SchemaCache());
  const key = cache.fileKey(CRD);
  const nodes = cache.getRulePrograms(key, 0);
  assert.ok(nodes);
  const spec = nodes["v1\u0000r.4:spec"] as { rules: { p: unknown }[] };
  assert.ok(spec, Object.keys(nodes).join(" "));
  spec.rules[0]!.p = [[0, 1, [1, true]], []];
  cache.putRulePrograms(key, 0, nodes);
  const forged = await run();
  assert.doesNotMatch(forged.stdout, /min exceeds max/);
  assert.match(forged.stdout, /name must start with w-/);

  // a corrupt file is ignored (compiled afresh, same output) and written again
  writeFileSync(files[0]!, written.slice(0, written.length >> 1));
  const third = await run();
  assert.equal(third.stdout, first.stdout);
  assert.ok(cache.getRulePrograms(key, 0));
  const fourth = await run();
  assert.equal(fourth.stdout, first.stdout);
});

function withCacheSync<T>(dir: string, fn: () => T): T {
  const saved = process.env["XDG_CACHE_HOME"];
  process.env["XDG_CACHE_HOME"] = dir;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env["XDG_CACHE_HOME"];
    else process.env["XDG_CACHE_HOME"] = saved;
  }
}

test("a CRD given both as --crds and as an input shares its programs: a warm run rewrites nothing", async () => {
  const d = tmpFiles({ "crd.yaml": CRD, "objs.yaml": OBJECTS });
  const cacheHome = mkdtempSync(join(tmpdir(), "crdkit-cache-"));
  const run = () => withCache(cacheHome, () => runCli("validate", "-o", "json", "--crds", d, d));
  const uncached = await runCli("validate", "--no-cache", "-o", "json", "--crds", d, d);
  const first = await run();
  assert.equal(first.stdout, uncached.stdout);
  assert.match(first.stdout, /min exceeds max in x/);
  const files = programFiles(cacheHome);
  assert.equal(files.length, 1);
  const written = readFileSync(files[0]!, "utf8");
  const second = await run();
  assert.equal(second.stdout, first.stdout);
  assert.equal(readFileSync(files[0]!, "utf8"), written);
});
