import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { deleteOptionsFromJson, deleteOptionsFromQuery, validateDeleteOptions } from "./delete-options.js";
import { ApiError } from "./errors.js";
import { watchParams } from "./list-paging.js";
import { isPrettyPrint } from "./http-io.js";
import { goJsonIndent } from "../../go/json.js";

/** The Status an ApiError-throwing call answers: [code, message]. */
function failure(f: () => unknown): [number, string] {
  try {
    f();
  } catch (e) {
    if (e instanceof ApiError) return [e.status.code, e.status.message ?? ""];
    throw e;
  }
  return [0, "no error"];
}

describe("DeleteOptions (as recorded from kube-apiserver 1.37 in test/golden/server/12-deletion.json)", () => {
  const cases: { name: string; f: () => unknown; want: [number, string] }[] = [
    { name: "not JSON", f: () => deleteOptionsFromJson("{not json"), want: [400, "couldn't get version/kind; json parse error: invalid character 'n' looking for beginning of object key string"] },
    { name: "another kind", f: () => deleteOptionsFromJson('{"apiVersion":"v1","kind":"Pod"}'), want: [400, 'no kind "Pod" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"'] },
    { name: "string grace period", f: () => deleteOptionsFromJson('{"gracePeriodSeconds":"30"}'), want: [400, "json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64"] },
    { name: "fractional grace period", f: () => deleteOptionsFromJson('{"gracePeriodSeconds":1.5}'), want: [400, "json: cannot unmarshal number 1.5 into Go struct field DeleteOptions.gracePeriodSeconds of type int64"] },
    // (recorded in test/golden/server/35-fuzz-json.json): the literal as sent, and a number beyond float64 fails only in a field
    { name: "grace period 1.0", f: () => deleteOptionsFromJson('{"gracePeriodSeconds":1.0}'), want: [400, "json: cannot unmarshal number 1.0 into Go struct field DeleteOptions.gracePeriodSeconds of type int64"] },
    { name: "grace period 1e400", f: () => deleteOptionsFromJson('{"gracePeriodSeconds":1e400}'), want: [400, "json: cannot unmarshal number 1e400 into Go struct field DeleteOptions.gracePeriodSeconds of type int64"] },
    { name: "propagationPolicy 1e400", f: () => deleteOptionsFromJson('{"propagationPolicy":1e400}'), want: [400, "json: cannot unmarshal number into Go struct field DeleteOptions.propagationPolicy of type v1.DeletionPropagation"] },
    { name: "an unknown field 1e400 is skipped", f: () => deleteOptionsFromJson('{"x":1e400,"propagationPolicy":"x"}') && validateDeleteOptions(deleteOptionsFromJson('{"x":1e400,"propagationPolicy":"x"}')), want: [422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "x": supported values: "Foreground", "Background", "Orphan", "nil"'] },
    {
      name: "an array",
      f: () => deleteOptionsFromJson("[]"),
      want: [400, 'couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }'],
    },
    // (test/golden/server/29-fuzz-findings.json)
    { name: "number apiVersion", f: () => deleteOptionsFromJson('{"kind":"DeleteOptions","apiVersion":1,"gracePeriodSeconds":"x"}'), want: [400, "couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .apiVersion of type string"] },
    { name: "list kind after a number apiVersion", f: () => deleteOptionsFromJson('{"kind":[],"apiVersion":1}'), want: [400, "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go struct field .kind of type string"] },
    { name: "number uid", f: () => deleteOptionsFromJson('{"preconditions":{"uid":5}}'), want: [400, "json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID"] },
    { name: "malformed query grace period", f: () => deleteOptionsFromQuery(new URLSearchParams("gracePeriodSeconds=soon")), want: [400, 'strconv.ParseInt: parsing "soon": invalid syntax'] },
    {
      name: "unknown propagation policy",
      f: () => validateDeleteOptions(deleteOptionsFromQuery(new URLSearchParams("propagationPolicy=Sideways"))),
      want: [422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"'],
    },
    {
      name: "orphanDependents with a policy",
      f: () => validateDeleteOptions(deleteOptionsFromJson('{"orphanDependents":true,"propagationPolicy":"Background"}')),
      want: [422, 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set'],
    },
    {
      name: "unknown dryRun",
      f: () => validateDeleteOptions(deleteOptionsFromQuery(new URLSearchParams("dryRun=Some"))),
      want: [422, 'DeleteOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Some"]: supported values: "All"'],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(failure(c.f), c.want));

  it("reads any apiVersion of DeleteOptions and the query's lenient booleans", () => {
    assert.deepEqual(deleteOptionsFromJson('{"apiVersion":"apps/v1","kind":"DeleteOptions","dryRun":["All"],"orphanDependents":false}'), { dryRun: ["All"], orphanDependents: false, preconditions: {} });
    assert.deepEqual(deleteOptionsFromQuery(new URLSearchParams("orphanDependents=FALSE&gracePeriodSeconds=%2B5")), { dryRun: [], orphanDependents: false, gracePeriodSeconds: 5, preconditions: {} });
    assert.deepEqual(deleteOptionsFromQuery(new URLSearchParams("orphanDependents=maybe")).orphanDependents, true);
    assert.deepEqual(deleteOptionsFromQuery(new URLSearchParams("orphanDependents=F")).orphanDependents, true);
  });

  it("reads the query's first non-empty uid and resourceVersion as preconditions", () => {
    assert.deepEqual(deleteOptionsFromQuery(new URLSearchParams("resourceVersion=7&resourceVersion=8&uid=u1")).preconditions, { uid: "u1", resourceVersion: "7" });
    assert.deepEqual(deleteOptionsFromQuery(new URLSearchParams("resourceVersion=&uid=&resourceVersionMatch=NotOlderThan")).preconditions, {});
  });
});

describe("watch options (WatchList on)", () => {
  it("defaults a watch from \"\" or \"0\" to sendInitialEvents=true, and not one from a resourceVersion", () => {
    assert.equal(watchParams(new URLSearchParams("")).sendInitialEvents, true);
    assert.equal(watchParams(new URLSearchParams("resourceVersion=0&allowWatchBookmarks=maybe")).sendInitialEvents, true);
    assert.equal(watchParams(new URLSearchParams("resourceVersion=0&allowWatchBookmarks=maybe")).allowWatchBookmarks, true);
    assert.equal(watchParams(new URLSearchParams("resourceVersion=5")).sendInitialEvents, undefined);
    assert.equal(watchParams(new URLSearchParams("sendInitialEvents=false&resourceVersionMatch=NotOlderThan")).sendInitialEvents, false);
    assert.equal(watchParams(new URLSearchParams("sendInitialEvents=yes&resourceVersionMatch=NotOlderThan")).sendInitialEvents, true);
  });
  it("refuses what validateWatchOptions refuses", () => {
    assert.deepEqual(failure(() => watchParams(new URLSearchParams("sendInitialEvents=true"))), [
      422,
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
    ]);
    assert.deepEqual(failure(() => watchParams(new URLSearchParams("timeoutSeconds=soon"))), [400, 'strconv.ParseInt: parsing "soon": invalid syntax']);
  });
});

describe("pretty output", () => {
  it("follows ?pretty= (strconv.ParseBool) and else the user agent", () => {
    assert.equal(isPrettyPrint("pretty=true", undefined), true);
    assert.equal(isPrettyPrint("pretty=1", "kubectl/v1.32"), true);
    assert.equal(isPrettyPrint("pretty=false", "curl/8.0"), false);
    assert.equal(isPrettyPrint("pretty=yes", undefined), false);
    assert.equal(isPrettyPrint("", "curl/8.0"), true);
    assert.equal(isPrettyPrint("", "Mozilla/5.0 (X11)"), true);
    assert.equal(isPrettyPrint("", "kubectl/v1.32"), false);
    // the query as url.ParseQuery reads it: a pair with ";" or a bad escape is dropped, escapes are decoded
    assert.equal(isPrettyPrint("pretty=true;x=1", "curl/8.0"), true);
    assert.equal(isPrettyPrint("pretty=true;x=1", undefined), false);
    assert.equal(isPrettyPrint("pretty=%zz", "curl/8.0"), true);
    assert.equal(isPrettyPrint("pretty=%74rue", undefined), true);
    assert.equal(isPrettyPrint("pretty=", "curl/8.0"), true);
  });
  it("indents as json.MarshalIndent (empty objects and arrays stay closed, strings untouched)", () => {
    assert.equal(goJsonIndent('{"a":{},"b":[],"c":[1,{"d":"x\\"y,:{"}]}'), '{\n  "a": {},\n  "b": [],\n  "c": [\n    1,\n    {\n      "d": "x\\"y,:{"\n    }\n  ]\n}');
  });
});
