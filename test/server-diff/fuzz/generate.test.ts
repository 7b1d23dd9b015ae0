import assert from "node:assert/strict";
import { test } from "node:test";
import { generatePlan } from "./generate.js";
import { firstDifference, pathShape, signature } from "./signature.js";

test("the same seed gives the same requests; another seed others", () => {
  const a = JSON.stringify(generatePlan(7, 200));
  assert.equal(JSON.stringify(generatePlan(7, 200)), a);
  assert.notEqual(JSON.stringify(generatePlan(8, 200)), a);
});

test("a shorter run is a prefix of a longer one (--step N replays the steps before N)", () => {
  const long = generatePlan(3, 60).steps;
  const short = generatePlan(3, 41).steps;
  assert.deepEqual(short, long.slice(0, 41));
  assert.equal(short[40]!.index, 41);
});

test("every step is named after its number, and an update reads the object first", () => {
  for (const s of generatePlan(5, 300).steps) {
    for (const r of s.requests) assert.match(r.name ?? "", new RegExp(`^#${s.index} `));
    const put = s.requests.find((r) => r.method === "PUT");
    if (put) assert.equal(s.requests[0]!.saveAs, `cur${s.index}`);
  }
});

test("signatures mask names and query values", () => {
  assert.equal(pathShape("/apis/fz.example.com/v1/namespaces/default/widgets/w1/status?dryRun=All&limit=2&dryRun=x"), "/apis/fz.example.com/v1/namespaces/default/widgets/{name}/status?dryRun,limit");
  assert.equal(pathShape("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.fz.example.com"), "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/{name}");
  assert.equal(firstDifference({ status: 200, body: { a: [1, 2] } }, { status: 200, body: { a: [1, 3] } }), "body.a[1]");
  assert.equal(firstDifference({ body: { m: "x" }, status: 200 }, { body: { m: "y" }, status: 201 }), "status");
  assert.equal(
    signature(
      { method: "PATCH", path: "/apis/g/v1/widgets/w1?fieldManager=a", contentType: "application/merge-patch+json" },
      { step: "s", status: 422, headers: {}, body: { message: "a", causes: [{ m: 1 }] } },
      { step: "s", status: 422, headers: {}, body: { message: "a", causes: [{ m: 2 }] } },
    ),
    "PATCH /apis/g/v1/widgets/{name}?fieldManager [merge-patch] 422/422 body.causes[].m",
  );
});
