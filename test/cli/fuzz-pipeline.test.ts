/** Mutated custom resources (values of every JSON type in every field) never make the pipeline throw. */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { decodeDocuments } from "../../src/io/decode.js";
import { compileCrd } from "../../src/pipeline/compile.js";
import { Float64, type JsonObject, type JsonValue } from "../../src/value/json-value.js";

const crd = compileCrd(decodeDocuments(readFileSync("examples/crontab-crd.yaml", "utf8"))[0]!.value!);
const VALUES: JsonValue[] = [null, true, 0, -1, 2 ** 40, 9007199254740993n, 1.5, new Float64(2), "", "x", [], [1, "a"], {}, { a: { b: [] } }];
const PATHS = [
  ["metadata"], ["metadata", "name"], ["metadata", "labels"], ["metadata", "finalizers"], ["metadata", "generateName"],
  ["metadata", "creationTimestamp"], ["metadata", "ownerReferences"], ["spec"], ["spec", "replicas"], ["spec", "cronSpec"],
  ["spec", "suspend"], ["status"], ["status", "replicas"], ["status", "labelSelector"], ["kind"], ["apiVersion"],
];

function withValue(path: string[], v: JsonValue): JsonObject {
  const obj: JsonObject = {
    apiVersion: "stable.example.com/v1",
    kind: "CronTab",
    metadata: { name: "x", namespace: "default", resourceVersion: "1" },
    spec: { cronSpec: "* * * * *", replicas: 1 },
  };
  let cur: JsonObject = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const next = cur[path[i]!];
    if (typeof next !== "object" || next === null || Array.isArray(next) || next instanceof Float64) {
      const o: JsonObject = {};
      cur[path[i]!] = o;
      cur = o;
    } else cur = next as JsonObject;
  }
  cur[path[path.length - 1]!] = v;
  return obj;
}

test("every JSON type in every field: create, update and status update never throw", () => {
  let n = 0;
  for (const p of PATHS) {
    for (const v of VALUES) {
      const obj = withValue(p, v);
      if (p[0] === "apiVersion" || p[0] === "kind") {
        // a foreign apiVersion needs the request version
        crd.create(obj, { version: "v1" });
        continue;
      }
      const base = withValue(["spec", "image"], "old");
      for (const r of [crd.create(obj), crd.update(obj, base), crd.updateStatus(obj, base)]) {
        assert.ok(r.object !== undefined);
        n++;
      }
    }
  }
  assert.ok(n > 0);
});
