/**
 * Source positions of documents the YAML reader's line path decodes come from the line path's outline
 * (src/io/goyaml/simple-block.ts `outlineSimpleBlock`, src/io/locate.ts `locateInOutline`) instead of a
 * second parse into events: for every field path — existing ones, partly existing ones, dotted keys,
 * indices out of range or negative, map-key brackets — the offset must be the one the walk over the
 * parser's events gives (`locateOffset`), on every corpus document and on random documents near the line
 * path's boundaries.
 */
import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { documentEvents } from "../../src/io/goyaml/decode-document.js";
import { outlineSimpleBlock } from "../../src/io/goyaml/simple-block.js";
import { locateInOutline, locateOffset } from "../../src/io/locate.js";
import { yamlChunks } from "../../src/io/yaml-split.js";
import { decodeDocuments } from "../../src/io/decode.js";
import { isObject, type JsonValue } from "../../src/value/json-value.js";
import { Rng } from "../fuzz/rng.js";
import { editSimpleBlockDocument, genLineShapeDocument, genSimpleBlockDocument } from "./simple-block-gen.js";

const CORPUS = "../shared/corpus";

/** Field paths of a value as Kubernetes renders them (`.name`, `[i]`, some keys as `[key]`), with misses around them. */
function pathsOf(v: JsonValue, r: Rng, prefix = "", out: string[] = [], depth = 0): string[] {
  out.push(prefix === "" ? "<nil>" : prefix);
  out.push(`${prefix}.zz`, `${prefix}[0]`, `${prefix}[-1]`, `${prefix}[x]`);
  if (depth > 12) return out;
  if (Array.isArray(v)) {
    out.push(`${prefix}[${v.length}]`);
    for (let i = 0; i < v.length; i++) pathsOf(v[i] as JsonValue, r, `${prefix}[${i}]`, out, depth + 1);
  } else if (isObject(v)) {
    for (const k of Object.keys(v)) {
      const child = r.chance(0.2) ? `${prefix}[${k}]` : prefix === "" ? k : `${prefix}.${k}`;
      pathsOf(v[k] as JsonValue, r, child, out, depth + 1);
    }
  }
  return out;
}

/** Disagreements of the two walks on one document text (empty when the line path does not take it). */
function compare(text: string, paths: (value: JsonValue) => string[]): { checked: number; diffs: string[] } {
  const outline = outlineSimpleBlock(text);
  if (outline === undefined) return { checked: 0, diffs: [] };
  const events = documentEvents(text) ?? [];
  assert.ok(events.length > 0, `the line path read a document without events: ${JSON.stringify(text)}`);
  const doc = decodeDocuments(text)[0];
  const diffs: string[] = [];
  let checked = 0;
  for (const p of paths(doc?.value ?? null)) {
    checked++;
    const want = locateOffset(text, events, 0, p);
    const got = locateInOutline(outline, p);
    if (got !== want && diffs.length < 3) diffs.push(`${JSON.stringify(text.slice(0, 300))} path ${JSON.stringify(p)}: outline ${got}, events ${want}`);
  }
  return { checked, diffs };
}

test("outline positions equal event positions on every corpus document", () => {
  assert.ok(existsSync(CORPUS), "the corpus is at ../shared/corpus");
  const r = new Rng(3);
  const diffs: string[] = [];
  let docs = 0;
  let checked = 0;
  for (const project of readdirSync(CORPUS)) {
    for (const sub of ["examples", "invalid-examples"]) {
      const dir = join(CORPUS, project, sub);
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir)) {
        if (!/\.ya?ml$/.test(f)) continue;
        for (const chunk of yamlChunks(readFileSync(join(dir, f), "utf8"))) {
          const text = chunk.text.endsWith("\n") ? chunk.text : `${chunk.text}\n`;
          const c = compare(text, (v) => pathsOf(v, r));
          if (c.checked > 0) docs++;
          checked += c.checked;
          if (diffs.length < 10) diffs.push(...c.diffs.map((d) => `${project}/${sub}/${f}: ${d}`));
        }
      }
    }
  }
  assert.deepEqual(diffs, []);
  assert.ok(docs > 3000, `only ${docs} corpus documents took the line path`);
  assert.ok(checked > 100000, `only ${checked} paths checked`);
});

test("outline positions equal event positions on random documents near the line path's boundaries", () => {
  const r = new Rng(11);
  const diffs: string[] = [];
  let docs = 0;
  for (let i = 0; i < 4000; i++) {
    let text = r.chance(0.5) ? genLineShapeDocument(r) : genSimpleBlockDocument(r);
    if (r.chance(0.4)) text = editSimpleBlockDocument(r, text);
    let c: { checked: number; diffs: string[] };
    try {
      c = compare(text, (v) => pathsOf(v, r));
    } catch (e) {
      diffs.push(`${JSON.stringify(text)}: ${(e as Error).message}`);
      continue;
    }
    if (c.checked > 0) docs++;
    if (diffs.length < 10) diffs.push(...c.diffs);
  }
  assert.deepEqual(diffs, []);
  assert.ok(docs > 400, `only ${docs} random documents took the line path`);
});

test("outline positions: empty values, flow collections, block scalars, dotted keys, quoted keys", () => {
  const text = [
    "a:",
    "b: |",
    "  x",
    "c: [1, {d: 2, 'e': [3]}]",
    "\"f.g\": 1",
    "f:",
    "  g: 2",
    "h:",
    "- ",
    "-",
    "  - i",
    "- {j: 1}",
    "k: >-",
    "  folded",
    "l: 'q'",
    "",
  ].join("\n");
  const outline = outlineSimpleBlock(text);
  assert.ok(outline !== undefined);
  const events = documentEvents(text)!;
  for (const p of ["a", "b", "c", "c[1]", "c[1].d", "c[1].e[0]", "c[1].e[1]", "f.g", "f", "f[g]", "h", "h[0]", "h[1]", "h[1][0]", "h[2]", "h[2].j", "k", "l", "m.n", "c[-3]"]) {
    assert.equal(locateInOutline(outline, p), locateOffset(text, events, 0, p), p);
  }
  // the empty value of `a:` is at the end of its `:`, go-yaml's empty scalar
  assert.equal(locateInOutline(outline, "a"), 2);
});
