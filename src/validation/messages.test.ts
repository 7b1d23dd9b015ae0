/** kube-openapi errors/schema_test.go message texts (the `in body` variants used for custom resources). */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { Code, compositeMessages, verr } from "./messages.js";

describe("errors/schema.go texts", () => {
  const cases: [string, string][] = [
    [verr.invalidType("confirmed", "boolean", "hello").message, `confirmed in body must be of type boolean: "hello"`],
    [verr.duplicateItems("uniques").message, "uniques in body shouldn't contain duplicates"],
    [verr.tooManyItems("something", 5, 6).message, "something in body should have at most 5 items"],
    [verr.tooFewItems("something", 5, 4).message, "something in body should have at least 5 items"],
    [verr.exceedsMaximum("something", { kind: "int", v: 5 }, false, { kind: "int", v: 6 }).message, "something in body should be less than or equal to 5"],
    [verr.exceedsMaximum("something", { kind: "float", v: 5 }, true, { kind: "float", v: 6 }).message, "something in body should be less than 5"],
    [verr.exceedsMinimum("something", { kind: "int", v: 5 }, false, { kind: "int", v: 4 }).message, "something in body should be greater than or equal to 5"],
    [verr.exceedsMinimum("something", { kind: "float", v: 5 }, true, { kind: "float", v: 4 }).message, "something in body should be greater than 5"],
    [verr.exceedsMaximum("something", { kind: "float", v: 1e6 }, false, { kind: "float", v: 2e6 }).message, "something in body should be less than or equal to 1e+06"],
    [verr.notMultipleOf("something", { kind: "int", v: 5 }, { kind: "int", v: 7 }).message, "something in body should be a multiple of 5"],
    [verr.notMultipleOf("something", { kind: "float", v: 0.5 }, { kind: "float", v: 0.7 }).message, "something in body should be a multiple of 0.5"],
    [verr.enumFail("something", "yada", ["hello", "world"]).message, "something in body should be one of [hello world]"],
    [verr.enumFail("something", 3, [1, 2.5, null, true, { b: 1, a: [1, "x"] }]).message, "something in body should be one of [1 2.5 <nil> true map[a:[1 x] b:1]]"],
    [verr.required("something").message, "something in body is required"],
    [verr.tooLong("something", 5, "abcdef").message, "something in body should be at most 5 chars long"],
    [verr.tooShort("something", 5, "a").message, "something in body should be at least 5 chars long"],
    [verr.failedPattern("something", String.raw`\d+`, "a").message, String.raw`something in body should match '\d+'`],
    [verr.multipleOfMustBePositive("path", { kind: "float", v: -10 }).message, "factor MultipleOf declared for path must be positive: -10"],
    [verr.multipleOfMustBePositive("path", { kind: "int", v: -10 }).message, "factor MultipleOf declared for path must be positive: -10"],
    [verr.propertyNotAllowed("path", "key").message, "path.key in body is a forbidden property"],
    [verr.tooManyProperties("path", 10, 20).message, "path in body should have at most 10 properties"],
    [verr.tooFewProperties("path", 10, 1).message, "path in body should have at least 10 properties"],
    [compositeMessages.anyOf("spec.x"), `"spec.x" must validate at least one schema (anyOf)`],
    [compositeMessages.oneOf("spec.x", "Found none valid"), `"spec.x" must validate one and only one schema (oneOf). Found none valid`],
    [compositeMessages.allOf("spec.x", ". None validated"), `"spec.x" must validate all the schemas (allOf). None validated`],
    [compositeMessages.not("spec.x"), `"spec.x" must not validate the schema (not)`],
    [compositeMessages.dependency("spec.x", "bar"), `"spec.x" has a dependency on bar`],
  ];
  for (const [got, want] of cases) it(want, () => assert.equal(got, want));
  it("codes and values", () => {
    const e = verr.tooLong("s", 5, "abcdef");
    assert.equal(e.code, Code.TooLong);
    assert.equal(e.value, "abcdef");
    assert.equal(e.valid, 5);
    assert.equal(verr.plain("x").validation, false);
  });
});
