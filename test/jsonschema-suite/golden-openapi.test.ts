/**
 * Replays the Kubernetes-generated golden cases (test/golden/**, written by tools/k8s-oracle from the
 * real k8s.io/apiextensions-apiserver) through the OpenAPI validator alone: each case's
 * `result.validatedObject` (the object after decoding, pruning and defaulting, as Kubernetes validated
 * it) is validated with the version's schema (create), with ratcheting against `result.oldObject`
 * (update), or with the status sub-schema (status). Every error crdkit reports must be one Kubernetes
 * reported, in Kubernetes' order, and every OpenAPI-looking Kubernetes error must be reported.
 */
import { strict as assert } from "node:assert";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { errorString } from "../../src/errors/field-error.js";
import { FieldPath } from "../../src/errors/field-path.js";
import type { JsonValue } from "../../src/value/json-value.js";
import { compileSchemaValidator, validateCustomResource, validateCustomResourceUpdate } from "../../src/validation/index.js";
import { parseGoJson as decodeJson } from "../../src/io/json-decode.js";

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), "..", "golden");

/** Cases whose Kubernetes errors look like OpenAPI errors but come from other layers (id → reason). */
const NOT_OPENAPI: Record<string, string> = {};

/**
 * Kubernetes errors that only the OpenAPI validator produces. `Required value` is counted only without a
 * detail (CEL rules with reason FieldValueRequired add one); schemas with embedded resources are
 * excluded from the "missing" check (ObjectMeta validation reports `apiVersion`/`kind` as required).
 */
const OPENAPI_LIKE =
  / in body |must validate|Checked value|must not validate|boundary value|MultipleOf value|factor MultipleOf|: (Unsupported value|Too long|Too many)|: Required value$/;

function files(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) files(p, out);
    else if (n.endsWith(".json")) out.push(p);
  }
  return out;
}

// biome-ignore lint/suspicious/noExplicitAny: golden files are untyped JSON
type Any = any;

let replayed = 0;
describe("golden cases (real apiextensions-apiserver) through the OpenAPI validator", () => {
  for (const file of files(GOLDEN)) {
    let doc: Any;
    try {
      doc = decodeJson(readFileSync(file, "utf8"));
    } catch {
      continue;
    }
    if (!doc || !Array.isArray(doc.cases) || !Array.isArray(doc.crds)) continue;
    for (const c of doc.cases as Any[]) {
      const r = c.result;
      if (!["create", "update", "status"].includes(c.operation) || !r?.validatedObject) continue;
      const schema = doc.crds[c.crd]?.spec?.versions?.find((v: Any) => v.name === c.version)?.schema?.openAPIV3Schema;
      if (!schema) continue;
      it(c.id, NOT_OPENAPI[c.id] ? { skip: NOT_OPENAPI[c.id] } : {}, () => {
        let mine: string[];
        if (c.operation === "status") {
          const st = r.validatedObject.status as JsonValue | undefined;
          const v = compileSchemaValidator(schema.properties?.status);
          mine = st === undefined ? [] : validateCustomResourceUpdate(FieldPath.of("status"), st, r.oldObject?.status ?? null, v).map(errorString);
        } else {
          const v = compileSchemaValidator(schema);
          mine =
            c.operation === "create"
              ? validateCustomResource(null, r.validatedObject, v).map(errorString)
              : validateCustomResourceUpdate(null, r.validatedObject, r.oldObject, v).map(errorString);
        }
        replayed++;
        const golden: string[] = (r.errors ?? []).map((e: Any) => e.message as string);
        assert.deepEqual(mine.filter((m) => !golden.includes(m)), [], "errors Kubernetes did not report");
        const embedded = JSON.stringify(schema).includes('"x-kubernetes-embedded-resource":true');
        const expected = embedded ? [] : golden.filter((m) => OPENAPI_LIKE.test(m) && !m.startsWith("metadata"));
        assert.deepEqual(expected.filter((m) => !mine.includes(m)), [], "Kubernetes errors not reported");
        if (c.errorOrder !== "unordered") {
          const positions = mine.map((m) => golden.indexOf(m));
          assert.deepEqual(positions, [...positions].sort((a, b) => a - b), "order differs from Kubernetes");
        }
      });
    }
  }
  it("replayed the golden cases", () => {
    assert.ok(replayed > 150, `only ${replayed} golden cases replayed`);
  });
});
