/**
 * `/openapi/v2` in protobuf: gnostic's `openapi_v2.Document` of the JSON document, byte for byte as Go writes
 * it for a recorded document (fixtures/openapi-v2-protobuf.json), decoded back to the JSON the server serves
 * for real CRDs, and kube-openapi's handler answers (both media-type spellings, ETag, Vary, 304, 406, gzip).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import type protobuf from "protobufjs";
import { parse as parseYaml, parseAllDocuments } from "yaml";
import { compareGoStrings } from "../../src/go/fmt.js";
import { jsonKeyOf, openApiV2Proto, openApiV2Protobuf } from "../../src/server/openapi/openapi-v2-protobuf.js";
import { startServer, type RunningServer } from "../../src/server/server.js";
import type { JsonObject, JsonValue } from "../../src/value/json-value.js";
import { corpusRoot } from "../corpus-root.js";
import { api, widgetCrd } from "./client.js";

const PROTO = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";
const PROTO_OLD = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
const Document = openApiV2Proto.lookupType("openapi.v2.Document");

type Msg = { [k: string]: unknown };

const named = (list: unknown, type: protobuf.Type | null): JsonObject =>
  Object.fromEntries(((list as Msg[] | undefined) ?? []).map((e) => [e["name"] as string, type ? fromMessage(type, e["value"] as Msg) : (e["value"] as JsonValue)]));

/** The JSON a decoded message stands for (the inverse of the server's conversion, written from the .proto). */
function fromMessage(type: protobuf.Type, m: Msg): JsonValue {
  const valueType = (name: string) => openApiV2Proto.lookupType(`openapi.v2.${name}`).fields["value"]!.resolvedType as protobuf.Type | null;
  const ext = (): JsonObject => Object.fromEntries(((m["vendor_extension"] as Msg[] | undefined) ?? []).map((e) => [e["name"] as string, parseYaml((e["value"] as Msg)["yaml"] as string) as JsonValue]));
  switch (type.name) {
    case "Any":
      return parseYaml(m["yaml"] as string) as JsonValue;
    case "TypeItem":
    case "ItemsItem": {
      const list = (m["value"] ?? (m["schema"] as Msg[]).map((s) => fromMessage(openApiV2Proto.lookupType("openapi.v2.Schema"), s))) as JsonValue[];
      return list.length === 1 ? list[0]! : list;
    }
    case "Paths":
      return { ...ext(), ...named(m["path"], valueType("NamedPathItem")) };
    case "Responses":
      return { ...named(m["response_code"], valueType("NamedResponseValue")), ...ext() };
  }
  const fields = type.fieldsArray;
  if (fields.length === 1 && fields[0]!.name === "additional_properties") return named(m["additional_properties"], valueType((fields[0]!.resolvedType as protobuf.Type).name));
  if (type.oneofsArray.length > 0) {
    const [k, v] = Object.entries(m)[0]!;
    const f = type.fields[k]!;
    return f.resolvedType ? fromMessage(f.resolvedType as protobuf.Type, v as Msg) : (v as JsonValue);
  }
  const out: JsonObject = {};
  for (const f of fields) {
    const v = m[f.name];
    if (v === undefined || f.name === "vendor_extension") continue;
    const t = f.resolvedType as protobuf.Type | null;
    out[jsonKeyOf(f.name)] = t ? (f.repeated ? (v as Msg[]).map((x) => fromMessage(t, x)) : fromMessage(t, v as Msg)) : (v as JsonValue);
  }
  return { ...out, ...ext() };
}

/** The JSON without what proto3 cannot carry outside YAML-text values: empty lists, `false`, `""`, `0`. */
function withoutProtoZeroes(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(withoutProtoZeroes);
  if (v === null || typeof v !== "object" || !(v.constructor === Object)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v as JsonObject)) {
    if (k.startsWith("x-") || k === "enum" || k === "default" || k === "example") out[k] = x;
    else if (!((Array.isArray(x) && x.length === 0) || x === false || x === "" || x === 0)) out[k] = withoutProtoZeroes(x);
  }
  return out;
}

function decode(bytes: Uint8Array): Msg {
  return Document.toObject(Document.decode(bytes), { longs: Number }) as Msg;
}

/** A GET with exactly these headers (no automatic Accept-Encoding or decompression). */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, base), { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("OpenAPI v2 in protobuf (gnostic openapi_v2.Document)", () => {
  it("encodes a recorded document byte for byte as gnostic's ParseDocument + proto.Marshal", () => {
    const fx = JSON.parse(readFileSync(new URL("./fixtures/openapi-v2-protobuf.json", import.meta.url), "utf8")) as { json: string; protobufBase64: string };
    const ours = Buffer.from(openApiV2Protobuf(JSON.parse(fx.json) as JsonObject));
    const go = Buffer.from(fx.protobufBase64, "base64");
    assert.deepEqual(decode(ours), decode(go));
    assert.equal(ours.toString("base64"), fx.protobufBase64);
  });

  let s: RunningServer;
  const certManager = join(corpusRoot(), "cert-manager", "crds", "cert-manager.io_issuers.yaml");
  before(async () => {
    s = await startServer({ port: 0 });
    assert.equal((await api(s.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
    if (existsSync(certManager)) {
      const crd = parseAllDocuments(readFileSync(certManager, "utf8"))[0]!.toJSON();
      assert.equal((await api(s.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)).status, 201);
    }
  });
  after(() => s.close());

  it("answers both spellings with the JSON document's content, ETag and Vary", async () => {
    const json = await rawGet(s.url, "/openapi/v2", { Accept: "application/json" });
    assert.equal(json.status, 200);
    const doc = JSON.parse(json.body.toString("utf8")) as JsonObject;
    if (existsSync(certManager)) assert.ok(JSON.stringify(doc).includes("x-kubernetes-validations"));
    // goautoneg puts specific types before `*/*` and higher qualities first.
    for (const accept of [PROTO, PROTO_OLD, `application/json;q=0.5, ${PROTO}`, `*/*, ${PROTO_OLD}`]) {
      const r = await rawGet(s.url, "/openapi/v2", { Accept: accept });
      assert.equal(r.status, 200, accept);
      assert.equal(r.headers["content-type"], PROTO);
      assert.equal(r.headers["etag"], json.headers["etag"]);
      assert.match(String(r.headers["etag"]), /^"[0-9A-F]{128}"$/);
      assert.deepEqual(r.headers["vary"], "Accept-Encoding, Accept");
      assert.equal(r.headers["content-encoding"], undefined);
      const m = decode(r.body);
      assert.deepEqual(fromMessage(Document, m), withoutProtoZeroes(doc));
      // Maps are lists in the order of the JSON text.
      const defs = ((m["definitions"] as Msg)["additional_properties"] as Msg[]).map((d) => d["name"] as string);
      assert.deepEqual(defs, Object.keys(doc["definitions"] as JsonObject).sort(compareGoStrings));
    }
  });

  it("gzips when asked, answers 304 to the current ETag and 406 to a type it cannot serve", async () => {
    const plain = await rawGet(s.url, "/openapi/v2", { Accept: PROTO });
    const gz = await rawGet(s.url, "/openapi/v2", { Accept: PROTO, "Accept-Encoding": "gzip" });
    assert.equal(gz.headers["content-encoding"], "gzip");
    assert.deepEqual(gunzipSync(gz.body), plain.body);
    const notModified = await rawGet(s.url, "/openapi/v2", { Accept: PROTO, "If-None-Match": String(plain.headers["etag"]) });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.body.length, 0);
    for (const accept of [{}, { Accept: "*/*" }, { Accept: "application/*" }] as Record<string, string>[]) {
      assert.equal((await rawGet(s.url, "/openapi/v2", accept)).headers["content-type"], "application/json");
    }
    const html = await rawGet(s.url, "/openapi/v2", { Accept: "text/html" });
    assert.equal(html.status, 406);
    assert.equal(html.body.length, 0);
  });
});
