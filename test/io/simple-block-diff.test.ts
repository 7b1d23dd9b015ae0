/**
 * Differential fuzzing of the YAML reader's line path (src/io/goyaml/simple-block.ts) against the event
 * path: on random documents near its boundaries (test/io/simple-block-gen.ts) and small edits of them,
 * whatever the line path decodes must be exactly what the event path decodes — value, types (int64 /
 * bigint / Float64), key order and root offset — and a document the event path refuses or reports
 * (syntax errors, duplicate keys, aliases, ...) must be left to it.
 *
 * Long run: SIMPLE_BLOCK_FUZZ_COUNT=200000 SIMPLE_BLOCK_FUZZ_SEED=7 node --import tsx --test test/io/simple-block-diff.test.ts
 */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { Rng } from "../fuzz/rng.js";
import { firstControlCharacter } from "../../src/io/goyaml/chars.js";
import { decodeGoYamlDocument, documentEvents } from "../../src/io/goyaml/decode-document.js";
import { decodeDirect } from "../../src/io/goyaml/direct-json.js";
import { decodeSimpleBlock } from "../../src/io/goyaml/simple-block.js";
import { Float64, type JsonValue } from "../../src/value/json-value.js";
import { editSimpleBlockDocument, genLineShapeDocument, genSimpleBlockDocument } from "./simple-block-gen.js";

const COUNT = Number(process.env["SIMPLE_BLOCK_FUZZ_COUNT"] ?? 6000);
const SEED = Number(process.env["SIMPLE_BLOCK_FUZZ_SEED"] ?? 1);

/** A value with its go-yaml types and key order kept. */
function typed(v: JsonValue | undefined): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `big:${x}` : x instanceof Float64 ? `F64:${x.value}` : x));
}

/** What the event path makes of `text` when the line path is not asked: the one-pass path, else the full one. */
function eventPath(text: string): string {
  const d = decodeDirect(text);
  if (d !== undefined) return `value ${typed(d.value)} at ${d.rootOffset}`;
  let events: unknown;
  try {
    events = documentEvents(text);
  } catch (e) {
    return `error ${(e as Error).message}`;
  }
  if (events === undefined) return "no document";
  return "the full path (duplicates, aliases, merge keys, conversion errors)";
}

/** A problem when the line path decodes `text` otherwise than the event path; `undefined` when they agree or it declines. */
export function lineVsEvent(text: string): string | undefined {
  if (firstControlCharacter(text) >= 0) return undefined; // refused before either path runs
  const a = decodeSimpleBlock(text);
  if (a === undefined) return undefined;
  const got = `value ${typed(a.value)} at ${a.rootOffset}`;
  const want = eventPath(text);
  return got === want ? undefined : `${JSON.stringify(text)}: line path ${got}; event path ${want}`;
}

test("line path agrees with the event path on documents near its boundaries", () => {
  const r = new Rng(SEED);
  const failures: string[] = [];
  let decoded = 0;
  for (let i = 0; i < COUNT; i++) {
    let text = r.chance(0.5) ? genLineShapeDocument(r) : genSimpleBlockDocument(r);
    if (r.chance(0.4)) text = editSimpleBlockDocument(r, text);
    if (decodeSimpleBlock(text) !== undefined) decoded++;
    const p = lineVsEvent(text);
    if (p !== undefined && failures.length < 10) failures.push(p);
  }
  assert.deepEqual(failures, []);
  // the generator must keep reaching the line path, or the test proves nothing
  assert.ok(decoded > COUNT / 10, `the line path decoded ${decoded} of ${COUNT}`);
});

test("the reader gives the event path's answer whichever path decodes", () => {
  // decodeGoYamlDocument takes the line path first: a document it decodes has the event path's value
  const text = "a: 1\nb:\n- x\n- {c: 'd'}\n";
  const doc = decodeGoYamlDocument(text);
  assert.equal(typed(doc.value), typed(decodeDirect(text)!.value));
});
