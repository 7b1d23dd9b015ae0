/**
 * Field names that JavaScript objects have as members (`constructor`, `toString`, `__proto__`) are plain unknown
 * fields of the built-in kinds crdkit decodes itself (RBAC, Namespace) and plain keys in strategic merge patches:
 * each is answered exactly as a field named `zzz` is (the real apiextensions-apiserver has none of these kinds;
 * the custom-resource side is pinned by the recorded sequence 33-object-member-names).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type RunningServer, startServer } from "../../src/server/server.js";
import { api } from "./client.js";

const ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles";

describe("member-named fields are unknown fields like any other", () => {
  let server: RunningServer;
  before(async () => {
    server = await startServer({ ui: false, logRequests: false });
  });
  after(async () => {
    await server?.close();
  });
  /** An error answer with the object name and the field name taken out (a stored object: its status only). */
  const shape = (r: { status: number; text: string }, field: string, name: string) =>
    r.status < 300 ? String(r.status) : r.text.replaceAll(name, "NAME").replaceAll(field, "FIELD");

  for (const field of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
    it(`${field}: in a Role's rule, at a Role's top level, in a Namespace, in a strategic merge patch`, async () => {
      const cases: [string, string, (f: string, n: string) => unknown][] = [
        [ROLES, "?fieldValidation=Strict", (f, n) => `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"${n}"},"rules":[{"${f}":{"a":1},"verbs":["get"],"apiGroups":[""],"resources":["pods"]}]}`],
        [ROLES, "?fieldValidation=Warn", (f, n) => `{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role","metadata":{"name":"${n}"},"${f}":[1],"rules":[]}`],
        ["/api/v1/namespaces", "?fieldValidation=Strict", (f, n) => `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"${n}"},"spec":{"${f}":[1]}}`],
      ];
      for (const [path, query, body] of cases) {
        const a = await api(server.url, "POST", `${path}${query}`, body(field, `m-${field.toLowerCase().replaceAll("_", "")}`));
        const b = await api(server.url, "POST", `${path}${query}`, body("zzz", `z-${field.toLowerCase().replaceAll("_", "")}`));
        assert.equal(a.status, b.status, `${path} ${a.text}`);
        assert.equal(shape(a, field, `m-${field.toLowerCase().replaceAll("_", "")}`), shape(b, "zzz", `z-${field.toLowerCase().replaceAll("_", "")}`));
        assert.equal(a.headers.get("warning")?.replaceAll(field, "FIELD") ?? null, b.headers.get("warning")?.replaceAll("zzz", "FIELD") ?? null);
      }
      const smp = { "Content-Type": "application/strategic-merge-patch+json" };
      const pa = await api(server.url, "PATCH", `${ROLES}/m-${field.toLowerCase().replaceAll("_", "")}?fieldValidation=Strict`, `{"${field}":[1]}`, smp);
      const pb = await api(server.url, "PATCH", `${ROLES}/z-${field.toLowerCase().replaceAll("_", "")}?fieldValidation=Strict`, `{"zzz":[1]}`, smp);
      assert.equal(pa.status, pb.status, pa.text);
      // (the patched object quoted in a 422 has its keys sorted, so the field sits elsewhere: compare the verdict)
      const verdict = (r: typeof pa, f: string) => `${r.json?.reason} ${String(r.json?.message ?? "").split("strict decoding error: ")[1]?.replaceAll(f, "FIELD")}`;
      assert.equal(verdict(pa, field), verdict(pb, "zzz"));
    });
  }
});
