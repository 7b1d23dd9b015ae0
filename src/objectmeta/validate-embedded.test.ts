import * as assert from "node:assert/strict";
import { test } from "node:test";
import { errorString } from "../errors/field-error.js";
import { parseGoJson } from "../io/json-decode.js";
import { st } from "../prune/structural-builder.js";
import { validateEmbedded } from "./validate-embedded.js";

const DNS1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

// schema/objectmeta/validation_test.go TestValidateEmbeddedResource (6 cases, full messages)
const embeddedCases: [string, string, string[]][] = [
  ["empty", `{}`, ["apiVersion: Required value", "kind: Required value"]],
  ["version and kind", `{"apiVersion":"foo/v1","kind":"Foo"}`, []],
  [
    "invalid kind",
    `{"apiVersion":"foo/v1","kind":"foo.bar-com"}`,
    [`kind: Invalid value: "foo.bar-com": may have mixed case, but should otherwise match: ${DNS1035}`],
  ],
  ["no name", `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"namespace":"kube-system"}}`, []],
  ["no namespace", `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"foo"}}`, []],
  [
    "invalid",
    `{"apiVersion":"foo/v1","kind":"Foo","metadata":{"name":"..","namespace":"$$$","labels":{"#":"#"},"annotations":{"#":"#"}}}`,
    [
      `metadata.name: Invalid value: "..": may not be '..'`,
      `metadata.namespace: Invalid value: "$$$": ${DNS1123_LABEL}`,
      `metadata.labels: Invalid value: "#": ${NAME_PART}`,
      `metadata.labels: Invalid value: "#": ${LABEL_VALUE}`,
      `metadata.annotations: Invalid value: "#": ${NAME_PART}`,
    ],
  ],
];
for (const [name, json, want] of embeddedCases) {
  test(`TestValidateEmbeddedResource: ${name}`, () => {
    const errs = validateEmbedded(null, parseGoJson(json), st({ embeddedResource: true }), false);
    assert.deepEqual(errs.map(errorString), want);
  });
}

// schema/objectmeta/validation_test.go TestValidate (6 cases)
const schema = st({
  properties: {
    embedded: st({ embeddedResource: true }),
    nested: st({ embeddedResource: true, properties: { embedded: st({ embeddedResource: true }) } }),
    items: st({ items: st({ embeddedResource: true }) }),
    additionalProperties: st({ additionalProperties: st({ embeddedResource: true }) }),
  },
});
const req = (p: string) => [`${p}.apiVersion: Required value`, `${p}.kind: Required value`];
const validateCases: [string, string, boolean, string[]][] = [
  ["empty", `{}`, false, []],
  ["include root", `{}`, true, ["apiVersion: Required value", "kind: Required value"]],
  ["embedded", `{"embedded":{}}`, false, req("embedded")],
  ["nested", `{"nested":{"embedded":{}}}`, false, [...req("nested"), ...req("nested.embedded")]],
  ["items", `{"items":[{}]}`, false, req("items[0]")],
  ["additionalProperties", `{"additionalProperties":{"foo":{}}}`, false, req("additionalProperties[foo]")],
];
for (const [name, json, root, want] of validateCases) {
  test(`TestValidate: ${name}`, () => {
    assert.deepEqual(validateEmbedded(null, parseGoJson(json), schema, root).map(errorString), want);
  });
}

test("apiVersion and kind value checks", () => {
  const e = st({ properties: { e: st({ embeddedResource: true }) } });
  const run = (json: string) => validateEmbedded(null, parseGoJson(json), e, false).map(errorString);
  assert.deepEqual(run(`{"e":{"apiVersion":"a/b/c","kind":"Foo"}}`), [
    `e.apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
  ]);
  assert.deepEqual(run(`{"e":{"apiVersion":"","kind":""}}`), [
    `e.apiVersion: Invalid value: "": must not be empty`,
    `e.kind: Invalid value: "": must not be empty`,
  ]);
  assert.deepEqual(run(`{"e":{"apiVersion":1,"kind":true}}`), [
    "e.apiVersion: Invalid value: 1: must be a string",
    "e.kind: Invalid value: true: must be a string",
  ]);
  assert.deepEqual(run(`{"e":{"apiVersion":"v1","kind":"K","metadata":{"generateName":"a/b","finalizers":["x"]}}}`), [
    `e.metadata.generateName: Invalid value: "a/b": may not contain '/'`,
  ]);
  assert.deepEqual(run(`{"e":{"apiVersion":"v1","kind":"K","metadata":{"labels":{"a":1}}}}`), [
    `e.metadata: Invalid value: {"labels":{"a":1}}: json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string`,
  ]);
});
