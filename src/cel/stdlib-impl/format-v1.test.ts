import * as assert from "node:assert/strict";
import { test } from "node:test";
import { plan } from "../interpreter/planner.js";
import { parse } from "../parser/parser.js";
import { CelError } from "../values/values.js";
import { standardFunctions } from "./index.js";
import golden from "./testdata/format-v1-cel-go.json" with { type: "json" };

// Expected results recorded from cel-go v0.29.2 with ext.Strings(StringsVersion(2)) (Kubernetes'
// configuration): the first formatter, with en_US grouping, ×10ⁿ scientific notation and quirks.
const functions = standardFunctions({ stringsVersion: 2 });

for (const [expr, want] of golden as [string, { value?: string; error?: string }][]) {
  test(`format v1: ${expr}`, () => {
    const r = parse(expr);
    assert.ok(r.ast, r.errorText);
    const v = plan(r.ast, { functions }).eval({}).value;
    if (want.error !== undefined) {
      assert.ok(v instanceof CelError, `want error, got ${String(v)}`);
      assert.equal(v.message, want.error);
    } else assert.equal(v, want.value);
  });
}

test("format: the latest strings version uses the spec-conformant formatter", () => {
  const v = plan(parse("'%.2e'.format([1234.5])").ast!, { functions: standardFunctions() }).eval({}).value;
  assert.equal(v, "1.23e+03");
});
