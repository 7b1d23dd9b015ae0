/**
 * The security layer over raw HTTPS (no kubectl): protobuf bodies (garbage, other kinds, deep nesting),
 * malformed Authorization headers, SelfSubjectAccessReview validation, impersonation without a user.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type RunningServer, startServer } from "../../src/server/server.js";

interface Answer {
  status: number;
  json: { message?: string; reason?: string; status?: { allowed?: boolean; reason?: string } };
}

describe("auth over raw HTTPS", () => {
  let dir: string;
  let s: RunningServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "crdkit-authapi-"));
    writeFileSync(join(dir, "tokens.csv"), "admintok,admin,1,system:masters\nutok,u,2\n");
    s = await startServer({ security: { tokenAuthFile: join(dir, "tokens.csv"), authorizationMode: "RBAC" } });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function call(method: string, path: string, body: string | Buffer | undefined, headers: Record<string, string>): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request(`${s.url}${path}`, { method, ca: s.security.trustedCa, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        // A body that is not JSON rejects (a throw in this handler would leave the test pending).
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(text || "{}") });
          } catch {
            reject(new Error(`${res.statusCode} answer is not JSON: ${text}`));
          }
        });
      });
      req.on("error", reject);
      req.end(body);
    });
  }
  const admin = { authorization: "Bearer admintok" };
  const proto = { ...admin, "content-type": "application/vnd.kubernetes.protobuf" };
  const ROLES = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles";

  it("protobuf: no envelope is 400; a truncated message is 400; another kind is 415", async () => {
    const bad = await call("POST", ROLES, "garbage", proto);
    assert.equal(bad.status, 400);
    // The create handler's decode error with a summary of the body (`transformDecodeError`; the real server's
    // answer to a CRD body so, recorded in sequence 50-client-go).
    assert.equal(bad.json.message, "the object provided is unrecognized (must be of type Role): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (67617262616765)");
    const truncated = await call("POST", ROLES, Buffer.from([0x6b, 0x38, 0x73, 0, 0x0a, 0x40, 0x0a]), proto);
    assert.equal(truncated.status, 400);
    // runtime.Unknown{typeMeta{apiVersion "v1", kind "Pod"}}.
    const tm = Buffer.from([0x0a, 0x02, ...Buffer.from("v1"), 0x12, 0x03, ...Buffer.from("Pod")]);
    const pod = Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0, 0x0a, tm.length]), tm]);
    assert.equal((await call("POST", ROLES, pod, proto)).status, 415);
  });

  it("deeply nested protobuf groups in an unknown field are refused, not a stack overflow", async () => {
    const tm = Buffer.from([0x0a, 0x1e, ...Buffer.from("rbac.authorization.k8s.io/v1"), 0x12, 0x04, ...Buffer.from("Role")]);
    // Field 15 as nested start-group / end-group tags, 5,000 deep.
    const raw = Buffer.concat([Buffer.alloc(5000, 0x7b), Buffer.alloc(5000, 0x7c)]);
    const unknown = Buffer.concat([Buffer.from([0x0a, tm.length]), tm, Buffer.from([0x12]), varint(raw.length), raw]);
    const r = await call("POST", ROLES, Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0]), unknown]), proto);
    assert.equal(r.status, 400);
    assert.match(r.json.message ?? "", /^the object provided is unrecognized \(must be of type Role\): /);
  });

  it("malformed Authorization headers are no credentials (401), an unknown token is 401", async () => {
    for (const h of ["Bearer", "Bearer ", "Basic dTpw", "bearer  x"]) {
      const r = await call("GET", "/version", undefined, { authorization: h });
      assert.equal(r.status, 401, h);
      assert.equal(r.json.message, "Unauthorized");
    }
    assert.equal((await call("GET", "/version", undefined, { authorization: "Bearer nope" })).status, 401);
    assert.equal((await call("GET", "/version", undefined, { authorization: "bearer utok" })).status, 200);
  });

  it("SelfSubjectAccessReview: exactly one of the attribute kinds; answers for the caller", async () => {
    const path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    const body = (spec: object) => JSON.stringify({ apiVersion: "authorization.k8s.io/v1", kind: "SelfSubjectAccessReview", spec });
    const h = { authorization: "Bearer utok", "content-type": "application/json" };
    const none = await call("POST", path, body({}), h);
    assert.equal(none.status, 422);
    assert.equal(
      none.json.message,
      'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified',
    );
    const yes = await call("POST", path, body({ nonResourceAttributes: { path: "/version", verb: "get" } }), h);
    assert.deepEqual([yes.status, yes.json.status], [201, { allowed: true, reason: 'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"' }]);
    const no = await call("POST", path, body({ resourceAttributes: { verb: "delete", group: "rbac.authorization.k8s.io", resource: "roles", namespace: "x" } }), h);
    assert.deepEqual(no.json.status, { allowed: false });
  });

  it("impersonating groups without a user is refused", async () => {
    const r = await call("GET", "/version", undefined, { ...admin, "impersonate-group": "g" });
    assert.equal(r.status, 500);
    assert.equal(r.json.reason, "InternalError");
  });
});

function varint(n: number): Buffer {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  out.push(v);
  return Buffer.from(out);
}
