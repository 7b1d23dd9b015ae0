/**
 * Mutated manifests never make the decoder throw: every document either decodes or carries a problem with
 * a position. Deterministic (seeded) mutations of a CronTab manifest.
 */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { decodeDocuments } from "./decode.js";

const SEED_TEXT = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
  labels: {app: cron, "tier": backend}
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 3
  list: [a, b, &x c, *x]
  block: |
    line one
    line two
---
{"apiVersion": "v1", "kind": "List", "items": [{"a": 1.0, "b": [true, null]}]}
`;
const PIECES = ["{", "}", "[", "]", ":", "- ", "---\n", "&a ", "*a", "!!int ", "\t", "'", '"', "\\", "#", "\n  ", "<<: ", "? ", "|", ">", "%", "@", "\u0000", "\ufeff"];

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

test("400 mutated manifests decode without throwing", () => {
  const r = rng(42);
  for (let i = 0; i < 400; i++) {
    let t = SEED_TEXT;
    const edits = 1 + Math.floor(r() * 4);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(r() * t.length);
      const op = r();
      if (op < 0.4) t = t.slice(0, at) + PIECES[Math.floor(r() * PIECES.length)] + t.slice(at);
      else if (op < 0.7) t = t.slice(0, at) + t.slice(at + 1 + Math.floor(r() * 8));
      else t = t.slice(0, at) + t.slice(Math.floor(r() * t.length));
    }
    const docs = decodeDocuments(t);
    for (const d of docs) {
      if (d.problem) {
        assert.ok(d.problem.message.length > 0);
        assert.ok(d.problem.position.line >= 1 && d.problem.position.column >= 1);
      } else {
        const p = d.locate("spec.replicas");
        assert.ok(p.line >= 1);
      }
    }
  }
});
