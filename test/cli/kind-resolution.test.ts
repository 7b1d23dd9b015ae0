/** The one place that decides which schema validates a kind: CRD | built-in | missing | CRD-invalid. */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { type ResourceValidator, duplicateCrdWarning, resolveKind } from "../../src/cli/kind-resolution.js";
import { LazyCrdRegistry } from "../../src/cli/lazy-registry.js";
import { decodeDocuments } from "../../src/io/decode.js";

const CRD = readFileSync("examples/crontab-crd.yaml", "utf8");
const BAD = CRD.replace("scope: Namespaced", "scope: Galactic");

const configMaps: ResourceValidator = {
  namespaced: true,
  create: () => ({ object: null, errors: [], warnings: [], unknownFields: [] }),
  update: () => ({ object: null, errors: [], warnings: [], unknownFields: [] }),
};
const builtins = (av: string, k: string) => (av === "v1" && k === "ConfigMap" ? configMaps : undefined);

test("resolveKind: a CRD's served version, a built-in kind through the hook, kubectl's text for the rest", () => {
  const reg = new LazyCrdRegistry(undefined, () => {});
  reg.addFile("crd.yaml", CRD);
  const crd = resolveKind(reg, builtins, "stable.example.com/v1", "CronTab");
  assert.equal(crd.type, "crd");
  assert.equal(crd.type === "crd" && crd.version, "v1");
  const builtin = resolveKind(reg, builtins, "v1", "ConfigMap");
  assert.equal(builtin.type === "builtin" && builtin.validator, configMaps);
  assert.deepEqual(resolveKind(reg, builtins, "stable.example.com/v2", "CronTab"), {
    type: "missing",
    message: 'no matches for kind "CronTab" in version "stable.example.com/v2"',
  });
  assert.deepEqual(resolveKind(reg, builtins, "v1", "Secret"), { type: "missing", message: 'no matches for kind "Secret" in version "v1"' });
  assert.equal(resolveKind(reg, undefined, "v1", "ConfigMap").type, "missing");
});

test("the later CRD wins, even an invalid one (its objects are not validated); a duplicate is reported", () => {
  const reg = new LazyCrdRegistry(undefined, () => {});
  const dups: string[] = [];
  reg.onDuplicate = (a, b, g, k) => dups.push(duplicateCrdWarning(a, b, g, k));
  reg.addFile("a.yaml", CRD);
  reg.addFile("b.yaml", `# later\n${BAD}`);
  assert.deepEqual(dups, [
    "CustomResourceDefinition for CronTab.stable.example.com is defined twice, in a.yaml:3 and in b.yaml:4: the later one (b.yaml:4) is used",
  ]);
  const r = resolveKind(reg, undefined, "stable.example.com/v1", "CronTab");
  assert.equal(r.type, "crd-invalid");
  assert.equal(r.type === "crd-invalid" && r.message, "not validated: CRD crontabs.stable.example.com is invalid (b.yaml:4)");
  reg.addFile("c.yaml", CRD);
  assert.equal(resolveKind(reg, undefined, "stable.example.com/v1", "CronTab").type, "crd");
});

test("cluster CRDs are replaced by local files without a warning", () => {
  const reg = new LazyCrdRegistry(undefined, () => {});
  const dups: string[] = [];
  reg.onDuplicate = (a, b, g, k) => dups.push(duplicateCrdWarning(a, b, g, k));
  reg.addClusterCrd("cluster x", decodeDocuments(BAD)[0]!.value!);
  assert.equal(resolveKind(reg, undefined, "stable.example.com/v1", "CronTab").type, "crd-invalid");
  reg.addFile("crd.yaml", CRD);
  assert.equal(resolveKind(reg, undefined, "stable.example.com/v1", "CronTab").type, "crd");
  assert.deepEqual(dups, []);
});
