/**
 * Every rule example of the CRD documentation ("Validation rules", "Transition rules", "Resource use by
 * validation functions"), with Kubernetes' exact messages.
 */
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JsonObject } from "../value/json-value.js";
import { crdErrors, ruleErrors } from "./test-helpers.test-util.js";

const str = { type: "string", maxLength: 64 };
const int = { type: "integer" };
// The documentation shows rules only; bounded sizes keep them within the cost limits, as on a real cluster.
const listMap = (key: string, props: Record<string, unknown>) => ({
  type: "array",
  maxItems: 10,
  "x-kubernetes-list-type": "map",
  "x-kubernetes-list-map-keys": [key],
  items: { type: "object", required: [key], properties: props },
});
const set = (items: unknown) => ({ type: "array", maxItems: 10, "x-kubernetes-list-type": "set", items });

/** The spec properties every example table row uses. */
const SPEC_PROPS = {
  minReplicas: int,
  replicas: int,
  maxReplicas: int,
  stateCounts: { type: "object", additionalProperties: int },
  list1: { type: "array", items: str },
  list2: { type: "array", items: str },
  map1: { type: "object", additionalProperties: str },
  envars: listMap("name", { name: str, value: str }),
  created: { type: "string", format: "date-time" },
  expired: { type: "string", format: "date-time" },
  ttl: { type: "string", format: "duration" },
  health: str,
  widgets: listMap("key", { key: str, foo: int }),
  intOrString: { "x-kubernetes-int-or-string": true },
  prefix: str,
  set1: set(str),
  set2: set(str),
  names: set(str),
  details: { type: "object", additionalProperties: str },
  clusters: listMap("name", { name: str }),
  primary: str,
};

function specSchema(rule: string, props: Record<string, unknown> = SPEC_PROPS): unknown {
  return { type: "object", properties: { spec: { type: "object", properties: props, "x-kubernetes-validations": [{ rule }] } } };
}

/** [rule, valid spec, invalid spec] — rows of the "Validation Rules Examples" table. */
const TABLE: [string, JsonObject, JsonObject][] = [
  ["self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas", { minReplicas: 0, replicas: 5, maxReplicas: 10 }, { minReplicas: 0, replicas: 20, maxReplicas: 10 }],
  ["'Available' in self.stateCounts", { stateCounts: { Available: 1 } }, { stateCounts: { Pending: 1 } }],
  ["(size(self.list1) == 0) != (size(self.list2) == 0)", { list1: ["a"], list2: [] }, { list1: ["a"], list2: ["b"] }],
  // the documentation writes self['MY_KEY'] (self is an object here): the map is self.map1
  ["!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')", { map1: { MY_KEY: "abc" } }, { map1: { MY_KEY: "a1" } }],
  // the documentation's rule lacks its final parenthesis
  ["self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))", { envars: [{ name: "MY_ENV", value: "abc" }] }, { envars: [{ name: "MY_ENV", value: "a-1" }] }],
  [
    "has(self.expired) && self.created + self.ttl < self.expired",
    { created: "2024-01-01T00:00:00Z", ttl: "1h", expired: "2024-01-01T02:00:00Z" },
    { created: "2024-01-01T00:00:00Z", ttl: "3h", expired: "2024-01-01T02:00:00Z" },
  ],
  ["self.health.startsWith('ok')", { health: "ok-fine" }, { health: "bad" }],
  ["self.widgets.exists(w, w.key == 'x' && w.foo < 10)", { widgets: [{ key: "x", foo: 5 }] }, { widgets: [{ key: "x", foo: 50 }] }],
  ["type(self.intOrString) == string ? self.intOrString == '100%' : self.intOrString == 1000", { intOrString: 1000 }, { intOrString: "50%" }],
  ["self.set1.all(e, !(e in self.set2))", { set1: ["a"], set2: ["b"] }, { set1: ["a"], set2: ["a"] }],
  ["size(self.names) == size(self.details) && self.names.all(n, n in self.details)", { names: ["a"], details: { a: "x" } }, { names: ["a"], details: { b: "x" } }],
  ["size(self.clusters.filter(c, c.name == self.primary)) == 1", { clusters: [{ name: "a" }], primary: "a" }, { clusters: [{ name: "a" }], primary: "b" }],
];

describe("validation rules examples table", () => {
  for (const [rule, ok, bad] of TABLE) {
    it(rule, () => {
      if (rule.includes(".filter(e")) {
        // cel-go gives the elements of a filter() result the path ["@items", ...]; Kubernetes' size
        // estimator skips the first element and looks `value` up on self's type, finds nothing, and the
        // matches() cost becomes unbounded: this rule is rejected on cost unless self has a bounded `value`.
        assert.match(crdErrors(specSchema(rule))[0] ?? "", /rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x/);
      } else assert.deepEqual(crdErrors(specSchema(rule)), []);
      assert.deepEqual(ruleErrors(specSchema(rule), { spec: ok }).errors, []);
      assert.deepEqual(ruleErrors(specSchema(rule), { spec: bad }).errors, [`spec: Invalid value: failed rule: ${rule}`]);
    });
  }
  it("metadata.name is accessible at the root", () => {
    const schema = {
      type: "object",
      properties: { spec: { type: "object", properties: { prefix: str } } },
      "x-kubernetes-validations": [{ rule: "self.metadata.name.startsWith(self.spec.prefix)" }],
    };
    assert.deepEqual(crdErrors(schema), []);
    assert.deepEqual(ruleErrors(schema, { spec: { prefix: "my-" } }).errors, []);
    assert.deepEqual(ruleErrors(schema, { spec: { prefix: "x" } }).errors, ["<nil>: Invalid value: failed rule: self.metadata.name.startsWith(self.spec.prefix)"]);
  });
  it("the documented minReplicas/replicas/maxReplicas rules with messages", () => {
    const schema = {
      type: "object",
      properties: {
        spec: {
          type: "object",
          "x-kubernetes-validations": [
            { rule: "self.minReplicas <= self.replicas", message: "replicas should be greater than or equal to minReplicas." },
            { rule: "self.replicas <= self.maxReplicas", message: "replicas should be smaller than or equal to maxReplicas." },
          ],
          properties: { minReplicas: int, replicas: int, maxReplicas: int },
          required: ["minReplicas", "replicas", "maxReplicas"],
        },
      },
    };
    assert.deepEqual(ruleErrors(schema, { spec: { minReplicas: 0, replicas: 20, maxReplicas: 10 } }).errors, [
      "spec: Invalid value: replicas should be smaller than or equal to maxReplicas.",
    ]);
  });
});

describe("rule scopes", () => {
  const cases: [string, unknown, JsonObject, string[]][] = [
    [
      "root object",
      {
        type: "object",
        "x-kubernetes-validations": [{ rule: "self.status.actual <= self.spec.maxDesired" }],
        properties: { spec: { type: "object", properties: { maxDesired: int } }, status: { type: "object", properties: { actual: int } } },
      },
      { spec: { maxDesired: 1 }, status: { actual: 2 } },
      ["<nil>: Invalid value: failed rule: self.status.actual <= self.spec.maxDesired"],
    ],
    [
      "map of objects",
      {
        type: "object",
        properties: {
          spec: {
            type: "object",
            properties: { components: { type: "object", additionalProperties: { type: "object", properties: { priority: int } } } },
            "x-kubernetes-validations": [{ rule: "self.components['Widget'].priority < 10" }],
          },
        },
      },
      { spec: { components: { Widget: { priority: 10 } } } },
      ["spec: Invalid value: failed rule: self.components['Widget'].priority < 10"],
    ],
    [
      "list of integers",
      { type: "object", properties: { spec: { type: "object", properties: { values: { type: "array", maxItems: 100, items: int } }, "x-kubernetes-validations": [{ rule: "self.values.all(value, value >= 0 && value < 100)" }] } } },
      { spec: { values: [1, 100] } },
      ["spec: Invalid value: failed rule: self.values.all(value, value >= 0 && value < 100)"],
    ],
    [
      "string",
      { type: "object", properties: { spec: { type: "object", properties: { s: { type: "string", "x-kubernetes-validations": [{ rule: "self.startsWith('kube')" }] } } } } },
      { spec: { s: "kub" } },
      ['spec.s: Invalid value: "kub": failed rule: self.startsWith(\'kube\')'],
    ],
    [
      "has() on an object, null fields are absent",
      { type: "object", properties: { spec: { type: "object", properties: { foo: { type: "integer", nullable: true } }, "x-kubernetes-validations": [{ rule: "has(self.foo)" }] } } },
      { spec: { foo: null } },
      ["spec: Invalid value: failed rule: has(self.foo)"],
    ],
    [
      "map value by key",
      { type: "object", properties: { spec: { type: "object", additionalProperties: { type: "object", properties: { foo: int } }, "x-kubernetes-validations": [{ rule: "self['xyz'].foo > 0" }] } } },
      { spec: { xyz: { foo: 0 } } },
      ["spec: Invalid value: failed rule: self['xyz'].foo > 0"],
    ],
    [
      "array size",
      { type: "object", properties: { foo: { type: "array", items: str, "x-kubernetes-validations": [{ rule: "size(self) == 1" }] } } },
      { foo: ["a", "b"] },
      ["foo: Invalid value: failed rule: size(self) == 1"],
    ],
    [
      "scalar",
      { type: "object", properties: { spec: { type: "object", properties: { foo: { type: "integer", "x-kubernetes-validations": [{ rule: "self > 0" }] } } } } },
      { spec: { foo: 0 } },
      ["spec.foo: Invalid value: 0: failed rule: self > 0"],
    ],
  ];
  for (const [name, schema, obj, want] of cases) {
    it(name, () => {
      assert.deepEqual(crdErrors(schema), []);
      assert.deepEqual(ruleErrors(schema, obj).errors, want);
    });
  }
});

describe("compilation failures from the documentation", () => {
  const P = "spec.validation.openAPIV3Schema.properties[spec].properties[x].x-kubernetes-validations[0].rule";
  const cases: [string, string][] = [
    [
      "self == true",
      `${P}: Invalid value: {"Rule":"self == true","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'\n | self == true\n | .....^`,
    ],
    [
      "has(self)",
      `${P}: Invalid value: {"Rule":"has(self)","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^`,
    ],
  ];
  for (const [rule, want] of cases) {
    it(rule, () => {
      const schema = { type: "object", properties: { spec: { type: "object", properties: { x: { type: "integer", "x-kubernetes-validations": [{ rule }] } } } } };
      assert.deepEqual(crdErrors(schema), [want]);
    });
  }
  it("self.nonExistingField > 0", () => {
    const schema = { type: "object", properties: { spec: { type: "object", properties: { x: int }, "x-kubernetes-validations": [{ rule: "self.nonExistingField > 0" }] } } };
    assert.deepEqual(crdErrors(schema), [
      `spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: {"Rule":"self.nonExistingField \\u003e 0","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:5: undefined field 'nonExistingField'\n | self.nonExistingField > 0\n | ....^`,
    ]);
  });
});

describe("property name escaping", () => {
  const cases: [string, string, unknown][] = [
    ["namespace", "self.__namespace__ > 0", 0],
    ["namespace", "self.namespace > 0", 0],
    ["x-prop", "self.x__dash__prop > 0", 0],
    ["redact__d", "self.redact__underscores__d > 0", 0],
    ["a.b/c", "self.a__dot__b__slash__c > 0", 0],
  ];
  for (const [prop, rule, bad] of cases) {
    it(`${prop}: ${rule}`, () => {
      const schema = { type: "object", properties: { spec: { type: "object", properties: { [prop]: int }, "x-kubernetes-validations": [{ rule }] } } };
      assert.deepEqual(crdErrors(schema), []);
      assert.deepEqual(ruleErrors(schema, { spec: { [prop]: 1 } }).errors, []);
      assert.deepEqual(ruleErrors(schema, { spec: { [prop]: bad } as JsonObject }).errors, [`spec: Invalid value: failed rule: ${rule}`]);
    });
  }
  it("a property name starting with a digit is not accessible", () => {
    const schema = { type: "object", properties: { spec: { type: "object", properties: { "1a": int }, "x-kubernetes-validations": [{ rule: "self.__1a__ > 0" }] } } };
    assert.match(crdErrors(schema)[0] ?? "", /undefined field '__1a__'/);
  });
});

describe("list types: equality and concatenation", () => {
  const schema = (rule: string) => ({
    type: "object",
    properties: {
      spec: {
        type: "object",
        properties: { s: set(int), m: listMap("k", { k: str, v: int }), a: { type: "array", items: int } },
        "x-kubernetes-validations": [{ rule }],
      },
    },
  });
  const spec = { s: [1, 2], m: [{ k: "a", v: 1 }, { k: "b", v: 2 }], a: [1, 2] };
  const cases: [string, boolean][] = [
    ["self.s == [2, 1]", true],
    ["self.a == [2, 1]", false],
    ["self.s + [2, 3] == [1, 2, 3]", true],
    ["(self.s + [3, 2])[2] == 3", true],
    ["self.a + [2] == [1, 2, 2]", true],
    ["self.m + [] == self.m", true],
    ["size(self.m + self.m) == 2", true],
  ];
  for (const [rule, ok] of cases) {
    it(rule, () => {
      assert.deepEqual(crdErrors(schema(rule)), []);
      assert.deepEqual(ruleErrors(schema(rule), { spec }).errors, ok ? [] : [`spec: Invalid value: failed rule: ${rule}`]);
    });
  }
  it("map lists compare by key, ignoring order", () => {
    const s = {
      type: "object",
      properties: { spec: { type: "object", properties: { m: listMap("k", { k: str, v: int }) }, "x-kubernetes-validations": [{ rule: "self.m == oldSelf.m" }] } },
    };
    const m = [{ k: "a", v: 1 }, { k: "b", v: 2 }];
    assert.deepEqual(ruleErrors(s, { spec: { m } }, { spec: { m: [m[1]!, m[0]!] } }).errors, []);
    assert.deepEqual(ruleErrors(s, { spec: { m: [{ k: "a", v: 1 }] } }, { spec: { m: [{ k: "a", v: 2 }] } }).errors, ["spec: Invalid value: failed rule: self.m == oldSelf.m"]);
  });
});

describe("transition rules examples", () => {
  const scalar = (rule: string, type = "string") => ({ type: "object", properties: { spec: { type: "object", properties: { v: { type, "x-kubernetes-validations": [{ rule }] } } } } });
  const cases: [string, unknown, JsonObject, JsonObject, string[]][] = [
    [
      "low/high with message",
      {
        type: "object",
        properties: {
          spec: {
            type: "object",
            properties: {
              v: {
                type: "string",
                enum: ["low", "medium", "high"],
                "x-kubernetes-validations": [
                  { rule: "!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')", message: "cannot transition directly between 'low' and 'high'" },
                ],
              },
            },
          },
        },
      },
      { spec: { v: "high" } },
      { spec: { v: "low" } },
      [`spec.v: Invalid value: "high": cannot transition directly between 'low' and 'high'`],
    ],
    [
      "immutability",
      { type: "object", properties: { spec: { type: "object", properties: { foo: str }, "x-kubernetes-validations": [{ rule: "self.foo == oldSelf.foo" }] } } },
      { spec: { foo: "b" } },
      { spec: { foo: "a" } },
      ["spec: Invalid value: failed rule: self.foo == oldSelf.foo"],
    ],
    ["modification once assigned", scalar("oldSelf != 'bar' || self == 'bar'"), { spec: { v: "x" } }, { spec: { v: "bar" } }, [`spec.v: Invalid value: "x": failed rule: oldSelf != 'bar' || self == 'bar'`]],
    [
      "removal once assigned",
      { type: "object", properties: { spec: { type: "object", properties: { field: str }, "x-kubernetes-validations": [{ rule: "!has(oldSelf.field) || has(self.field)" }] } } },
      { spec: {} },
      { spec: { field: "a" } },
      ["spec: Invalid value: failed rule: !has(oldSelf.field) || has(self.field)"],
    ],
    [
      "append-only set",
      { type: "object", properties: { spec: { type: "object", properties: { s: { ...set(str), "x-kubernetes-validations": [{ rule: "self.all(element, element in oldSelf)" }] } } } } },
      { spec: { s: ["a", "c"] } },
      { spec: { s: ["a", "b"] } },
      ["spec.s: Invalid value: failed rule: self.all(element, element in oldSelf)"],
    ],
    ["X to A or B only", scalar("oldSelf != 'X' || self in ['A', 'B']"), { spec: { v: "Y" } }, { spec: { v: "X" } }, [`spec.v: Invalid value: "Y": failed rule: oldSelf != 'X' || self in ['A', 'B']`]],
    ["monotonic counter", scalar("self >= oldSelf", "integer"), { spec: { v: 1 } }, { spec: { v: 2 } }, ["spec.v: Invalid value: 1: failed rule: self >= oldSelf"]],
  ];
  for (const [name, schema, obj, old, want] of cases) {
    it(name, () => {
      assert.deepEqual(crdErrors(schema), []);
      assert.deepEqual(ruleErrors(schema, obj, old).errors, want);
      // never on create, nor when the old value is absent
      assert.deepEqual(ruleErrors(schema, obj).errors, []);
      // without an old value at the rule's node the rule is skipped; on spec, the old object lacks the field
      const absent = name === "immutability" ? ['spec: Invalid value: "object": no such key: foo evaluating rule: self.foo == oldSelf.foo'] : [];
      assert.deepEqual(ruleErrors(schema, obj, { spec: {} }).errors, absent);
      // an unchanged value passes (transition rules are not ratcheted: X -> X is still refused)
      const same = name === "X to A or B only" ? [`spec.v: Invalid value: "X": failed rule: oldSelf != 'X' || self in ['A', 'B']`] : [];
      assert.deepEqual(ruleErrors(schema, old, old).errors, same);
    });
  }
});

describe("resource use by validation functions", () => {
  const P = "spec.validation.openAPIV3Schema";
  const BUDGET = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";
  it("self.all(x, x.contains('a string')) without limits is rejected", () => {
    const schema = { type: "object", properties: { spec: { type: "object", properties: { foo: { type: "array", items: { type: "string" }, "x-kubernetes-validations": [{ rule: "self.all(x, x.contains('a string'))" }] } } } } };
    assert.deepEqual(crdErrors(schema), [
      `${P}.properties[spec].properties[foo].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${BUDGET}`,
      `${P}.properties[spec].properties[foo].x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${P}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${BUDGET}`,
    ]);
  });
  it("with maxItems 25 and maxLength 10 it is accepted", () => {
    const schema = { type: "object", properties: { spec: { type: "object", properties: { foo: { type: "array", maxItems: 25, items: { type: "string", maxLength: 10 }, "x-kubernetes-validations": [{ rule: "self.all(x, x.contains('a string'))" }] } } } } };
    assert.deepEqual(crdErrors(schema), []);
  });
  it("the same rule on the items is accepted", () => {
    const schema = { type: "object", properties: { spec: { type: "object", properties: { foo: { type: "array", maxItems: 25, items: { type: "string", maxLength: 10, "x-kubernetes-validations": [{ rule: "self.contains('a string')" }] } } } } } };
    assert.deepEqual(crdErrors(schema), []);
  });
  it("self.all(x, x == 5) on a list of integers is accepted without limits", () => {
    const schema = { type: "object", properties: { foo: { type: "array", items: int, "x-kubernetes-validations": [{ rule: "self.all(x, x == 5)" }] } } };
    assert.deepEqual(crdErrors(schema), []);
  });
  it("the same rule on a nested list is rejected", () => {
    const schema = { type: "object", properties: { foo: { type: "array", items: { type: "array", items: int, "x-kubernetes-validations": [{ rule: "self.all(x, x == 5)" }] } } } };
    assert.deepEqual(crdErrors(schema), [
      `${P}.properties[foo].items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${BUDGET}`,
      `${P}.properties[foo].items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
      `${P}: Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${BUDGET}`,
    ]);
  });
});
