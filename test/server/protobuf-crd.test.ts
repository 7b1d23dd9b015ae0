/**
 * client-go's protobuf request bodies (its clientsets' default content type for CustomResourceDefinitions and
 * DeleteOptions) decode to the JSON the same client would have sent: every fixture of
 * test/server/fixtures/protobuf-bodies.json holds both, written by client-go's own encoders
 * (`tools/controller-e2e --protobuf-fixtures`: the widget CRD controller-e2e installs, a CRD with every field of
 * every message set — pointers to zero values, `JSONSchemaPropsOrArray` / `OrBool` / `OrStringArray` in each form,
 * raw JSON defaults and enums, integral and exponent floats —, an empty CRD, DeleteOptions).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parseGoJson } from "../../src/io/json-decode.js";
import { decodeProtobufBody, protobufDeleteOptions, protobufRequestBody } from "../../src/server/endpoints/protobuf-body.js";
import { ApiError } from "../../src/server/endpoints/errors.js";
import { deepEqual } from "../../src/value/json-value.js";

const fixtures = JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", "protobuf-bodies.json"), "utf8")) as { name: string; protobuf: string; json: string }[];

for (const f of fixtures) {
  test(`protobuf body decodes to client-go's JSON: ${f.name}`, () => {
    const body = Buffer.from(f.protobuf, "base64");
    const want = parseGoJson(f.json);
    const got = f.name.includes("DeleteOptions") ? protobufDeleteOptions(body) : decodeProtobufBody(body);
    assert.ok(deepEqual(got, want), `decoded:\n${JSON.stringify(got)}\nclient-go's JSON:\n${f.json}`);
  });
}

test("a CRD body cut short or without the prefix is the handler's 400, as the API server words it", () => {
  const body = Buffer.from(fixtures[0]!.protobuf, "base64");
  const message = (b: Buffer) => {
    try {
      protobufRequestBody(b, "CustomResourceDefinition");
    } catch (e) {
      assert.ok(e instanceof ApiError);
      return e.status.message;
    }
    assert.fail("decoded");
  };
  assert.equal(
    message(body.subarray(0, 40)),
    "the object provided is unrecognized (must be of type CustomResourceDefinition): unexpected EOF (6b3873000a330a17617069657874656e73696f6e732e6b38732e696f2f76 ...)",
  );
  assert.match(message(Buffer.from('{"kind":"CustomResourceDefinition"}')), /expected prefix \[107 56 115 0\] \(\{"kind":"CustomResourceDefinit \.\.\.\)$/);
});

test("a deeply nested protobuf schema is refused, not a stack overflow", () => {
  // JSONSchemaProps.not (field 28) nested 100,000 times inside the CRD's spec.versions[0].schema.openAPIV3Schema
  let props: Buffer = Buffer.alloc(0);
  const field = (no: number, payload: Buffer) => Buffer.concat([varint((no << 3) | 2), varint(payload.length), payload]);
  for (let i = 0; i < 100_000; i++) props = field(28, props);
  const crd = field(2, field(7, field(4, field(1, props))));
  const envelope = Buffer.concat([Buffer.from([0x6b, 0x38, 0x73, 0]), field(1, Buffer.concat([field(1, Buffer.from("apiextensions.k8s.io/v1")), field(2, Buffer.from("CustomResourceDefinition"))])), field(2, crd)]);
  assert.throws(() => protobufRequestBody(envelope, "CustomResourceDefinition"), (e: unknown) => e instanceof ApiError && e.status.code === 400);
});

function varint(n: number): Buffer {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 127) | 128);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
}
