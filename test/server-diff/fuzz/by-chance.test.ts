import assert from "node:assert/strict";
import { test } from "node:test";
import type { HttpStep, StepResult } from "../runner.js";
import { byChance } from "./by-chance.js";

const req: HttpStep = { method: "POST", path: "/apis/g/v1/namespaces/default/widgets" };

function invalid(causes: { field: string; message: string }[]): StepResult {
  const list = causes.map((c) => `${c.field}: ${c.message}`).join(", ");
  return {
    step: "s",
    status: 422,
    headers: {},
    body: { kind: "Status", reason: "Invalid", message: `Widget.g "w" is invalid: [${list}]`, details: { causes } },
  } as unknown as StepResult;
}

const mode = { field: "spec.mode", message: "Unsupported value: false" };
const modeType = { field: "spec.mode", message: "Invalid value: \"boolean\"" };
const ratio = { field: "spec.ratio", message: "Invalid value: \"array\"" };
const name = { field: "metadata.name", message: "Required value" };
const trailer = { field: "<nil>", message: "Invalid value: null: some validation rules were not checked" };

test("sibling fields' errors compare in any order, each field's own errors in theirs", () => {
  assert.equal(byChance(req, invalid([name, modeType, mode, ratio, trailer])), byChance(req, invalid([name, ratio, modeType, mode, trailer])));
  assert.notEqual(byChance(req, invalid([name, modeType, mode, ratio])), byChance(req, invalid([name, mode, modeType, ratio])));
});

test("metadata errors and the trailer keep their places", () => {
  assert.notEqual(byChance(req, invalid([name, ratio, trailer])), byChance(req, invalid([ratio, name, trailer])));
  assert.notEqual(byChance(req, invalid([name, ratio, trailer])), byChance(req, invalid([name, trailer, ratio])));
});

test("labels' errors compare in any order of their keys", () => {
  const a = { field: "metadata.labels", message: 'Invalid value: "a": x' };
  const b = { field: "metadata.labels", message: 'Invalid value: "b": y' };
  assert.equal(byChance(req, invalid([a, b, ratio])), byChance(req, invalid([b, a, ratio])));
});

test("managedFields entries compare in any order within an operation", () => {
  const entry = (manager: string, operation: string) => ({ manager, operation, apiVersion: "g/v1", time: "<time>" });
  const obj = (mf: unknown[]) => ({ step: "s", status: 200, headers: {}, body: { metadata: { name: "w", managedFields: mf } } }) as unknown as StepResult;
  assert.equal(byChance(req, obj([entry("a", "Update"), entry("b", "Update")])), byChance(req, obj([entry("b", "Update"), entry("a", "Update")])));
  assert.notEqual(byChance(req, obj([entry("a", "Update"), entry("b", "Update")])), byChance(req, obj([entry("a", "Update"), entry("c", "Update")])));
});

test("labels validated twice: the message lists each error once, in any order of the keys", () => {
  const a = { field: "metadata.labels", message: 'Invalid value: "a": x' };
  const b = { field: "metadata.labels", message: 'Invalid value: "b": y' };
  const twice = (causes: { field: string; message: string }[], first: { field: string; message: string }[]) => {
    const r = invalid(causes) as unknown as { body: { message: string } };
    r.body.message = `Widget.g "w" is invalid: [${first.map((c) => `${c.field}: ${c.message}`).join(", ")}]`;
    return r as unknown as StepResult;
  };
  assert.equal(byChance(req, twice([a, b, b, a], [a, b])), byChance(req, twice([b, a, a, b], [b, a])));
});
