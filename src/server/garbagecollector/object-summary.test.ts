import assert from "node:assert/strict";
import { test } from "node:test";
import { mayMatter } from "./object-summary.js";

test("mayMatter: a stored value with owner references or a GC finalizer's quoted name, and no other", () => {
  const cases: [string, boolean][] = [
    ['{"metadata":{"name":"a"},"spec":{}}', false],
    ['{"metadata":{"ownerReferences":[{"uid":"u"}]}}', true],
    ['{"metadata":{"finalizers":["foregroundDeletion"]}}', true],
    ['{"metadata":{"finalizers":["orphan"]}}', true],
    ['{"metadata":{"finalizers":["orphans"]},"spec":{"ownerReference":1,"x":"foregroundDeletion-not"}}', false],
    ['{"spec":{"note":"orphan"}}', true],
    ["", false],
  ];
  for (const [text, want] of cases) assert.equal(mayMatter(text), want, text);
});
