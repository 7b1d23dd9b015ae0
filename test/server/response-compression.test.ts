/**
 * API response compression (kube-apiserver's APIResponseCompression): an answer longer than 128 KiB is gzipped
 * for a client whose Accept-Encoding has a `gzip` token; smaller answers, other Accept-Encoding values and
 * watches are sent as they are. The recorded comparison with the real server is server-diff sequence
 * 41-response-compression; this checks the bytes and headers on the wire.
 */
import assert from "node:assert/strict";
import { request } from "node:http";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import { acceptsGzipToken, GZIP_THRESHOLD_BYTES } from "../../src/server/endpoints/response-compression.js";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, until, widget, widgetCrd, WIDGETS } from "./client.js";

/** A GET whose body is read as bytes (no decompression). */
function rawGet(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("ContentEncodingSupported: which Accept-Encoding values ask for gzip", () => {
  for (const [header, want] of [
    ["gzip", true],
    ["deflate, gzip", true],
    ["br,gzip ,deflate", true],
    [" gzip ", true],
    ["gzip;q=0", false],
    ["gzip;q=1", false],
    ["GZIP", false],
    ["*", false],
    ["identity", false],
    ["x-gzip", false],
    ["", false],
  ] as const) {
    it(`${JSON.stringify(header)}: ${want}`, () => assert.equal(acceptsGzipToken(header), want));
  }
  it("no header: false", () => assert.equal(acceptsGzipToken(undefined), false));
});

describe("answers over 128 KiB are gzipped for clients that accept gzip", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({ ui: false });
    assert.equal((await api(s.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
    await until(() => api(s.url, "GET", WIDGETS), (r) => r.status === 200, "widgets served");
    // Three objects of ~50 KB: their list is ~150 KB, one object ~50 KB.
    for (const n of ["w0", "w1", "w2"]) assert.equal((await api(s.url, "POST", WIDGETS, widget(n, { color: "x".repeat(50_000) }))).status, 201);
  });
  after(() => s.close());

  it("a list of ~150 KB: Content-Encoding gzip, Vary, the compressed length; the same JSON as without gzip", async () => {
    const plain = await rawGet(s.url, WIDGETS, {});
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.ok(plain.body.length > GZIP_THRESHOLD_BYTES);
    const gz = await rawGet(s.url, WIDGETS, { "Accept-Encoding": "deflate, gzip" });
    assert.equal(gz.status, 200);
    assert.equal(gz.headers["content-encoding"], "gzip");
    assert.equal(gz.headers["vary"], "Accept-Encoding");
    assert.equal(gz.headers["content-type"], "application/json");
    assert.equal(Number(gz.headers["content-length"]), gz.body.length);
    assert.ok(gz.body.length < plain.body.length / 10);
    assert.equal(gunzipSync(gz.body).toString("utf8"), plain.body.toString("utf8"));
  });

  it("YAML and Table answers of that list are gzipped too", async () => {
    const yaml = await rawGet(s.url, WIDGETS, { "Accept-Encoding": "gzip", Accept: "application/yaml" });
    assert.equal(yaml.headers["content-encoding"], "gzip");
    assert.match(gunzipSync(yaml.body).toString("utf8"), /^apiVersion: test\.example\.com\/v1\nitems:\n/);
    const table = await rawGet(s.url, `${WIDGETS}?includeObject=Object`, { "Accept-Encoding": "gzip", Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" });
    assert.equal(table.headers["content-encoding"], "gzip");
    assert.equal((JSON.parse(gunzipSync(table.body).toString("utf8")) as { kind: string }).kind, "Table");
  });

  it("below the threshold (one object, a list of two), or without a gzip token: plain", async () => {
    for (const [path, ae] of [
      [`${WIDGETS}/w0`, "gzip"],
      [`${WIDGETS}?limit=2`, "gzip"],
      [WIDGETS, "gzip;q=1"],
      [WIDGETS, "*"],
    ] as const) {
      const r = await rawGet(s.url, path, { "Accept-Encoding": ae });
      assert.equal(r.status, 200);
      assert.equal(r.headers["content-encoding"], undefined, `${path} ${ae}`);
      assert.equal(r.headers["vary"], undefined, `${path} ${ae}`);
      assert.equal(r.body[0], 0x7b, `${path} ${ae}`);
    }
  });
});
