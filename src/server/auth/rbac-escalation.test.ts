import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compactString, MAX_ESCALATION_ATOMS, TooManyAtomsError, uncovered } from "./rbac-escalation.js";
import type { PolicyRule } from "./rbac-rules.js";

const rule = (r: Partial<PolicyRule>): PolicyRule => ({ verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...r });

describe("escalation checks (Covers)", () => {
  const owner = [rule({ verbs: ["get", "list"], apiGroups: ["g"], resources: ["a", "b"] }), rule({ verbs: ["get"], nonResourceURLs: ["/x/*"] })];
  it("covered rules leave nothing; missing atoms are listed", () => {
    assert.deepEqual(uncovered(owner, [rule({ verbs: ["get"], apiGroups: ["g"], resources: ["a"] }), rule({ verbs: ["get"], nonResourceURLs: ["/x/y"] })]), []);
    assert.deepEqual(
      uncovered(owner, [rule({ verbs: ["get", "delete"], apiGroups: ["g"], resources: ["a"] })]).map(compactString),
      ['{APIGroups:["g"], Resources:["a"], Verbs:["delete"]}'],
    );
    // resourceNames: an owner with names does not cover a rule without them.
    const named = [rule({ verbs: ["get"], apiGroups: ["g"], resources: ["a"], resourceNames: ["n"] })];
    assert.deepEqual(uncovered(named, [rule({ verbs: ["get"], apiGroups: ["g"], resources: ["a"] })]).length, 1);
    assert.deepEqual(uncovered(named, [rule({ verbs: ["get"], apiGroups: ["g"], resources: ["a"], resourceNames: ["n"] })]), []);
  });
  it("a rule expanding beyond the atom limit is refused instead of being enumerated", () => {
    const many = (p: string, n: number) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    const huge = rule({ verbs: many("v", 100), apiGroups: many("g", 100), resources: many("r", 100), resourceNames: many("n", 1) });
    assert.ok(100 * 100 * 100 > MAX_ESCALATION_ATOMS);
    assert.throws(() => uncovered(owner, [huge]), TooManyAtomsError);
    // …unless one owner rule covers it whole.
    assert.deepEqual(uncovered([rule({ verbs: ["*"], apiGroups: ["*"], resources: ["*"] })], [huge]), []);
  });
});
