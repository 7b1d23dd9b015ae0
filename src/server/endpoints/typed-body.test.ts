import assert from "node:assert/strict";
import { test } from "node:test";
import { crdResourceType } from "../registry/crd-resource.js";
import { apiextensionsScheme } from "../registry/typed-scheme.js";
import { ApiError } from "./errors.js";
import { typedBody } from "./typed-body.js";

const rt = crdResourceType();

/** The 400 message `typedBody` throws for `value`, or the decoded object. */
function decode(value: Record<string, unknown> | null): string | Record<string, unknown> {
  try {
    return typedBody(rt, apiextensionsScheme, value as never, Buffer.from(JSON.stringify(value)));
  } catch (e) {
    assert.ok(e instanceof ApiError);
    assert.equal(e.status.code, 400);
    return e.status.message;
  }
}

test("typed CRD bodies: apiVersion and kind default to the request's (gvkWithDefaults)", () => {
  assert.deepEqual(decode(null), { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition" });
  assert.deepEqual(decode({ metadata: { name: "a" } }), { metadata: { name: "a" }, apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition" });
  assert.deepEqual(decode({ apiVersion: "apiextensions.k8s.io/", kind: "" }), { apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition" });
  // A registered CRD version other than the request's decodes; the handler then answers the version mismatch.
  assert.deepEqual(decode({ apiVersion: "apiextensions.k8s.io/v1beta1", kind: "CustomResourceDefinition" }), { apiVersion: "apiextensions.k8s.io/v1beta1", kind: "CustomResourceDefinition" });
});

test("typed CRD bodies: kinds the scheme does not know, or cannot convert, as the API server answers them", () => {
  assert.equal(
    decode({ apiVersion: "apiextensions.k8s.io/v2", kind: "CustomResourceDefinition" }),
    'CustomResourceDefinition in version "v2" cannot be handled as a CustomResourceDefinition: no kind "CustomResourceDefinition" is registered for version "apiextensions.k8s.io/v2" in scheme "pkg/runtime/scheme.go:111"',
  );
  assert.equal(
    decode({ apiVersion: "apiextensions.k8s.io", kind: "CustomResourceDefinition" }),
    'CustomResourceDefinition in version "apiextensions.k8s.io" cannot be handled as a CustomResourceDefinition: no kind "CustomResourceDefinition" is registered for version "apiextensions.k8s.io" in scheme "pkg/runtime/scheme.go:111"',
  );
  assert.equal(
    decode({ apiVersion: "v1", kind: "Namespace" }),
    'Namespace in version "v1" cannot be handled as a CustomResourceDefinition: no kind "Namespace" is registered for version "v1" in scheme "pkg/runtime/scheme.go:111"',
  );
  assert.equal(
    decode({ apiVersion: "foo.example.com/v9", kind: "APIGroup" }),
    'APIGroup in version "v9" cannot be handled as a CustomResourceDefinition: converting (v1.APIGroup) to (apiextensions.CustomResourceDefinition): unknown conversion',
  );
  assert.equal(
    decode({ apiVersion: "apiextensions.k8s.io/v1beta1", kind: "ConversionReview" }),
    'ConversionReview in version "v1beta1" cannot be handled as a CustomResourceDefinition: converting (v1beta1.ConversionReview) to (apiextensions.CustomResourceDefinition): unknown conversion',
  );
  assert.equal(
    decode({ apiVersion: "v1", kind: "ListOptions" }),
    'ListOptions in version "v1" cannot be handled as a CustomResourceDefinition: converting (v1.ListOptions) to (apiextensions.CustomResourceDefinition): unknown conversion',
  );
  assert.equal(
    decode({ apiVersion: "a/b/c", kind: "CustomResourceDefinition" }),
    'the object provided is unrecognized (must be of type CustomResourceDefinition): unexpected GroupVersion string: a/b/c ({"apiVersion":"a/b/c","kind":" ...)',
  );
});
