/**
 * The on-demand object types of a DeclType tree declare exactly what the eager `objectTypeDecls` after
 * `assignTypeNames` declares: same type names, same fields (escaped and reserved-word names), same field
 * types — over a hand-written schema and the schemas of real CRDs of the corpus.
 */
import * as assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { corpusRoot } from "../../test/corpus-root.js";
import { formatType } from "../cel/index.js";
import { decodeDocuments } from "../io/decode.js";
import { isObject, type JsonValue } from "../value/json-value.js";
import { assignTypeNames, celTypeOf, objectTypeDecls, schemaDeclType } from "./decl-type.js";
import { declTypeSource, namedCelType } from "./decl-type-source.js";
import { structural } from "./test-helpers.test-util.js";

/** Compares the source with the eager declarations of `schema`; returns how many types were compared. */
function compare(schema: unknown, isResourceRoot: boolean): number {
  const eagerType = schemaDeclType(structural(schema), isResourceRoot);
  const lazyType = schemaDeclType(structural(schema), isResourceRoot);
  if (!eagerType || !lazyType) return 0;
  assignTypeNames(eagerType, "selfType42");
  const eager = objectTypeDecls(eagerType);
  const source = declTypeSource(lazyType, "selfType42");
  assert.equal(formatType(namedCelType(lazyType, "selfType42")), formatType(celTypeOf(eagerType)));
  for (const [name, fields] of Object.entries(eager)) {
    const got = source.fields(name);
    assert.ok(got, `type ${name} is declared`);
    assert.deepEqual(
      [...got].map(([f, t]) => [f, formatType(t)]),
      Object.entries(fields).map(([f, t]) => [f, formatType(t)]),
      `fields of ${name}`,
    );
    // one segment more is never a type unless the eager declarations have it
    for (const extra of [`${name}.nope`, `${name}.@idx`, `${name}.@elem`, `${name}x`]) {
      assert.equal(source.fields(extra) !== undefined, Object.hasOwn(eager, extra), extra);
    }
  }
  for (const name of ["selfType4", "selfType42.", "", "selfType42..spec", "object"]) {
    assert.equal(source.fields(name) !== undefined, Object.hasOwn(eager, name), name);
  }
  return Object.keys(eager).length;
}

function schemasOf(doc: JsonValue | undefined, out: unknown[]): void {
  if (!isObject(doc) || doc["kind"] !== "CustomResourceDefinition" || !isObject(doc["spec"])) return;
  const versions = doc["spec"]["versions"];
  if (!Array.isArray(versions)) return;
  for (const v of versions) {
    if (isObject(v) && isObject(v["schema"]) && isObject(v["schema"]["openAPIV3Schema"])) out.push(v["schema"]["openAPIV3Schema"]);
  }
}

describe("declTypeSource", () => {
  it("declares the types objectTypeDecls declares: nested objects, lists, maps, escaped and reserved names", () => {
    // (a `__proto__` property, as decoded from JSON, is an own key)
    const leaf = JSON.parse('{"type": "object", "properties": {"a.b": {"type": "string"}, "namespace": {"type": "integer"}, "__x": {"type": "boolean"}, "__proto__": {"type": "string"}}}');
    const schema = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          properties: {
            list: { type: "array", items: leaf },
            lists: { type: "array", items: { type: "array", items: leaf } },
            map: { type: "object", additionalProperties: leaf },
            "dashed-name": leaf,
            in: leaf,
            "9lives": leaf,
            any: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
            embedded: { type: "object", "x-kubernetes-embedded-resource": true, properties: { spec: leaf } },
            intOrString: { "x-kubernetes-int-or-string": true },
          },
        },
      },
    };
    assert.ok(compare(schema, true) >= 9);
    assert.ok(compare(schema, false) >= 9);
  });

  it("declares the same types for the CRDs of the corpus", () => {
    const root = corpusRoot();
    let types = 0;
    for (const project of ["gateway-api", "envoy-gateway", "kueue"]) {
      const dir = join(root, project, "crds");
      for (const f of readdirSync(dir).filter((n) => /\.ya?ml$/.test(n))) {
        const schemas: unknown[] = [];
        for (const d of decodeDocuments(readFileSync(join(dir, f), "utf8"))) schemasOf(d.value, schemas);
        for (const s of schemas) {
          try {
            structural(s);
          } catch {
            continue; // not structural: no rules compile against it
          }
          types += compare(s, true);
        }
      }
    }
    assert.ok(types > 1000, `${types} types compared`);
  });
});
