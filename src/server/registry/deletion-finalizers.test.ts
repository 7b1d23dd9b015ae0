import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deletionFinalizers, type PropagationOptions } from "./deletion-finalizers.js";

describe("deletionFinalizers (the registry store's GC finalizers of a DELETE)", () => {
  const cases: [string, string[], PropagationOptions, { changed: boolean; finalizers: string[] }][] = [
    ["no options, no finalizers: background", [], {}, { changed: false, finalizers: [] }],
    ["Background", ["a"], { propagationPolicy: "Background" }, { changed: false, finalizers: ["a"] }],
    ["Foreground appends foregroundDeletion", ["a"], { propagationPolicy: "Foreground" }, { changed: true, finalizers: ["a", "foregroundDeletion"] }],
    ["Orphan appends orphan", [], { propagationPolicy: "Orphan" }, { changed: true, finalizers: ["orphan"] }],
    ["orphanDependents true", [], { orphanDependents: true }, { changed: true, finalizers: ["orphan"] }],
    ["orphanDependents false removes orphan", ["orphan", "a"], { orphanDependents: false }, { changed: true, finalizers: ["a"] }],
    ["Orphan replaces foregroundDeletion (kept first: other finalizers, then the GC one)", ["foregroundDeletion", "a"], { propagationPolicy: "Orphan" }, { changed: true, finalizers: ["a", "orphan"] }],
    ["Background removes both", ["orphan", "a", "foregroundDeletion"], { propagationPolicy: "Background" }, { changed: true, finalizers: ["a"] }],
    ["no options keep an existing orphan", ["orphan"], {}, { changed: false, finalizers: ["orphan"] }],
    ["no options keep an existing foregroundDeletion", ["x", "foregroundDeletion"], {}, { changed: false, finalizers: ["x", "foregroundDeletion"] }],
    ["the same set in another order is unchanged", ["foregroundDeletion", "a"], { propagationPolicy: "Foreground" }, { changed: false, finalizers: ["foregroundDeletion", "a"] }],
  ];
  for (const [name, fins, opts, want] of cases) {
    it(name, () => assert.deepEqual(deletionFinalizers(fins, opts), want));
  }
});
