// Type-checker cases (types and exact cel-go error texts), as data in testdata/check-cases.json.
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { Env, formatType, isCompileFailure } from "../env.js";

interface Case {
  name: string;
  expr: string;
  vars?: Record<string, string>;
  type?: string;
  error?: string;
}

const cases = JSON.parse(readFileSync(new URL("./testdata/check-cases.json", import.meta.url), "utf8")) as Case[];

function envFor(vars: Record<string, string> | undefined): Env {
  return new Env({
    variables: vars ?? {},
    objectTypes: {
      Spec: { replicas: "int", name: "string", items: "list(Item)" },
      Item: { name: "string", port: "int" },
    },
    opaqueTypes: ["kubernetes.Quantity"],
    functions: [
      {
        name: "isLessThan",
        overloads: [
          { id: "quantity_is_less_than", member: true, args: ["kubernetes.Quantity", "kubernetes.Quantity"], result: "bool" },
        ],
      },
      { name: "isSorted", overloads: [{ id: "list_is_sorted", member: true, args: ["list(A)"], result: "bool" }] },
    ],
  });
}

for (const c of cases) {
  test(`check: ${c.name}: ${c.expr}`, () => {
    const r = envFor(c.vars).compile(c.expr);
    if (c.error !== undefined) {
      assert.ok(isCompileFailure(r), `expected an error, got ${isCompileFailure(r) ? "" : formatType(r.outputType)}`);
      assert.equal(r.issues, c.error);
    } else {
      if (isCompileFailure(r)) assert.fail(r.issues);
      else assert.equal(formatType(r.outputType), c.type);
    }
  });
}

test("check: references carry cel-go overload ids and resolved names", () => {
  const env = envFor({ s: "string", a: "list(int)" });
  const r = env.compile("s.size() + size(s) > 0 && sets.intersects(a, [1])");
  if (isCompileFailure(r)) assert.fail(r.issues);
  const refs = [...r.checked.references.values()].filter((x) => x.overloadIds !== undefined);
  assert.deepEqual(
    refs.map((x) => `${x.name}:${(x.overloadIds ?? []).join(",")}`).sort(),
    [
      "_&&_:logical_and",
      "_+_:add_int64",
      "_>_:greater_int64",
      "sets.intersects:list_sets_intersects_list",
      "size:size_string",
      "size:string_size",
    ],
  );
});

test("check: referenceArray lists referenceOf and the references map by node id", () => {
  const env = envFor({ s: "string", a: "list(int)" });
  const r = env.compile("s.size() + size(s) > 0 && a.exists(x, x == 1) && sets.contains(a, [1])");
  if (isCompileFailure(r)) assert.fail(r.issues);
  const arr = r.checked.referenceArray();
  const map = r.checked.references;
  assert.equal(map.size, 19);
  assert.equal(arr.filter((x) => x !== undefined).length, map.size);
  for (let id = 0; id < arr.length; id++) assert.equal(arr[id], r.checked.referenceOf(id));
  for (const [id, ref] of map) assert.equal(arr[id], ref);
});

test("check: malformed declarations are rejected clearly", () => {
  assert.throws(() => new Env({ variables: { x: "list(" } }), /invalid type/);
  assert.throws(() => new Env({ variables: { x: "map(int)" } }), /takes 2 parameter/);
  assert.throws(() => new Env({ variables: { x: "Nope" } }), /unknown type "Nope"/);
});
