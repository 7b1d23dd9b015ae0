import assert from "node:assert/strict";
import { test } from "node:test";
import { errorsIndented, negotiatedOutput } from "./accept.js";

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
