import assert from "node:assert/strict";
import { test } from "node:test";
import { route } from "./router.js";

test("route: Go paths as kube-apiserver's director and mux dispatch them", () => {
  const cases: [string, unknown][] = [
    // The index: `/` and `/index.html` only; any path no handler serves gets its 404.
    ["/", { kind: "index", found: true }],
    ["/index.html", { kind: "index", found: true }],
    ["", { kind: "index", found: false }],
    ["*", { kind: "index", found: false }],
    ["//", { kind: "index", found: false }],
    ["//[", { kind: "index", found: false }],
    ["//apis", { kind: "index", found: false }],
    ["/nothing", { kind: "index", found: false }],
    ["/version#frag", { kind: "index", found: false }],
    ["/./version", { kind: "index", found: false }],
    ["/swagger-2.0.0.pb-v1", { kind: "index", found: false }],
    ["/openapi", { kind: "index", found: false }],
    ["/openapi/v2/", { kind: "index", found: false }],
    ["/healthz/", { kind: "index", found: false }],
    ["/ui", { kind: "index", found: false }],
    // Exact mux paths.
    ["/healthz", { kind: "health", endpoint: "healthz" }],
    ["/livez", { kind: "health", endpoint: "livez" }],
    ["/readyz", { kind: "health", endpoint: "readyz" }],
    ["/healthz/ping", { kind: "ping" }],
    ["/livez/ping", { kind: "ping" }],
    ["/readyz/ping", { kind: "ping" }],
    ["/healthz/etcd", { kind: "index", found: false }],
    ["/openapi/v2", { kind: "openapiV2" }],
    ["/openapi/v3", { kind: "openapiIndex" }],
    // The OpenAPI v3 prefix: a document's path exactly, else its empty answer.
    ["/openapi/v3/apis/g.io/v1", { kind: "openapiDoc", group: "g.io", version: "v1" }],
    ["/openapi/v3/", { kind: "openapiNone" }],
    ["/openapi/v3/apis", { kind: "openapiDiscoveryDoc", name: "apis" }],
    ["/openapi/v3/version", { kind: "openapiDiscoveryDoc", name: "version" }],
    ["/openapi/v3/apis/g.io", { kind: "openapiDiscoveryDoc", name: "apis/g.io" }],
    ["/openapi/v3/apis/", { kind: "openapiNone" }],
    ["/openapi/v3/version/", { kind: "openapiNone" }],
    ["/openapi/v3/api", { kind: "openapiNone" }],
    ["/openapi/v3/apis/g.io/v1/", { kind: "openapiNone" }],
    ["/openapi/v3//apis/g.io/v1", { kind: "openapiNone" }],
    // The version web service: its root with trailing slashes; other paths under it have no route.
    ["/version", { kind: "version" }],
    ["/version/", { kind: "version" }],
    ["/version//", { kind: "version" }],
    ["/version/x", { kind: "noRoute" }],
    ["/version/.", { kind: "noRoute" }],
    ["/versionx", { kind: "index", found: false }],
    // `/apis`: the group list only for `/apis` and `/apis/`.
    ["/apis", { kind: "apis" }],
    ["/apis/", { kind: "apis" }],
    ["/apis//", { kind: "notFound" }],
    ["/apis//g.io/v1", { kind: "notFound" }],
    ["/apis/g.io", { kind: "group", group: "g.io" }],
    ["/apis/g.io//", { kind: "group", group: "g.io" }],
    ["/apis/g.io/v1/", { kind: "groupVersion", group: "g.io", version: "v1" }],
    ["/apis/../version", { kind: "groupVersion", group: "..", version: "version" }],
    // RequestInfo's split keeps inner empty segments.
    ["/apis/g.io/v1//things", { kind: "resource", group: "g.io", version: "v1", namespace: "", namespaced: false, plural: "", name: "things", subresource: "" }],
    ["/apis/g.io/v1/namespaces/ns/things/a/status", { kind: "resource", group: "g.io", version: "v1", namespace: "ns", namespaced: true, plural: "things", name: "a", subresource: "status" }],
    // Parts past the subresource are ignored by RequestInfo (marked: a built-in group has no route for them).
    ["/apis/g.io/v1/things/a/status/x", { kind: "resource", group: "g.io", version: "v1", namespace: "", namespaced: false, plural: "things", name: "a", subresource: "status", extraParts: true }],
    // The legacy core group.
    ["/api", { kind: "core" }],
    ["/api/", { kind: "core" }],
    ["/api/v1", { kind: "groupVersion", group: "", version: "v1" }],
    ["/api/v2", { kind: "notFound", group: "" }],
    ["/api/v1/namespaces/a/status", { kind: "resource", group: "", version: "v1", namespace: "", namespaced: false, plural: "namespaces", name: "a", subresource: "status" }],
    ["/apix", { kind: "index", found: false }],
  ];
  for (const [path, want] of cases) assert.deepEqual(route(path), want, JSON.stringify(path));
});
