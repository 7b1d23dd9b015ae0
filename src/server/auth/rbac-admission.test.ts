import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { errorString } from "../../errors/index.js";
import { rbacAdmission } from "./rbac-admission.js";

const meta = (extra: object = {}) => ({ name: "x", namespace: "ns", ...extra });

describe("RBAC admission (pkg/apis/rbac/validation)", () => {
  it("Role rules", () => {
    const r = rbacAdmission("Role").create(
      {
        metadata: meta(),
        rules: [{ apiGroups: [""] }, { verbs: ["get"], nonResourceURLs: ["/x"] }, { verbs: ["get"], apiGroups: [""], resources: ["a", "b"], resourceNames: ["n"] }],
      },
      {},
    );
    assert.deepEqual(r.errors.map(errorString), [
      "rules[0].verbs: Required value: verbs must contain at least one value",
      "rules[0].resources: Required value: resource rules must supply at least one resource",
      'rules[1].nonResourceURLs: Invalid value: ["/x"]: namespaced rules cannot apply to non-resource URLs',
      "rules[2].resourceNames: Required value: resource names cannot apply to multiple resources",
    ]);
  });
  it("ClusterRole: non-resource URLs mixed with resources; ObjectMeta checks", () => {
    const r = rbacAdmission("ClusterRole").create(
      { metadata: { name: "a/b", labels: { "bad key!": "v" } }, rules: [{ verbs: ["get"], nonResourceURLs: ["/x"], resources: ["a"] }] },
      {},
    );
    assert.deepEqual(r.errors.map(errorString), [
      "metadata.name: Invalid value: \"a/b\": may not contain '/'",
      "metadata.labels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'rules[0].nonResourceURLs: Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs',
    ]);
  });
  it("bindings: roleRef, subjects, defaulting, roleRef immutable", () => {
    const adm = rbacAdmission("ClusterRoleBinding");
    const r = adm.create(
      {
        metadata: { name: "b" },
        roleRef: { apiGroup: "x", kind: "Role", name: "" },
        subjects: [{ kind: "ServiceAccount", name: "sa" }, { kind: "Robot", name: "r" }, { kind: "User", name: "" }],
      },
      {},
    );
    assert.deepEqual(r.errors.map(errorString), [
      'roleRef.apiGroup: Unsupported value: "x": supported values: "rbac.authorization.k8s.io"',
      'roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"',
      "roleRef.name: Required value",
      "subjects[0].namespace: Required value",
      'subjects[1].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
      "subjects[2].name: Required value",
      'subjects[2].name: Invalid value: "": user name cannot be empty',
    ]);
    const ok = { metadata: { name: "b" }, roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: "view" }, subjects: [{ kind: "Group", name: "g" }] };
    const created = adm.create(ok, {});
    assert.deepEqual(created.errors, []);
    assert.deepEqual(created.object?.["subjects"], [{ kind: "Group", name: "g", apiGroup: "rbac.authorization.k8s.io" }]);
    const stored = { ...created.object!, metadata: { name: "b", resourceVersion: "7" } };
    const changed = adm.update({ ...ok, roleRef: { ...ok.roleRef, name: "edit" } }, stored, {});
    assert.deepEqual(changed.errors.map(errorString), [
      'roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"ClusterRole","Name":"edit"}: cannot change roleRef',
    ]);
  });
  it("decoding: unknown fields per fieldValidation, wrong types refused", () => {
    const adm = rbacAdmission("Role");
    const obj = { metadata: meta(), rules: [{ verbs: ["get"], apiGroups: [""], resources: ["a"], extra: 1 }], spec: {} };
    assert.deepEqual(adm.create(obj, { fieldValidation: "Warn" }).warnings, ['unknown field "rules[0].extra"', 'unknown field "spec"']);
    assert.equal(adm.create(obj, { fieldValidation: "Strict" }).decodeError, 'strict decoding error: unknown field "rules[0].extra", unknown field "spec"');
    assert.equal(adm.create({ metadata: meta(), rules: [{ verbs: "get" }] }, {}).decodeError, "json: cannot unmarshal string into Go struct field .rules[0].verbs of type []string");
  });
});
