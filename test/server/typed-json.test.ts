import assert from "node:assert/strict";
import { test } from "node:test";
import { toJson } from "../../src/server/endpoints/http-io.js";
import { versionAnswer } from "../../src/server/discovery/version.js";

test("/version is version.Info as WriteRawJSON writes it: struct order, indented by two spaces, no newline", () => {
  const { json, body } = versionAnswer();
  assert.equal(
    json,
    [
      "{",
      `  "major": "1",`,
      `  "minor": "32",`,
      `  "gitVersion": "v1.32.0-crdkit",`,
      `  "gitCommit": "0000000000000000000000000000000000000000",`,
      `  "gitTreeState": "clean",`,
      `  "buildDate": "2026-01-01T00:00:00Z",`,
      `  "goVersion": "go1.23.4",`,
      `  "compiler": "gc",`,
      `  "platform": ${JSON.stringify(body["platform"])}`,
      "}",
    ].join("\n"),
  );
});

const cases: [string, unknown, string][] = [
  [
    "APIVersions (/api)",
    { serverAddressByClientCIDRs: [{ serverAddress: "h:1", clientCIDR: "0.0.0.0/0" }], versions: ["v1"], kind: "APIVersions" },
    '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"h:1"}]}',
  ],
  [
    "APIGroupList (/apis)",
    { groups: [{ serverAddressByClientCIDRs: [{ serverAddress: "h:1", clientCIDR: "0.0.0.0/0" }], preferredVersion: { version: "v1", groupVersion: "g/v1" }, versions: [{ version: "v1", groupVersion: "g/v1" }], name: "g" }], kind: "APIGroupList" },
    '{"kind":"APIGroupList","groups":[{"name":"g","versions":[{"groupVersion":"g/v1","version":"v1"}],"preferredVersion":{"groupVersion":"g/v1","version":"v1"},"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"h:1"}]}]}',
  ],
  [
    "aggregated discovery (apidiscovery.k8s.io/v2)",
    {
      items: [{ versions: [{ freshness: "Current", resources: [{ verbs: ["get"], subresources: [{ verbs: ["get"], responseKind: { kind: "Scale", version: "v1", group: "autoscaling" }, subresource: "scale" }], singularResource: "x", scope: "Cluster", responseKind: { kind: "X", version: "v1", group: "g" }, resource: "xs" }], version: "v1" }], metadata: { name: "g" } }],
      metadata: {},
      apiVersion: "apidiscovery.k8s.io/v2",
      kind: "APIGroupDiscoveryList",
    },
    '{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":[{"metadata":{"name":"g"},"versions":[{"version":"v1","resources":[{"resource":"xs","responseKind":{"group":"g","version":"v1","kind":"X"},"scope":"Cluster","singularResource":"x","verbs":["get"],"subresources":[{"subresource":"scale","responseKind":{"group":"autoscaling","version":"v1","kind":"Scale"},"verbs":["get"]}]}],"freshness":"Current"}]}]}',
  ],
  [
    "a Namespace",
    { status: { phase: "Active" }, spec: { finalizers: ["kubernetes"] }, metadata: { uid: "u", name: "n", labels: { b: "1", a: "2" } }, apiVersion: "v1", kind: "Namespace" },
    '{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"n","uid":"u","labels":{"a":"2","b":"1"}},"spec":{"finalizers":["kubernetes"]},"status":{"phase":"Active"}}',
  ],
  [
    "a ClusterRole",
    { rules: [{ verbs: ["get"], resources: ["x"], apiGroups: [""] }], aggregationRule: { clusterRoleSelectors: [{ matchLabels: { b: "1", a: "2" } }] }, metadata: { name: "r" }, apiVersion: "rbac.authorization.k8s.io/v1", kind: "ClusterRole" },
    '{"kind":"ClusterRole","apiVersion":"rbac.authorization.k8s.io/v1","metadata":{"name":"r"},"rules":[{"verbs":["get"],"apiGroups":[""],"resources":["x"]}],"aggregationRule":{"clusterRoleSelectors":[{"matchLabels":{"a":"2","b":"1"}}]}}',
  ],
  [
    "a SelfSubjectAccessReview",
    { status: { allowed: true }, spec: { resourceAttributes: { resource: "x", verb: "get", namespace: "d" } }, metadata: { creationTimestamp: null }, apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview" },
    '{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{"creationTimestamp":null},"spec":{"resourceAttributes":{"namespace":"d","verb":"get","resource":"x"}},"status":{"allowed":true}}',
  ],
  [
    "a custom resource stays sorted (unstructured)",
    { spec: { b: 1, a: 2 }, metadata: { uid: "u", name: "n" }, kind: "CronTab", apiVersion: "stable.example.com/v1" },
    '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"n","uid":"u"},"spec":{"a":2,"b":1}}',
  ],
  [
    "a custom resource of a built-in kind's name in its own group stays sorted",
    { spec: { b: 1 }, metadata: { name: "n" }, kind: "Scale", apiVersion: "stable.example.com/v1" },
    '{"apiVersion":"stable.example.com/v1","kind":"Scale","metadata":{"name":"n"},"spec":{"b":1}}',
  ],
];

for (const [name, value, json] of cases) {
  test(`typed answer in Go's struct order: ${name}`, () => {
    assert.equal(toJson(value as never), json);
  });
}
