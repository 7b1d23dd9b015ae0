import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError } from "./errors.js";
import { acceptable, checkRestfulRoute, errorsIndented, errorsProtobuf, negotiatedOutput } from "./accept.js";

test("negotiatedOutput: the first acceptable clause in goautoneg's order, with its conversion", () => {
  assert.deepEqual(negotiatedOutput(undefined), { subType: "json" });
  // kubectl get
  assert.deepEqual(negotiatedOutput("application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"), {
    subType: "json",
    convert: { kind: "Table", apiVersion: "meta.k8s.io/v1" },
  });
  // a Table version the server does not have is skipped for the next clause
  assert.deepEqual(negotiatedOutput("application/json;as=Table;v=v2;g=meta.k8s.io, application/json"), { subType: "json" });
  assert.deepEqual(negotiatedOutput("application/yaml;as=Table;v=v1;g=meta.k8s.io"), { subType: "yaml", convert: { kind: "Table", apiVersion: "meta.k8s.io/v1" } });
  // metadata informers
  assert.deepEqual(negotiatedOutput("application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"), {
    subType: "vnd.kubernetes.protobuf",
    convert: { kind: "PartialObjectMetadataList", apiVersion: "meta.k8s.io/v1" },
  });
  // quality first
  assert.deepEqual(negotiatedOutput("application/json;as=Table;v=v1;g=meta.k8s.io;q=0.5, application/yaml"), { subType: "yaml" });
  assert.equal(negotiatedOutput("text/html"), undefined);
});

test("errorsIndented: no clause can carry a Status without a conversion", () => {
  assert.equal(errorsIndented(undefined), false);
  assert.equal(errorsIndented("application/json"), false);
  assert.equal(errorsIndented("application/json;as=Table;v=v1;g=meta.k8s.io"), true);
  assert.equal(errorsIndented("application/json;as=Table;v=v1;g=meta.k8s.io, application/json"), false);
  assert.equal(errorsIndented("application/vnd.kubernetes.protobuf"), false);
  assert.equal(errorsIndented("text/plain"), true);
});

test("errorsProtobuf: the first clause that can carry a Status is protobuf", () => {
  assert.equal(errorsProtobuf(undefined), false);
  assert.equal(errorsProtobuf("application/vnd.kubernetes.protobuf"), true);
  assert.equal(errorsProtobuf("application/vnd.kubernetes.protobuf, application/json"), true);
  assert.equal(errorsProtobuf("application/json, application/vnd.kubernetes.protobuf"), false);
  assert.equal(errorsProtobuf("text/plain, application/vnd.kubernetes.protobuf"), true);
  // a conversion cannot carry a Status; a range picks JSON, but goautoneg orders types before ranges
  assert.equal(errorsProtobuf("application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json"), false);
  assert.equal(errorsProtobuf("application/*"), false);
  assert.equal(errorsProtobuf("application/*, application/vnd.kubernetes.protobuf"), true);
});

test("acceptable: a built-in kind's handler also offers protobuf", () => {
  assert.equal(acceptable("application/vnd.kubernetes.protobuf"), false);
  assert.equal(acceptable("application/vnd.kubernetes.protobuf", true), true);
  assert.equal(acceptable("text/plain", true), false);
});

/** The status and text of go-restful's refusal, or "routed". */
function restful(method: string, list: boolean, contentType: string | undefined, accept: string | undefined): string {
  try {
    checkRestfulRoute(method, list, contentType, accept, ["application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml"]);
    return "routed";
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    assert.deepEqual(e.status.details, {});
    return `${e.status.code} ${e.status.reason}: ${e.status.message}`;
  }
}

test("checkRestfulRoute: go-restful's 415 and 406 for a built-in group's routes", () => {
  const types = "application/json, application/yaml, application/vnd.kubernetes.protobuf";
  const cases: [string, boolean, string | undefined, string | undefined, string][] = [
    ["GET", false, undefined, undefined, "routed"],
    ["GET", false, undefined, "application/json;as=Table;v=v1;g=meta.k8s.io", "routed"],
    ["GET", false, undefined, "text/plain, */*;q=0.1", "routed"],
    ["GET", false, undefined, " application/vnd.kubernetes.protobuf ", "routed"],
    // media ranges are compared exactly: application/* is no media type a route produces
    ["POST", false, "application/json", "application/*", `406 NotAcceptable: 406: Not Acceptable\n\nAvailable representations: ${types}`],
    ["GET", true, undefined, "garbage", `406 NotAcceptable: 406: Not Acceptable\n\nAvailable representations: ${types}, application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch`],
    // a patch's Content-Type first: exactly one of the patch types (any of a list), none is octet-stream
    ["PATCH", false, "application/json", "garbage", "415 UnsupportedMediaType: 415: Unsupported Media Type"],
    ["PATCH", false, undefined, undefined, "415 UnsupportedMediaType: 415: Unsupported Media Type"],
    ["PATCH", false, "text/plain,application/merge-patch+json; charset=utf-8", undefined, "routed"],
    ["POST", false, "text/plain", undefined, "routed"],
  ];
  for (const [method, list, ct, accept, want] of cases) assert.equal(restful(method, list, ct, accept), want, `${method} ${ct} ${accept}`);
});
