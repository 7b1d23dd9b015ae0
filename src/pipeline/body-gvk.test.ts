import assert from "node:assert/strict";
import { test } from "node:test";
import { bodyGvk } from "./body-gvk.js";

test("bodyGvk: the body's apiVersion and kind, the request's filling in (gvkWithDefaults)", () => {
  const d = { group: "fj.example.com", version: "v1", kind: "Json" };
  const cases: [Record<string, unknown>, ReturnType<typeof bodyGvk>][] = [
    [{ apiVersion: "fj.example.com/v1", kind: "json" }, { group: "fj.example.com", version: "v1", kind: "json" }],
    [{ apiVersion: "fj.example.com/v2", kind: "Json" }, { group: "fj.example.com", version: "v2", kind: "Json" }],
    [{ apiVersion: "v1", kind: "v1" }, { group: "", version: "v1", kind: "v1" }],
    [{}, d],
    [{ apiVersion: 1, kind: "" }, d],
    [{ apiVersion: "fj.example.com/" }, d],
    [{ apiVersion: "other.example.com/" }, { group: "other.example.com", version: "", kind: "Json" }],
    [{ apiVersion: "a/b/c" }, undefined],
  ];
  for (const [obj, want] of cases) assert.deepEqual(bodyGvk(obj, d), want, JSON.stringify(obj));
});
