import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { forbiddenError } from "./forbidden.js";
import { type PolicyRule, ruleAllows } from "./rbac-rules.js";
import { requestUrl } from "../endpoints/request-url.js";
import { requestAttributes } from "./request-attributes.js";
import { parseTokenFile } from "./token-file.js";
import type { UserInfo } from "./user-info.js";

const u: UserInfo = { name: "u", uid: "", groups: [] };
const attrs = (method: string, path: string) => requestAttributes(method, requestUrl(path)!, u);

describe("token file (tokenfile.NewCSV)", () => {
  it("reads token,user,uid,groups with CSV quoting; warns on empty and duplicate tokens", () => {
    const tf = parseTokenFile('t1,alice,1,"a,b"\n,nobody,2\nt1,alice2,3\nt2,bob,4\n', "f.csv");
    assert.deepEqual(tf.tokens.get("t1"), { name: "alice2", uid: "3", groups: [] });
    assert.deepEqual(tf.tokens.get("t2"), { name: "bob", uid: "4", groups: [] });
    assert.deepEqual(tf.warnings, [
      "empty token has been found in token file 'f.csv', record number '2'",
      "duplicate token has been found in token file 'f.csv', record number '3'",
    ]);
    assert.deepEqual(parseTokenFile('t,u,1,"a,b"\n', "f").tokens.get("t")?.groups, ["a", "b"]);
  });
  it("refuses records with fewer than 3 columns", () => {
    assert.throws(() => parseTokenFile("t,u\n", "f.csv"), { message: "token file 'f.csv' must have at least 3 columns (token, user name, user uid), found 2" });
  });
});

describe("request attributes (RequestInfoFactory)", () => {
  it("maps paths and methods to verbs and resources", () => {
    const pick = (a: ReturnType<typeof attrs>) => [a.resourceRequest, a.verb, a.apiGroup, a.namespace, a.resource, a.name, a.subresource];
    assert.deepEqual(pick(attrs("GET", "/apis/g.io/v1/namespaces/ns/things")), [true, "list", "g.io", "ns", "things", "", ""]);
    assert.deepEqual(pick(attrs("GET", "/apis/g.io/v1/things?watch=true")), [true, "watch", "g.io", "", "things", "", ""]);
    assert.deepEqual(pick(attrs("GET", "/apis/g.io/v1/things?watch=0")), [true, "list", "g.io", "", "things", "", ""]);
    assert.deepEqual(pick(attrs("GET", "/apis/g.io/v1/things?fieldSelector=metadata.name%3Dx")), [true, "list", "g.io", "", "things", "x", ""]);
    assert.deepEqual(pick(attrs("PUT", "/apis/g.io/v1/namespaces/ns/things/a/status")), [true, "update", "g.io", "ns", "things", "a", "status"]);
    assert.deepEqual(pick(attrs("DELETE", "/apis/g.io/v1/namespaces/ns/things")), [true, "deletecollection", "g.io", "ns", "things", "", ""]);
    assert.deepEqual(pick(attrs("POST", "/apis/g.io/v1/namespaces/ns/things")), [true, "create", "g.io", "ns", "things", "", ""]);
    // Discovery of a group version is a non-resource request.
    assert.deepEqual(pick(attrs("GET", "/apis/g.io/v1")), [false, "get", "", "", "", "", ""]);
    assert.deepEqual(pick(attrs("POST", "/healthz")), [false, "post", "", "", "", "", ""]);
  });

  it("trims slashes at both ends and splits the decoded path (an escaped `/` splits too)", () => {
    const pick = (a: ReturnType<typeof attrs>) => [a.resourceRequest, a.verb, a.apiGroup, a.namespace, a.resource, a.name, a.subresource];
    assert.deepEqual(pick(attrs("GET", "/apis/g.io/v1/namespaces/ns/things/a//")), [true, "get", "g.io", "ns", "things", "a", ""]);
    assert.deepEqual(pick(attrs("GET", "/apis/g.io/v1/namespaces/n%73/things/a%3Ab")), [true, "get", "g.io", "ns", "things", "a:b", ""]);
    assert.deepEqual(pick(attrs("GET", "/apis/g.io/v1/namespaces/ns/things/a%25zz")), [true, "get", "g.io", "ns", "things", "a%zz", ""]);
    assert.deepEqual(pick(attrs("GET", "/apis/g.io/v1/namespaces/ns/things%2Fa")), [true, "get", "g.io", "ns", "things", "a", ""]);
    // An inner empty segment stays a part (Go's strings.Split).
    assert.deepEqual(pick(attrs("GET", "/apis/g.io/v1//things")), [true, "get", "g.io", "", "", "things", ""]);
    assert.deepEqual(pick(attrs("OPTIONS", "/apis/g.io/v1/things")), [true, "", "g.io", "", "things", "", ""]);
  });
});

describe("RBAC rule matching", () => {
  const rule = (r: Partial<PolicyRule>): PolicyRule => ({ verbs: [], apiGroups: [], resources: [], resourceNames: [], nonResourceURLs: [], ...r });
  const cases: [string, PolicyRule, string, string, boolean][] = [
    ["exact", rule({ verbs: ["get"], apiGroups: ["g.io"], resources: ["things"] }), "GET", "/apis/g.io/v1/namespaces/n/things/a", true],
    ["verb mismatch", rule({ verbs: ["get"], apiGroups: ["g.io"], resources: ["things"] }), "DELETE", "/apis/g.io/v1/namespaces/n/things/a", false],
    ["group mismatch", rule({ verbs: ["*"], apiGroups: ["h.io"], resources: ["*"] }), "GET", "/apis/g.io/v1/things", false],
    ["resource does not cover subresource", rule({ verbs: ["*"], apiGroups: ["*"], resources: ["things"] }), "PUT", "/apis/g.io/v1/namespaces/n/things/a/status", false],
    ["resource/subresource", rule({ verbs: ["*"], apiGroups: ["*"], resources: ["things/status"] }), "PUT", "/apis/g.io/v1/namespaces/n/things/a/status", true],
    ["*/subresource", rule({ verbs: ["*"], apiGroups: ["*"], resources: ["*/status"] }), "PUT", "/apis/g.io/v1/namespaces/n/things/a/status", true],
    ["resourceNames hit", rule({ verbs: ["get"], apiGroups: ["*"], resources: ["things"], resourceNames: ["a"] }), "GET", "/apis/g.io/v1/namespaces/n/things/a", true],
    ["resourceNames miss on list", rule({ verbs: ["list"], apiGroups: ["*"], resources: ["things"], resourceNames: ["a"] }), "GET", "/apis/g.io/v1/namespaces/n/things", false],
    ["non-resource exact", rule({ verbs: ["get"], nonResourceURLs: ["/version"] }), "GET", "/version", true],
    ["non-resource prefix", rule({ verbs: ["get"], nonResourceURLs: ["/apis/*"] }), "GET", "/apis/g.io/v1", true],
    ["non-resource other", rule({ verbs: ["get"], nonResourceURLs: ["/version"] }), "GET", "/metrics", false],
  ];
  for (const [name, r, method, path, want] of cases) it(name, () => assert.equal(ruleAllows(attrs(method, path), r), want));
});

describe("403 texts (responsewriters.forbiddenMessage + NewForbidden)", () => {
  const msg = (method: string, path: string, reason = "") => forbiddenError(attrs(method, path), reason).status.message;
  it("namespaced, cluster-scoped, named, subresource and non-resource variants", () => {
    assert.equal(
      msg("POST", "/apis/stable.example.com/v1/namespaces/default/crontabs"),
      'crontabs.stable.example.com is forbidden: User "u" cannot create resource "crontabs" in API group "stable.example.com" in the namespace "default"',
    );
    assert.equal(
      msg("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"),
      'customresourcedefinitions.apiextensions.k8s.io is forbidden: User "u" cannot list resource "customresourcedefinitions" in API group "apiextensions.k8s.io" at the cluster scope',
    );
    assert.equal(
      msg("PATCH", "/apis/stable.example.com/v1/namespaces/default/crontabs/c/status"),
      'crontabs.stable.example.com "c" is forbidden: User "u" cannot patch resource "crontabs/status" in API group "stable.example.com" in the namespace "default"',
    );
    assert.equal(msg("GET", "/metrics"), 'forbidden: User "u" cannot get path "/metrics"');
    assert.equal(msg("GET", "/metrics", 'RBAC: role.rbac.authorization.k8s.io "r" not found'), 'forbidden: User "u" cannot get path "/metrics": RBAC: role.rbac.authorization.k8s.io "r" not found');
  });
});
