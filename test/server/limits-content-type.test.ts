/**
 * Request media types as the API server negotiates them (issue 13): JSON, YAML and protobuf for bodies
 * (a missing Content-Type is JSON), the three patch types for PATCH, 415 with Kubernetes' Status for
 * everything else (text/plain and form encodings: what a web page can send without a CORS preflight).
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { parseMediaType } from "../../src/server/endpoints/content-type.js";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const BODY_TYPES = "application/json, application/yaml, application/vnd.kubernetes.protobuf";
const PATCH_TYPES = "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";

function unsupported(types: string): unknown {
  return {
    apiVersion: "v1",
    code: 415,
    kind: "Status",
    message: `the body of the request was in an unknown format - accepted media types include: ${types}`,
    metadata: {},
    reason: "UnsupportedMediaType",
    status: "Failure",
  };
}

/** A request with exactly these headers (fetch adds a Content-Type to string bodies). */
// biome-ignore lint/suspicious/noExplicitAny: test helper returns parsed JSON of any shape
function raw(base: string, method: string, path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers: { "Content-Length": String(Buffer.byteLength(body)), ...headers } }, (res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      // A body that is not JSON rejects (a throw in this handler would leave the test pending).
      res.on("end", () => {
        try {
          resolve({ status: res.statusCode ?? 0, json: text === "" ? undefined : JSON.parse(text) });
        } catch {
          reject(new Error(`${res.statusCode} answer is not JSON: ${text}`));
        }
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("parseMediaType (Go's mime.ParseMediaType)", () => {
  const cases: [string, string | undefined][] = [
    ["application/json", "application/json"],
    ["Application/JSON ; charset=UTF-8", "application/json"],
    ["application/json;", "application/json"],
    ["application/json;;", undefined],
    ["application/json; charset", undefined],
    ["application/json; charset=", undefined],
    ['application/json; a="x;y"', "application/json"],
    ["application/json; a=1; a=2", undefined],
    ["application/json; a=1; a=1", "application/json"],
    ["application/", undefined],
    ["application", "application"],
    ["", undefined],
  ];
  for (const [input, want] of cases) it(JSON.stringify(input), () => assert.equal(parseMediaType(input), want));
});

describe("request media types", () => {
  let srv: RunningServer;
  before(async () => {
    srv = await startServer();
    assert.equal((await api(srv.url, "POST", CRDS, widgetCrd())).status, 201);
    assert.equal((await api(srv.url, "POST", WIDGETS, widget("w", { count: 1 }))).status, 201);
  });
  after(() => srv.close());

  it("create: text/plain, form encodings and unknown types → 415; nothing is stored", async () => {
    for (const type of ["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json;;", "application/cbor"]) {
      const r = await raw(srv.url, "POST", WIDGETS, JSON.stringify(widget("formed")), { "Content-Type": type });
      assert.equal(r.status, 415, type);
      assert.deepEqual(r.json, unsupported(BODY_TYPES));
    }
    const crd = await raw(srv.url, "POST", CRDS, JSON.stringify(widgetCrd()), { "Content-Type": "text/plain" });
    assert.deepEqual(crd.json, unsupported(BODY_TYPES));
    assert.equal((await api(srv.url, "GET", `${WIDGETS}/formed`)).status, 404);
  });

  it("create without a Content-Type decodes JSON, as the API server (its first serializer)", async () => {
    const r = await raw(srv.url, "POST", WIDGETS, JSON.stringify(widget("bare")));
    assert.equal(r.status, 201);
  });

  it("JSON with parameters and YAML are accepted", async () => {
    const r = await raw(srv.url, "POST", WIDGETS, JSON.stringify(widget("charset")), { "Content-Type": "Application/JSON; charset=utf-8" });
    assert.equal(r.status, 201);
    const y = await raw(srv.url, "POST", WIDGETS, "apiVersion: test.example.com/v1\nkind: Widget\nmetadata:\n  name: yml\n", { "Content-Type": "application/yaml" });
    assert.equal(y.status, 201);
  });

  it("protobuf is negotiated and refused as the protobuf serializer refuses unstructured bodies (400)", async () => {
    const json = JSON.stringify(widget("pb"));
    const r = await raw(srv.url, "POST", WIDGETS, json, { "Content-Type": "application/vnd.kubernetes.protobuf" });
    assert.equal(r.status, 400);
    assert.equal(
      r.json.message,
      `the object provided is unrecognized (must be of type Widget): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] (${json.slice(0, 30)} ...)`,
    );
    const prefixOnly = await raw(srv.url, "POST", WIDGETS, Buffer.from([0x6b, 0x38, 0x73, 0x00]), { "Content-Type": "application/vnd.kubernetes.protobuf" });
    assert.equal(prefixOnly.json.message, "the object provided is unrecognized (must be of type Widget): empty body (6b387300)");
  });

  it("update: 415 for text/plain", async () => {
    const cur = await api(srv.url, "GET", `${WIDGETS}/w`);
    const r = await raw(srv.url, "PUT", `${WIDGETS}/w`, JSON.stringify(cur.json), { "Content-Type": "text/plain" });
    assert.equal(r.status, 415);
    assert.deepEqual(r.json, unsupported(BODY_TYPES));
  });

  it("patch: only the three patch types, compared up to the first ';'", async () => {
    for (const type of ["text/plain", "application/json", "application/strategic-merge-patch+json", "Application/merge-patch+json"]) {
      const r = await raw(srv.url, "PATCH", `${WIDGETS}/w`, JSON.stringify({ spec: { count: 2 } }), { "Content-Type": type });
      assert.equal(r.status, 415, type);
      assert.deepEqual(r.json, unsupported(PATCH_TYPES));
    }
    const missing = await raw(srv.url, "PATCH", `${WIDGETS}/w`, JSON.stringify({ spec: { count: 2 } }));
    assert.deepEqual(missing.json, unsupported(PATCH_TYPES));
    const ok = await raw(srv.url, "PATCH", `${WIDGETS}/w`, JSON.stringify({ spec: { count: 2 } }), { "Content-Type": "application/merge-patch+json; charset=utf-8" });
    assert.equal(ok.status, 200);
  });

  it("delete: a body in an unknown format → 415; an empty body needs no type", async () => {
    const r = await raw(srv.url, "DELETE", `${WIDGETS}/w`, JSON.stringify({ propagationPolicy: "Background" }), { "Content-Type": "text/plain" });
    assert.equal(r.status, 415);
    assert.deepEqual(r.json, unsupported(BODY_TYPES));
    const ok = await raw(srv.url, "DELETE", `${WIDGETS}/w`, "", { "Content-Type": "text/plain" });
    assert.equal(ok.status, 200);
  });
});

describe("response media types of custom resources", () => {
  let srv: RunningServer;
  before(async () => {
    srv = await startServer();
    assert.equal((await api(srv.url, "POST", CRDS, widgetCrd())).status, 201);
    assert.equal((await api(srv.url, "POST", WIDGETS, widget("w"))).status, 201);
  });
  after(() => srv.close());

  it("406 when nothing in Accept can be sent (protobuf alone: custom resources are never protobuf)", async () => {
    const message = "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf";
    for (const accept of ["text/html", "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io", "application/json;as=Foo;v=v1;g=meta.k8s.io", "application/yaml;stream=watch"]) {
      const r = await api(srv.url, "GET", `${WIDGETS}/w`, undefined, { Accept: accept });
      assert.equal(r.status, 406, accept);
      assert.equal(r.headers.get("content-type"), "application/json");
      // No clause can carry the Status: WriteRawJSON's indented JSON, in Status field order.
      assert.equal(
        r.text,
        `{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "${message}",\n  "reason": "NotAcceptable",\n  "code": 406\n}`,
      );
    }
    // The Status has a protobuf encoding (the custom resource has not): the error is sent in protobuf.
    const pb = await fetch(`${srv.url}${WIDGETS}/w`, { headers: { Accept: "application/vnd.kubernetes.protobuf" } });
    assert.equal(pb.status, 406);
    assert.equal(pb.headers.get("content-type"), "application/vnd.kubernetes.protobuf");
    const bytes = Buffer.from(await pb.arrayBuffer());
    assert.deepEqual([...bytes.subarray(0, 4)], [0x6b, 0x38, 0x73, 0x00]);
    assert.ok(bytes.includes(Buffer.from(message)));
    // …and decodes as a protobuf Status: typeMeta v1/Status, then the message fields in order.
    assert.equal(bytes.subarray(4, 18).toString("latin1"), "\n\f\n\u0002v1\u0012\u0006Status");
    assert.ok(bytes.subarray(-7).equals(Buffer.from([0x30, 0x96, 0x03, 0x1a, 0x00, 0x22, 0x00])));
    const create = await api(srv.url, "POST", WIDGETS, widget("p"), { Accept: "application/vnd.kubernetes.protobuf" });
    assert.equal(create.status, 406);
    assert.equal((await api(srv.url, "GET", `${WIDGETS}/p`)).status, 404);
  });

  it("answers JSON when a clause allows it", async () => {
    for (const accept of ["application/vnd.kubernetes.protobuf, application/json", "*/*", "application/*", "application/json;stream=watch", "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io", "application/json;as=Table;v=v1;g=meta.k8s.io"]) {
      const r = await api(srv.url, "GET", `${WIDGETS}/w`, undefined, { Accept: accept });
      assert.equal(r.status, 200, accept);
    }
  });
});
