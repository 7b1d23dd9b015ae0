/**
 * CEL `find` / `findAll` (Kubernetes' regex library) on large hostile subjects: Go's
 * `FindAllStringIndex` answers recorded in test/go-regexp/hostile-answers.json (`npm run golden:regexp --
 * --hostile`), reached through a compiled rule as a validation would, with the rule's runtime cost.
 */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { type HostileCase, hostileSubject } from "../../../test/go-regexp/hostile.js";
import { CelError } from "../../cel/index.js";
import { compileNodeRules } from "../compile.js";
import { schemaDeclType } from "../decl-type.js";
import { structural } from "../test-helpers.test-util.js";

const hostile = JSON.parse(readFileSync(new URL("../../../test/go-regexp/hostile-answers.json", import.meta.url), "utf8")) as (HostileCase & {
  go: boolean | string;
  goFind?: [number, number][];
})[];

const SCHEMA = structural({ type: "string" });

/** Evaluates the rule `expr` on `self`: its value, or `error: <text>` / `compile: <text>`. */
function evalOn(expr: string, self: string): unknown {
  const r = compileNodeRules(SCHEMA, [{ rule: expr }], schemaDeclType(SCHEMA, false));
  if (!Array.isArray(r)) return `internal: ${r.internalError}`;
  const c = r[0];
  if (!c || c.error) return `compile: ${c?.error?.detail}`;
  const v = c.program?.eval({ self }).value;
  return v instanceof CelError ? `error: ${v.message}` : v;
}

/** Go's UTF-8 byte offset `at` of `s` as a code point index (what CEL's `substring` counts). */
function codePointIndex(s: string, at: number): number {
  return [...Buffer.from(s, "utf8").subarray(0, at).toString("utf8")].length;
}

describe("CEL find/findAll on hostile subjects (Go's answers)", () => {
  const withFinds = hostile.filter((h) => h.goFind !== undefined);
  it("the fixture has Go's FindAllStringIndex answers", () => assert.ok(withFinds.length >= 8, `${withFinds.length} cases`));
  for (const h of withFinds) {
    it(`${h.pattern.slice(0, 40)} on ${JSON.stringify(h.subject.unit)}×${h.subject.times}+${JSON.stringify(h.subject.suffix)}`, () => {
      const s = hostileSubject(h.subject);
      const spans = (h.goFind ?? []).map(([x, y]) => `self.substring(${codePointIndex(s, x)}, ${codePointIndex(s, y)})`);
      const p = `r'${h.pattern}'`;
      assert.equal(evalOn(`self.findAll(${p}) == [${spans.join(", ")}]`, s), true);
      assert.equal(evalOn(`self.findAll(${p}, 1) == [${spans.slice(0, 1).join(", ")}]`, s), true);
      assert.equal(evalOn(`self.find(${p}) == ${spans[0] ?? "''"}`, s), true);
    });
  }
});
