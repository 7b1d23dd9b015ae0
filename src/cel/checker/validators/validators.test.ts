// cel-go's extended validations (cel/validator_test.go cases, as data): literal duration,
// timestamp and regex arguments, and homogeneous aggregate literals.
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Env, isCompileFailure } from "../../env.js";

interface Case {
  expr: string;
  error?: string;
}

const cases = JSON.parse(readFileSync(new URL("./testdata-validators.json", import.meta.url), "utf8")) as Case[];
const env = new Env({ variables: { s: "string", i: "int", name: "string" }, extendedValidations: true });

for (const c of cases) {
  test(`validators: ${c.expr}`, () => {
    const r = env.compile(c.expr);
    if (c.error === undefined) {
      if (isCompileFailure(r)) assert.fail(r.issues);
      return;
    }
    assert.ok(isCompileFailure(r), "expected an error");
    assert.equal(r.issues, c.error);
  });
}

test("validators: off by default", () => {
  assert.ok(!isCompileFailure(new Env().compile("[1, 'a'] == [] && duration('1d') == duration('1h')")));
});
