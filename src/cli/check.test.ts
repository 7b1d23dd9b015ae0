/** `crdkit check`: exit codes, JSON and text output with source positions, --old, stdin-free file I/O. */
import { strict as assert } from "node:assert";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { documentPath, runCheck } from "./check.js";

const dir = mkdtempSync(join(tmpdir(), "crdkit-check-"));

const good = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: foos.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: foos, kind: Foo}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: string, format: foo}
`;

const bad = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: bars.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: bars, kind: Bar}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            properties:
              size: {type: string}
`;

function write(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s), isTTY: false }, out, err };
}

test("crdkit check: valid CRD → exit 0, warnings shown", async () => {
  const c = capture();
  const code = await runCheck([write("good.yaml", good)], c.io);
  assert.equal(code, 0);
  assert.match(c.out.join(""), /good\.yaml:1:1: warning: foos\.example\.com: unrecognized format "foo"/);
  assert.match(c.out.join(""), /Summary: 1 CustomResourceDefinition: 1 valid, 0 invalid, 0 other documents skipped/);
});

test("crdkit check -o json: invalid CRD → exit 1 with the error position of the schema node", async () => {
  const c = capture();
  const f = write("multi.yaml", `${good}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n${bad}`);
  const code = await runCheck(["-o", "json", f], c.io);
  assert.equal(code, 1);
  const j = JSON.parse(c.out.join(""));
  assert.equal(j.results.length, 2);
  assert.deepEqual(j.summary, { crds: 2, valid: 1, invalid: 1, skipped: 1 });
  const r = j.results[1];
  assert.equal(r.index, 2);
  assert.equal(r.name, "bars.example.com");
  assert.equal(r.valid, false);
  assert.deepEqual(r.errors, [
    {
      type: "FieldValueRequired",
      field: "spec.validation.openAPIV3Schema.properties[spec].type",
      message: "spec.validation.openAPIV3Schema.properties[spec].type: Required value: must not be empty for specified object fields",
      line: 43,
      column: 13,
    },
  ]);
});

test("crdkit check --old: validated as an update", async () => {
  const c = capture();
  const renamed = good.replace("group: example.com", "group: example.org");
  const code = await runCheck(["-o", "json", "--old", write("old.yaml", good), write("new.yaml", renamed)], c.io);
  assert.equal(code, 1);
  const j = JSON.parse(c.out.join(""));
  assert.equal(j.results[0].operation, "update");
  assert.deepEqual(
    j.results[0].errors.map((e: { message: string }) => e.message),
    // On update the name function is not run (metadata.name only has to stay unchanged).
    ['spec.group: Invalid value: "example.org": field is immutable'],
  );
});

test("crdkit check: unknown fields fail in Strict mode, warn in Warn mode", async () => {
  const f = write("typo.yaml", good.replace("    served: true\n", "    served: true\n    serverd: true\n"));
  const c = capture();
  assert.equal(await runCheck(["-o", "json", f], c.io), 1);
  const e = JSON.parse(c.out.join("")).results[0].errors[0];
  assert.equal(e.type, "UnknownField");
  assert.equal(e.message, 'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: strict decoding error: unknown field "spec.versions[0].serverd"');
  assert.equal(e.line, 12);
  const w = capture();
  assert.equal(await runCheck(["--field-validation", "Warn", f], w.io), 0);
  assert.match(w.out.join(""), /warning: foos\.example\.com: unknown field "spec\.versions\[0\]\.serverd"/);
});

test("crdkit check: bad input gives clear errors", async () => {
  const c = capture();
  assert.equal(await runCheck(["-o", "json", write("wrongapi.yaml", good.replace("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v2"))], c.io), 1);
  assert.match(JSON.parse(c.out.join("")).results[0].errors[0].message, /no matches for kind "CustomResourceDefinition" in version "apiextensions.k8s.io\/v2"/);
  const t = capture();
  assert.equal(await runCheck(["-o", "json", write("types.yaml", good.replace("storage: true", "storage: yes please"))], t.io), 1);
  assert.equal(
    JSON.parse(t.out.join("")).results[0].errors[0].message,
    'CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal string into Go struct field CustomResourceDefinitionVersion.spec.versions.storage of type bool',
  );
  const n = capture();
  assert.equal(await runCheck([write("none.yaml", "apiVersion: v1\nkind: ConfigMap\n")], n.io), 2);
  assert.match(n.err.join(""), /no CustomResourceDefinition found/);
  const m = capture();
  assert.equal(await runCheck([join(dir, "missing.yaml")], m.io), 2);
  const u = capture();
  assert.equal(await runCheck(["-o", "xml", "x"], u.io), 2);
  assert.equal(await runCheck([], u.io), 2);
});

test("error paths map to the document: hoisted fields live in spec.versions[0]", () => {
  assert.equal(documentPath("spec.validation.openAPIV3Schema.properties[a].type", "apiextensions.k8s.io/v1"), "spec.versions[0].schema.openAPIV3Schema.properties[a].type");
  assert.equal(documentPath("spec.additionalPrinterColumns[1].JSONPath", "apiextensions.k8s.io/v1"), "spec.versions[0].additionalPrinterColumns[1].jsonPath");
  assert.equal(documentPath("spec.conversion.webhookClientConfig.url", "apiextensions.k8s.io/v1"), "spec.conversion.webhook.clientConfig.url");
  assert.equal(documentPath("spec.versions[1].schema.openAPIV3Schema", "apiextensions.k8s.io/v1"), "spec.versions[1].schema.openAPIV3Schema");
  assert.equal(documentPath("spec.validation.openAPIV3Schema", "apiextensions.k8s.io/v1beta1"), "spec.validation.openAPIV3Schema");
});
