/**
 * Built-in kinds kept in the compiled-CRD cache (src/cli/builtin-kind-cache.ts): a kind read back is the
 * kind the shipped bundle gives — same resolved schema, same verdicts — and a kind the release does not
 * have stays unknown; entries that do not check out are ignored.
 */
import * as assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { cachedBuiltinLookup } from "../../src/cli/builtin-kind-cache.js";
import { builtinKindLookup } from "../../src/cli/builtin-lookup.js";
import { SchemaCache } from "../../src/cli/schema-cache.js";
import type { JsonObject } from "../../src/value/json-value.js";

const OBJECTS: JsonObject[] = [
  { apiVersion: "apps/v1", kind: "Deployment", metadata: { name: "d" }, spec: { replicas: -1, template: { spec: { containers: [{ name: "c", image: "i", ports: [{ containerPort: 80 }, { containerPort: 80 }] }] } } } },
  { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "Bad_Name" }, data: { a: 1 } } as unknown as JsonObject,
  { apiVersion: "v1", kind: "Service", metadata: { name: "s" }, spec: { ports: [{ port: 80, protocol: "TCP" }], type: "NodePort" } },
  { apiVersion: "v1", kind: "Namespace", metadata: { name: "ns" } },
];

test("a built-in kind read back from the cache is the bundle's: same schema, same results", () => {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-builtin-"));
  const fresh = builtinKindLookup(undefined);
  const writer = cachedBuiltinLookup(new SchemaCache(dir, "stamp"), "", builtinKindLookup(undefined));
  const reader = cachedBuiltinLookup(new SchemaCache(dir, "stamp"), "", () => assert.fail("the bundle is not used"));
  for (const o of OBJECTS) {
    const av = o["apiVersion"] as string;
    const kind = o["kind"] as string;
    const a = fresh(av, kind)!;
    assert.equal(writer(av, kind), writer(av, kind), "one kind per run");
    const b = reader(av, kind)!;
    assert.ok(b, `${av} ${kind} read back`);
    assert.deepStrictEqual(b.schema, a.schema);
    assert.deepStrictEqual(b.info, a.info);
    const opts = { fieldValidation: "Strict" as const };
    assert.deepStrictEqual(b.create(o, opts), a.create(o, opts));
  }
  // a kind the release does not have is remembered as such
  assert.equal(writer("v1", "Nope"), undefined);
  assert.equal(reader("v1", "Nope"), undefined);
  // entries of another build, release or corrupt ones are not used
  const other = cachedBuiltinLookup(new SchemaCache(dir, "other"), "", () => undefined);
  assert.equal(other("apps/v1", "Deployment"), undefined);
  const older = cachedBuiltinLookup(new SchemaCache(dir, "stamp"), "1.30", () => undefined);
  assert.equal(older("apps/v1", "Deployment"), undefined);
  const files = readdirSync(join(new SchemaCache(dir, "stamp").buildPath, "builtin"));
  for (const f of files) writeFileSync(join(new SchemaCache(dir, "stamp").buildPath, "builtin", f), "{}\n{}");
  const afterCorruption = cachedBuiltinLookup(new SchemaCache(dir, "stamp"), "", () => undefined);
  assert.equal(afterCorruption("apps/v1", "Deployment"), undefined);
});

test("a built-in entry is read only for the kind it was written for (its short file name may be shared)", () => {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-builtin-id-"));
  const w = new SchemaCache(dir, "stamp");
  const a = w.builtinKey("bundle", "1.32", "v1", "ConfigMap");
  w.putBuiltinKind(a, { kind: "ConfigMap" });
  const r = new SchemaCache(dir, "stamp");
  assert.deepStrictEqual(r.getBuiltinKind(r.builtinKey("bundle", "1.32", "v1", "ConfigMap")), { kind: "ConfigMap" });
  // the same file name written for another kind (names are 16 hex digits of CRC-32 and length: two kinds
  // may meet): ConfigMap's reader does not take Secret's schema
  const folder = join(dir, w.buildName, "builtin");
  const [file] = readdirSync(folder);
  const text = readFileSync(join(folder, file!), "utf8");
  writeFileSync(join(folder, file!), text.replace(/"id":"[^"]*"/, `"id":${JSON.stringify(["bundle", "1.32", "v1", "Secret"].join("\u0000"))}`));
  assert.equal(r.getBuiltinKind(r.builtinKey("bundle", "1.32", "v1", "ConfigMap")), undefined);
  // nor is any entry read under a key this cache did not make
  assert.equal(new SchemaCache(dir, "stamp").getBuiltinKind(a), undefined);
});
