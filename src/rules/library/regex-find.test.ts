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

/** Evaluates `expr` on `self`: its value, or `error: <text>` / `compile: <text>`. */
function evalOn(expr: string, self: string): unknown {
  const r = compileNodeRules(SCHEMA, [{ rule: expr }], schemaDeclType(SCHEMA, false));
  if (!Array.isArray(r)) return `internal: ${r.internalError}`;
  const c = r[0];
  if (!c || c.error) return `compile: ${c?.error?.detail}`;
  const v = c.program?.eval({ self }).value;
  return v instanceof CelError ? `error: ${v.message}` : v;
}

/** The substrings of `s` at Go's UTF-8 byte offsets. */
function atByteOffsets(s: string, spans: readonly [number, number][]): string[] {
  const b = Buffer.from(s, "utf8");
  return spans.map(([x, y]) => b.subarray(x, y).toString("utf8"));
}

describe("CEL find/findAll on hostile subjects (Go's answers)", () => {
  const withFinds = hostile.filter((h) => h.goFind !== undefined);
  it("the fixture has Go's FindAllStringIndex answers", () => assert.ok(withFinds.length >= 8, `${withFinds.length} cases`));
  for (const h of withFinds) {
    it(`${h.pattern.slice(0, 40)} on ${JSON.stringify(h.subject.unit)}×${h.subject.times}+${JSON.stringify(h.subject.suffix)}`, () => {
      const s = hostileSubject(h.subject);
      const want = atByteOffsets(s, h.goFind ?? []);
      const findAll = evalOn(`self.findAll(r'${h.pattern}')`, s) as string[];
      assert.ok(Array.isArray(findAll), String(findAll));
      assert.deepEqual(
        findAll.map((x) => x.length),
        want.map((x) => x.length),
      );
      assert.ok(
        findAll.every((x, i) => x === want[i]),
        "the same substrings",
      );
      assert.deepEqual(evalOn(`self.findAll(r'${h.pattern}', 1)`, s), want.slice(0, 1));
      const first = evalOn(`self.find(r'${h.pattern}')`, s);
      assert.ok(first === (want[0] ?? ""));
    });
  }
});
