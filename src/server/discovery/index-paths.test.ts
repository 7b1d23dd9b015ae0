import assert from "node:assert/strict";
import { test } from "node:test";
import { indexBody, listedPaths } from "./index-paths.js";

test("listedPaths: the web services' roots and the mux's listed paths, sorted as Go sorts", () => {
  const paths = listedPaths(
    new Map([
      ["", ["v1"]],
      ["rbac.authorization.k8s.io", ["v1"]],
      ["apiextensions.k8s.io", ["v1", "v1beta1"]],
    ]),
  );
  assert.deepEqual(paths, [
    "/api",
    "/api/v1",
    "/apis",
    "/apis/",
    "/apis/apiextensions.k8s.io",
    "/apis/apiextensions.k8s.io/v1",
    "/apis/apiextensions.k8s.io/v1beta1",
    "/apis/rbac.authorization.k8s.io",
    "/apis/rbac.authorization.k8s.io/v1",
    "/healthz",
    "/healthz/ping",
    "/livez",
    "/livez/ping",
    "/openapi/v2",
    "/openapi/v3",
    "/openapi/v3/",
    "/readyz",
    "/readyz/ping",
    "/version",
  ]);
});

test("indexBody: json.MarshalIndent of RootPaths with two spaces, no trailing newline", () => {
  assert.equal(indexBody(["/apis", "/version"]), '{\n  "paths": [\n    "/apis",\n    "/version"\n  ]\n}');
  assert.equal(indexBody([]), '{\n  "paths": []\n}');
  assert.equal(indexBody(["/a<b"]), '{\n  "paths": [\n    "/a\\u003cb"\n  ]\n}');
});
