/**
 * The compiled-CRD cache keeps a CRD that passed the checks in decoded form (src/cli/decoded-crd-entry.ts):
 * read back, it must be exactly what decoding the CRD without its schema descriptions gives — same fields,
 * same numbers (int64 vs float64, big integers, -0), the v1 and internal forms sharing their schemas — and
 * CRDs compiled from it (one version at a time) must validate exactly as CRDs compiled eagerly.
 */
import * as assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { decodedCrdEntry, decodedCrdFromEntry, structuralFactsFromEntry, withoutSchemaDescriptions } from "../../src/cli/decoded-crd-entry.js";
import { schemaForVersion } from "../../src/crd/internal.js";
import type { FactsTree } from "../../src/structural/facts-tree.js";
import { lazyStructural } from "../../src/structural/lazy-structural.js";
import { newStructural } from "../../src/structural/new-structural.js";
import { subtreeFacts } from "../../src/structural/subtree-facts.js";
import type { Structural } from "../../src/structural/structural.js";
import { encodeValue, untag } from "../../src/cli/schema-cache.js";
import { type DecodedCrd, decodeCrd } from "../../src/crd/decode-crd.js";
import { decodeDocuments } from "../../src/io/decode.js";
import { checkCrd, compileDecoded, tryCompileCrd } from "../../src/pipeline/compile.js";
import type { PipelineResult } from "../../src/pipeline/types.js";
import { type JsonObject, type JsonValue, isObject } from "../../src/value/json-value.js";
import { corpusRoot } from "../corpus-root.js";

function entryRoundTrip(d: DecodedCrd): { decoded: DecodedCrd | undefined; facts: Map<string, FactsTree> | undefined } {
  const { json, tagged } = encodeValue(decodedCrdEntry(d));
  const parsed = JSON.parse(json) as unknown;
  const entry = tagged ? untag(parsed) : (parsed as JsonValue);
  const decoded = decodedCrdFromEntry(entry);
  return { decoded, facts: decoded && structuralFactsFromEntry(entry, decoded) };
}

function roundTrip(d: DecodedCrd): DecodedCrd | undefined {
  return entryRoundTrip(d).decoded;
}

/** Every node of a structural schema (read in full) with its subtree facts. */
function factsByPath(s: Structural, path = "", out: [string, number][] = []): [string, number][] {
  out.push([path, subtreeFacts(s)]);
  if (s.items) factsByPath(s.items, `${path}[]`, out);
  if (s.properties) for (const [k, p] of s.properties) factsByPath(p, `${path}.${k}`, out);
  if (s.additionalProperties?.schema) factsByPath(s.additionalProperties.schema, `${path}{}`, out);
  return out;
}

/** A raw CRD value whose schemas have no descriptions (what its cache entry keeps). */
function rawWithoutDescriptions(value: JsonValue): JsonValue {
  const crd = value as JsonObject;
  const spec = { ...(crd["spec"] as JsonObject) };
  const strip = (v: JsonValue | undefined) =>
    isObject(v) && v["openAPIV3Schema"] !== undefined ? { ...v, openAPIV3Schema: withoutSchemaDescriptions(v["openAPIV3Schema"]) as JsonValue } : v;
  if (spec["validation"] !== undefined) spec["validation"] = strip(spec["validation"])!;
  if (Array.isArray(spec["versions"])) spec["versions"] = spec["versions"].map((v) => (isObject(v) && v["schema"] !== undefined ? { ...v, schema: strip(v["schema"])! } : v));
  return { ...crd, spec };
}

/** What a cache entry of the CRD must read back as. */
function expected(value: JsonValue): DecodedCrd {
  const d = decodeCrd(rawWithoutDescriptions(value));
  assert.ok(d.ok, "decodes without descriptions");
  return d;
}

function decoded(yaml: string): { value: JsonValue; d: DecodedCrd } {
  const value = decodeDocuments(yaml)[0]!.value!;
  const d = decodeCrd(value);
  assert.ok(d.ok, "decodes");
  return { value, d };
}

const schema = (extra: string) => `
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer, minimum: 1, maximum: 10, default: 1}
              ratio: {type: number, default: 1.0, maximum: 1.5}
              big: {type: integer, default: 9007199254740993, enum: [9007199254740993, -0, 2]}
              name: {type: string, pattern: '^[a-z]+$'}
${extra}`;

const V1_TWO_VERSIONS = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com, annotations: {a: b}}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:${schema("")}
    subresources: {status: {}}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:${schema("              extra: {type: string, maxLength: 3}\n")}
`;

const V1_SAME_SCHEMAS = V1_TWO_VERSIONS.replace("              extra: {type: string, maxLength: 3}\n", "");

const V1BETA1 = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  version: v1
  preserveUnknownFields: false
  names: {plural: gadgets, kind: Gadget}
  scope: Cluster
  validation:
    openAPIV3Schema:${schema("").replace(/^ {2}/gm, "")}
  versions:
  - {name: v1, served: true, storage: true}
  - {name: v1beta1, served: true, storage: false}
`;

test("a decoded CRD read back from its cache entry is exactly the decoded CRD (v1, v1beta1, tagged numbers)", () => {
  for (const yaml of [V1_TWO_VERSIONS, V1_SAME_SCHEMAS, V1BETA1]) {
    const { value, d } = decoded(yaml);
    const back = roundTrip(d);
    assert.deepStrictEqual(back, expected(value));
    // what the cold run writes (the checks' decoding) is what a warm run decodes
    const checked = checkCrd(value);
    assert.ok(checked.ok, checked.ok ? "" : checked.message);
    assert.deepStrictEqual(checked.decoded, decodeCrd(value));
  }
  // the forms share their schema objects again, as decodeCrd's do
  const beta = roundTrip(decoded(V1BETA1).d)!;
  assert.equal(beta.crd.spec.versions[0]!.schema, beta.crd.spec.versions[1]!.schema);
  assert.equal(beta.crd.spec.versions[0]!.schema, beta.internal.spec.validation);
  const v1 = roundTrip(decoded(V1_TWO_VERSIONS).d)!;
  assert.equal(v1.internal.spec.versions[1]!.schema, v1.crd.spec.versions[1]!.schema);
});

test("a schema all versions have exactly is kept once and shared when read back; a schema only semantically equal is kept per version", () => {
  const same = decoded(V1_SAME_SCHEMAS);
  const entry = decodedCrdEntry(same.d);
  assert.equal(entry.sharedSchema, true);
  const json = encodeValue(entry).json;
  assert.equal(json.split('"pattern"').length - 1, 1, "the schema is in the entry once");
  const back = roundTrip(same.d)!;
  assert.deepStrictEqual(back, expected(same.value));
  assert.equal(back.crd.spec.versions[0]!.schema, back.crd.spec.versions[1]!.schema);
  assert.deepStrictEqual(Object.keys(back.crd.spec.versions[1]!), Object.keys(expected(same.value).crd.spec.versions[1]!));
  // `required: []` in one version only: semantically equal (hoisted in the internal form), not the same schema
  const near = decoded(V1_SAME_SCHEMAS.replace("              name: {type: string, pattern: '^[a-z]+$'}\n", () => "              name: {type: string, pattern: '^[a-z]+$', enum: []}\n"));
  assert.equal(near.d.crd.spec.versions.length, 2);
  assert.notEqual(near.d.internal.spec.validation, undefined, "hoisted");
  assert.equal(decodedCrdEntry(near.d).sharedSchema, undefined);
  assert.deepStrictEqual(roundTrip(near.d), expected(near.value));
  assert.equal(decodedCrdEntry(decoded(V1_TWO_VERSIONS).d).sharedSchema, undefined);
  // an entry that says so but does not hold it so is not one
  const e = JSON.parse(json) as JsonObject;
  const form = e["form"] as JsonObject;
  const spec = form["spec"] as JsonObject;
  const versions = spec["versions"] as JsonObject[];
  const withVersions = (vs: JsonValue[]) => ({ ...e, form: { ...form, spec: { ...spec, versions: vs } } });
  for (const bad of [
    { ...e, sharedSchema: 1 },
    withVersions([versions[0]!]),
    withVersions([versions[0]!, { ...versions[1]!, schema: versions[0]!["schema"]! }]),
    withVersions([{ ...versions[0]!, schema: 0 }, versions[1]!]),
  ]) {
    assert.equal(decodedCrdFromEntry(bad as JsonValue), undefined, JSON.stringify(bad).slice(0, 80));
  }
  assert.ok(decodedCrdFromEntry(e));
});

test("anything but an entry of a decoded CRD is not one", () => {
  const entry = decodedCrdEntry(decoded(V1_TWO_VERSIONS).d) as unknown as JsonObject;
  for (const bad of [null, 1, [], {}, { ...entry, apiVersion: "v1" }, { ...entry, unknownFields: [1] }, { ...entry, form: [] }, { ...entry, form: { spec: {} } }]) {
    assert.equal(decodedCrdFromEntry(bad as JsonValue), undefined);
  }
});

test("an entry's structural facts are used only when well-formed and present for every version with a schema", () => {
  const d = decoded(V1_TWO_VERSIONS).d;
  const entry = JSON.parse(encodeValue(decodedCrdEntry(d)).json) as JsonObject;
  const back = decodedCrdFromEntry(entry)!;
  assert.ok(structuralFactsFromEntry(entry, back));
  const facts = entry["facts"] as JsonObject;
  for (const bad of [undefined, null, 3, [], { v1: facts["v1"]! }, { ...facts, v2: "x" }, { ...facts, v2: [1, 0, 0] }, { ...facts, v2: [2, { spec: 4 }, 0, 0] }]) {
    assert.equal(structuralFactsFromEntry({ ...entry, facts: bad as JsonValue }, back), undefined, JSON.stringify(bad));
  }
});

test("every CRD of the corpus survives its cache entry unchanged", () => {
  const root = corpusRoot();
  let n = 0;
  for (const project of readdirSync(root, { withFileTypes: true })) {
    if (!project.isDirectory()) continue;
    let names: string[];
    try {
      names = readdirSync(join(root, project.name, "crds"));
    } catch {
      continue;
    }
    for (const name of names) {
      if (!/\.(ya?ml|json)$/.test(name)) continue;
      for (const doc of decodeDocuments(readFileSync(join(root, project.name, "crds", name), "utf8"))) {
        if (!isObject(doc.value) || doc.value["kind"] !== "CustomResourceDefinition") continue;
        const d = decodeCrd(doc.value);
        if (!d.ok) continue;
        const where = `${project.name}/crds/${name}#${doc.index}`;
        const back = entryRoundTrip(d);
        assert.deepStrictEqual(back.decoded, expected(doc.value), where);
        // each version's structural schema converted lazily from the entry is the full conversion
        for (const v of back.decoded!.internal.spec.versions) {
          const schema = schemaForVersion(back.decoded!.internal, v.name)?.openAPIV3Schema;
          if (!schema) continue;
          const full = newStructural(schema) as Structural;
          const lazy = lazyStructural(schema, back.facts!.get(v.name)!);
          assert.deepStrictEqual(factsByPath(lazy), factsByPath(full), `${where} ${v.name}`);
          assert.deepStrictEqual(lazy, full, `${where} ${v.name}`);
        }
        n++;
      }
    }
  }
  assert.ok(n > 100, `${n} CRDs checked`);
});

test("a CRD compiled one version at a time validates as the eagerly compiled one; equal schemas are compiled once", () => {
  const objects = [
    { apiVersion: "example.com/v1", kind: "Widget", metadata: { name: "w" }, spec: { replicas: 20, name: "A", extra: "x" }, status: { a: 1 } },
    { apiVersion: "example.com/v2", kind: "Widget", metadata: { name: "w" }, spec: { replicas: 0, ratio: 0.7, extra: "long" } },
    { apiVersion: "example.com/v2", kind: "Widget", metadata: { name: "w" }, spec: {} },
  ] as JsonObject[];
  for (const yaml of [V1_TWO_VERSIONS, V1_SAME_SCHEMAS]) {
    const { value, d } = decoded(yaml);
    const eager = tryCompileCrd(value);
    const lazy = compileDecoded(d, [], { lazyVersions: true });
    const cached = compileDecoded(roundTrip(d)!, [], { lazyVersions: true });
    const back = entryRoundTrip(d);
    assert.deepStrictEqual([...back.facts!.keys()], ["v1", "v2"]);
    const lazyStructure = compileDecoded(back.decoded!, [], { lazyVersions: true, structuralFacts: back.facts! });
    if (!eager.ok || !lazy.ok || !cached.ok || !lazyStructure.ok) assert.fail("compiles");
    for (const o of objects) {
      const a: PipelineResult = eager.compiled.create(o, { fieldValidation: "Strict" });
      const b: PipelineResult = lazy.compiled.create(o, { fieldValidation: "Strict" });
      assert.deepStrictEqual(b, a);
      assert.deepStrictEqual(cached.compiled.create(o, { fieldValidation: "Strict" }), a);
      assert.deepStrictEqual(lazyStructure.compiled.create(o, { fieldValidation: "Strict" }), a);
      assert.ok(a.errors.length > 0 || o["spec"] !== undefined);
    }
  }
  const same = compileDecoded(decoded(V1_SAME_SCHEMAS).d, [], { lazyVersions: true });
  const two = compileDecoded(decoded(V1_TWO_VERSIONS).d, []);
  assert.ok(same.ok && two.ok);
  const s = same.compiled.ctx.versions;
  assert.equal(s.get("v1")!.structural, s.get("v2")!.structural);
  const t = two.compiled.ctx.versions;
  assert.notEqual(t.get("v1")!.structural, t.get("v2")!.structural);
  assert.equal(t.get("v2")!.statusValidator, undefined);
  assert.notEqual(t.get("v1")!.statusValidator, undefined);
});

test("schema descriptions are left out of an entry; a `description` inside a default, an example or an enum, or a property named description, is kept", () => {
  const schema = {
    type: "object",
    description: "gone",
    properties: {
      description: { type: "string", description: "gone too" },
      conf: { type: "object", description: "gone", default: { description: "kept" }, example: { description: "kept" }, properties: { description: { type: "string" } } },
      list: { type: "array", items: { type: "string", description: "gone", enum: ["description"] } },
      any: { "x-kubernetes-preserve-unknown-fields": true, anyOf: [{ type: "integer", description: "gone" }, { type: "string" }] },
    },
  };
  assert.deepStrictEqual(withoutSchemaDescriptions(schema), {
    type: "object",
    properties: {
      description: { type: "string" },
      conf: { type: "object", default: { description: "kept" }, example: { description: "kept" }, properties: { description: { type: "string" } } },
      list: { type: "array", items: { type: "string", enum: ["description"] } },
      any: { "x-kubernetes-preserve-unknown-fields": true, anyOf: [{ type: "integer" }, { type: "string" }] },
    },
  });
  // the input is not changed
  assert.equal(schema.description, "gone");
});
