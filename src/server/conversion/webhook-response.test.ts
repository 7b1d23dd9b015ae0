/** Decoding a conversion webhook's HTTP answer as client-go's REST client does. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { goDurationMs } from "./webhook-client.js";
import { convertedObject, decodeWebhookAnswer, genericServerResponse } from "./webhook-response.js";

const answer = (status: number, contentType: string, body: string) => ({ status, contentType, body: Buffer.from(body) });

describe("webhook answers", () => {
  it("renders non-2xx answers as NewGenericServerResponse, preferring a Status in the body", () => {
    assert.deepEqual(decodeWebhookAnswer(answer(404, "text/plain", "no\n"), "v1"), { ok: false, message: "the server could not find the requested resource" });
    assert.deepEqual(decodeWebhookAnswer(answer(502, "", "bad gateway"), "v1"), {
      ok: false,
      message: 'an error on the server ("bad gateway") has prevented the request from succeeding',
    });
    assert.deepEqual(decodeWebhookAnswer(answer(500, "application/json", "{}"), "v1"), {
      ok: false,
      message: 'an error on the server ("unknown") has prevented the request from succeeding',
    });
    assert.deepEqual(decodeWebhookAnswer(answer(500, "application/json", '{"kind":"Status","status":"Failure","message":"nope"}'), "v1"), { ok: false, message: "nope" });
    assert.equal(genericServerResponse(418, ""), "the server responded with the status code 418 but did not return more information");
  });

  it("decodes JSON and YAML reviews and refuses other media types", () => {
    const review = "apiVersion: apiextensions.k8s.io/v1\nkind: ConversionReview\nresponse: {uid: x}\n";
    assert.deepEqual(decodeWebhookAnswer(answer(200, "application/yaml", review), "v1"), {
      ok: true,
      review: { apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview", response: { uid: "x" } },
    });
    assert.deepEqual(decodeWebhookAnswer(answer(200, "text/html; charset=utf-8", "<html>"), "v1"), { ok: false, message: "serializer for text/html; charset=utf-8 doesn't exist" });
    assert.deepEqual(decodeWebhookAnswer(answer(200, "application/json", '{"apiVersion":"v1"}'), "v1"), { ok: false, message: `Object 'Kind' is missing in '{"apiVersion":"v1"}'` });
    assert.deepEqual(decodeWebhookAnswer(answer(200, "application/json", '{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview"}'), "v1beta1"), {
      ok: false,
      message: "converting (v1.ConversionReview) to (v1beta1.ConversionReview): unknown conversion",
    });
  });

  it("checks converted objects as unstructured.UnmarshalJSON", () => {
    assert.deepEqual(convertedObject("x"), { ok: false, message: "json: cannot unmarshal string into Go value of type map[string]interface {}" });
    assert.deepEqual(convertedObject(null), { ok: false, message: "Object 'Kind' is missing in 'null'" });
    assert.deepEqual(convertedObject({ kind: "A" }), { ok: true, obj: { kind: "A" } });
  });

  it("prints timeouts as Go durations", () => {
    assert.deepEqual([0, 300, 30_000, 90_000, 1_500, 3_600_000].map(goDurationMs), ["0s", "300ms", "30s", "1m30s", "1.5s", "1h0m0s"]);
  });
});
