import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { toOpenApiV2Schema } from "../../src/server/openapi/openapi-v2.js";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widgetCrd } from "./client.js";

describe("OpenAPI v2 (Kubernetes' lossy v3→v2 conversion)", () => {
  it("drops what Swagger 2.0 cannot say, as ToStructuralOpenAPIV2", () => {
    assert.deepEqual(
      toOpenApiV2Schema({
        type: "object",
        required: ["a", "b"],
        properties: {
          a: { type: "string", nullable: true },
          b: { type: "array" },
          c: { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { x: { type: "string" } } },
          d: { anyOf: [{ type: "integer" }, { type: "string" }], "x-kubernetes-int-or-string": true },
          e: { type: "object", nullable: true, properties: { y: { type: "string" } } },
          f: { allOf: [{ $ref: "#/components/schemas/x" }], description: "d" },
          g: { type: "string", enum: ["a", null] },
        },
        oneOf: [{ required: ["a"] }],
        not: { required: ["c"] },
      }),
      {
        type: "object",
        required: ["b"],
        properties: {
          a: {},
          b: {},
          c: { "x-kubernetes-preserve-unknown-fields": true },
          d: { "x-kubernetes-int-or-string": true },
          e: {},
          f: { $ref: "#/components/schemas/x", description: "d" },
          g: { type: "string", enum: ["a", null] },
        },
      },
    );
    assert.deepEqual(toOpenApiV2Schema({ type: "object", additionalProperties: { type: "string", nullable: true }, required: ["k"] }), {
      type: "object",
      additionalProperties: {},
    });
  });

  let s: RunningServer;
  before(async () => {
    s = await startServer({ port: 0 });
    assert.equal((await api(s.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
  });
  after(() => s.close());

  it("serves every group version's paths and definitions in one Swagger 2.0 document", async () => {
    const r = await api(s.url, "GET", "/openapi/v2");
    assert.equal(r.status, 200);
    assert.equal(r.json.swagger, "2.0");
    const w = r.json.definitions["com.example.test.v1.Widget"];
    assert.deepEqual(w["x-kubernetes-group-version-kind"], [{ group: "test.example.com", kind: "Widget", version: "v1" }]);
    assert.equal(w.properties.metadata.$ref, "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta");
    assert.ok(r.json.definitions["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"]);
    const get = r.json.paths["/apis/test.example.com/v1/namespaces/{namespace}/widgets/{name}"].get;
    assert.equal(get.responses["200"].schema.$ref, "#/definitions/com.example.test.v1.Widget");
    const put = r.json.paths["/apis/test.example.com/v1/namespaces/{namespace}/widgets/{name}"].put;
    assert.equal(put.parameters[0].in, "body");
    assert.ok(r.json.paths["/apis/apiextensions.k8s.io/v1/customresourcedefinitions"]);
    assert.ok(!JSON.stringify(r.json).includes("#/components/schemas/"));
  });
});
