/**
 * Differences with go-yaml v2 (sigs.k8s.io/yaml `YAMLToJSON` / `YAMLToJSONStrict`) that the YAML fuzzer
 * found, each pinned with Go's answer as the engine oracle (tools/k8s-oracle `decode-yaml`) gives it.
 */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { goJsonMarshal } from "../../go/json.js";
import { decodeDocuments } from "../decode.js";

/** The document as the API server reads a request body: JSON text or the error, and the strict error. */
function goAnswer(text: string): { json?: string; error?: string; line?: number; strict?: string[] } {
  const d = decodeDocuments(text, { format: "yaml", whole: true })[0];
  if (!d) return { json: "null" };
  if (d.problem) return { error: d.problem.message, line: d.problem.position.line };
  return { json: goJsonMarshal(d.value!), strict: d.strictErrors };
}

test("a simple key's 1024-character limit counts characters (runes), not UTF-16 units", () => {
  // 1023 + one astral character: 1024 runes, 1025 UTF-16 units
  assert.deepEqual(goAnswer(`a: 1\n${"k".repeat(1023)}😀: v\n`), {
    json: `{"a":1,"${"k".repeat(1023)}😀":"v"}`,
    strict: [],
  });
  assert.deepEqual(goAnswer(`a: 1\n${"😀".repeat(1024)}: v\n`), { json: `{"a":1,"${"😀".repeat(1024)}":"v"}`, strict: [] });
  // one rune more: no key
  assert.deepEqual(goAnswer(`a: 1\n${"k".repeat(1024)}😀: v\n`), { error: "yaml: line 2: could not find expected ':'", line: 2 });
  assert.deepEqual(goAnswer(`a: 1\n${"😀".repeat(1025)}: v\n`), { error: "yaml: line 2: could not find expected ':'", line: 2 });
  // two-byte characters count once too
  assert.deepEqual(goAnswer(`${"é".repeat(1025)}: v\n`).error, "yaml: mapping values are not allowed in this context");
  assert.deepEqual(goAnswer(`${"é".repeat(1024)}: v\n`).json, `{"${"é".repeat(1024)}":"v"}`);
  // in a flow mapping (not required: the key is dropped, `:` starts an empty key)
  assert.deepEqual(goAnswer(`{${"k".repeat(1023)}😀: v}\n`).json, `{"${"k".repeat(1023)}😀":"v"}`);
  assert.deepEqual(goAnswer(`{${"k".repeat(1024)}😀: v}\n`).error, "yaml: did not find expected ',' or '}'");
});
