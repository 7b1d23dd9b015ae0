/** The playground verdict without a browser: messages, positions, status, stored object, rule traces, CEL. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { EXAMPLES } from "../../web/src/examples.js";
import { analyze } from "./analyze.js";

const CRD = readFileSync(new URL("../../examples/crontab-crd.yaml", import.meta.url), "utf8");
const example = (id: string) => EXAMPLES.find((e) => e.id === id)!;
const texts = (r: ReturnType<typeof analyze>) => r.diagnostics.map((d) => `${d.pane} ${d.line}:${d.column} ${d.message}`);

describe("analyze", () => {
  it("the CronTab example: 422 with Kubernetes' messages at their lines, the object after defaulting", () => {
    const e = example("crontab");
    const r = analyze({ crd: e.crd, object: e.object, expression: "self.spec.replicas" });
    assert.equal(r.crd.ok, true);
    assert.equal(r.request?.status, 422);
    assert.deepEqual(texts(r), [
      "object 6:13 spec.cronSpec: Invalid value: \"every minute\": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'",
      "object 8:13 spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10",
    ]);
    const x = r.expression;
    assert.ok(x?.ok);
    assert.deepEqual([x.value, x.type], ["15", "int"]);
  });

  it("create: defaults, pruning in Warn mode, 201", () => {
    const obj = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {image: x, extra: 1}\n";
    const r = analyze({ crd: CRD, object: obj, fieldValidation: "Warn" });
    assert.equal(r.request?.status, 201);
    assert.deepEqual(r.request?.warnings, ['unknown field "spec.extra"']);
    assert.deepEqual(texts(r), ['object 4:25 unknown field "spec.extra"']);
    assert.equal(r.diagnostics[0]?.severity, "warning");
    assert.deepEqual(r.request?.stored?.["spec"], { cronSpec: "5 0 * * *", image: "x", replicas: 1, timeZone: "Etc/UTC" });
  });

  it("transition rules on update, with each rule's cost", () => {
    const e = example("transition");
    const r = analyze({ crd: e.crd, object: e.object, oldObject: e.old, expression: e.expression });
    assert.equal(r.request?.operation, "update");
    assert.equal(e.expression, "self.spec.replicas - oldSelf.spec.replicas");
    assert.ok(r.expression?.ok);
    assert.equal(r.expression.value, "-1");
    assert.deepEqual(texts(r), [
      "object 7:3 spec: Invalid value: replicas cannot be scaled down",
      'object 7:11 spec.engine: Invalid value: "mysql": engine is immutable',
    ]);
    assert.deepEqual(r.rules, [
      { path: "spec", rule: "self.replicas >= oldSelf.replicas", outcome: false, cost: 5, estimatedMaxCost: 5 },
      { path: "spec.engine", rule: "self == oldSelf", outcome: false, cost: 3, estimatedMaxCost: 314575 },
    ]);
  });

  it("ratcheting: an unchanged invalid value passes, a changed one does not", () => {
    const e = example("ratcheting");
    const r = analyze({ crd: e.crd, object: e.object, oldObject: e.old });
    assert.deepEqual(texts(r), ["object 8:9 spec.port: Invalid value: 8080: spec.port in body should be less than or equal to 1024"]);
    const created = analyze({ crd: e.crd, object: e.object });
    assert.equal(created.request?.errors.length, 2);
  });

  it("a CRD over the CEL cost limit: the CRD errors at the rule's line", () => {
    const e = example("cost");
    const r = analyze({ crd: e.crd, object: e.object });
    assert.equal(r.crd.ok, false);
    assert.equal(r.request, undefined);
    assert.deepEqual(
      r.crd.errors.map((d) => d.line),
      [26, 26, 15],
    );
    assert.match(r.crd.errors[0]!.message, /Forbidden: estimated rule cost exceeds budget by factor of more than 100x/);
  });

  it("bad input: syntax errors, other kinds, non-objects", () => {
    const syntax = analyze({ crd: "a: [", object: "" });
    assert.equal(syntax.crd.ok, false);
    assert.deepEqual(syntax.diagnostics.map((d) => [d.pane, d.line]), [["crd", 1]]);
    assert.equal(syntax.diagnostics[0]!.message, "yaml: line 1: did not find expected node content"); // the oracle's text
    const other = analyze({ crd: CRD, object: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n" });
    assert.equal(other.request?.status, 404);
    assert.deepEqual(texts(other), ['object 1:1 no matches for kind "ConfigMap" in version "v1"']);
    const list = analyze({ crd: CRD, object: "- a\n" });
    assert.deepEqual(texts(list), ["object 1:1 json: cannot unmarshal array into Go value of type map[string]interface {}"]);
    assert.deepEqual(texts(analyze({ crd: CRD, object: "yes\n" })), ["object 1:1 json: cannot unmarshal bool into Go value of type map[string]interface {}"]);
    const badOld = analyze({ crd: CRD, object: "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\n", oldObject: "a: {" });
    assert.equal(badOld.diagnostics[0]?.pane, "old");
  });

  it("evaluates CEL expressions: values, compile errors, runtime errors", () => {
    const obj = "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: a}\nspec: {image: x}\n";
    const ev = (expression: string) => analyze({ crd: CRD, object: obj, expression }).expression;
    const list = ev("[self.spec.image, self.metadata.name]");
    assert.ok(list?.ok);
    assert.deepEqual([list.value, list.type], ['["x", "a"]', "list(string)"]);
    assert.ok(list.cost > 0 && list.cost <= list.estimatedMaxCost);
    assert.deepEqual(ev("self.spec.nope"), {
      ok: false,
      stage: "compile",
      error: "compilation failed: ERROR: <input>:1:10: undefined field 'nope'\n | self.spec.nope\n | .........^",
    });
    const div = ev("self.spec.replicas / 0");
    assert.ok(div !== undefined && !div.ok);
    assert.deepEqual([div.stage, div.error], ["eval", "division by zero"]);
  });
});
