/**
 * Every CRD of the real-world corpus (/work/shared/corpus, 245 documents) is accepted on create, as on a
 * real cluster: no decode error, no unknown field, no validation error, no warning. Default values are
 * checked with the engine's default-validation steps (src/pipeline/crd-hooks.ts).
 */
import { strict as assert } from "node:assert";
import { existsSync, readFileSync } from "node:fs";
import { test } from "node:test";
import { corpusRoot } from "../corpus-root.js";
import { validateCrdCreate } from "../../src/crdvalidation/validate-crd.js";
import { errorString } from "../../src/errors/field-error.js";
import { decodeDocuments } from "../../src/io/decode.js";
import { crdValidationOptions } from "../../src/pipeline/crd-hooks.js";
import { isObject } from "../../src/value/json-value.js";

const CORPUS = corpusRoot();

test("corpus CRDs are valid", { skip: !existsSync(`${CORPUS}/crd-index.tsv`) }, () => {
  const files = new Set(
    readFileSync(`${CORPUS}/crd-index.tsv`, "utf8").trim().split("\n").slice(1).map((l) => l.split("\t")[1]!),
  );
  let n = 0;
  const problems: string[] = [];
  for (const file of files) {
    for (const d of decodeDocuments(readFileSync(`${CORPUS}/${file}`, "utf8"))) {
      if (!isObject(d.value) || d.value["kind"] !== "CustomResourceDefinition") continue;
      n++;
      const r = validateCrdCreate(d.value, crdValidationOptions);
      const msgs = [...(r.decodeError ? [r.decodeError] : []), ...r.unknownFields, ...r.errors.map(errorString), ...r.warnings];
      if (msgs.length > 0) problems.push(`${file}: ${msgs.slice(0, 3).join("; ")}`);
    }
  }
  assert.equal(n, 245);
  assert.deepEqual(problems, []);
});
