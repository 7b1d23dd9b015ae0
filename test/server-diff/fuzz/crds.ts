/**
 * The CRDs `npm run fuzz:server` installs on both servers before its random steps: varied schemas (defaults,
 * enums, int-or-string, nullable, maps, list-type map and set, CEL rules incl. a transition rule, status and
 * scale subresources, two versions with None conversion, namespaced and cluster scope).
 */

export const GROUP = "fz.example.com";

/** A fuzzed resource: where its objects live and how a valid one looks. */
export interface FuzzResource {
  crdName: string;
  plural: string;
  kind: string;
  versions: string[];
  namespaced: boolean;
  subresources: string[];
  /** The names its objects take (few, so that steps meet the objects earlier steps made). */
  names: string[];
}

export const WIDGETS: FuzzResource = {
  crdName: `widgets.${GROUP}`,
  plural: "widgets",
  kind: "Widget",
  versions: ["v1", "v2"],
  namespaced: true,
  subresources: ["status", "scale"],
  names: ["w1", "w2", "w3", "w4"],
};

export const GADGETS: FuzzResource = {
  crdName: `gadgets.${GROUP}`,
  plural: "gadgets",
  kind: "Gadget",
  versions: ["v1"],
  namespaced: false,
  subresources: [],
  names: ["g1", "g2", "g3"],
};

export const RESOURCES = [WIDGETS, GADGETS];

function widgetSchema(): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      spec: {
        type: "object",
        required: ["mode"],
        "x-kubernetes-validations": [
          { rule: "self.replicas <= 50 || self.mode == 'c'", message: "more than 50 replicas need mode c" },
          { rule: "!oldSelf.hasValue() || oldSelf.value().mode != 'c' || self.mode == 'c'", message: "mode c is final", optionalOldSelf: true },
        ],
        properties: {
          replicas: { type: "integer", minimum: 0, maximum: 100, default: 1 },
          mode: { type: "string", enum: ["a", "b", "c"], default: "a" },
          port: { "x-kubernetes-int-or-string": true, anyOf: [{ type: "integer" }, { type: "string" }] },
          note: { type: "string", nullable: true, maxLength: 20 },
          size: { type: "string", pattern: "^[smlx]+$", "x-kubernetes-validations": [{ rule: "self == oldSelf", message: "size is immutable" }] },
          ratio: { type: "number", minimum: 0, exclusiveMaximum: true, maximum: 1 },
          enabled: { type: "boolean" },
          tags: { type: "array", "x-kubernetes-list-type": "set", maxItems: 5, items: { type: "string", minLength: 1 } },
          items: {
            type: "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["name"],
            items: { type: "object", required: ["name"], properties: { name: { type: "string" }, value: { type: "integer", default: 0 } } },
          },
          labels: { type: "object", additionalProperties: { type: "string", maxLength: 8 }, maxProperties: 4 },
          level: {
            type: "integer",
            "x-kubernetes-validations": [{ rule: "self >= oldSelf", message: "level cannot go down" }],
          },
          nested: { type: "object", default: {}, properties: { deep: { type: "string", default: "d" }, when: { type: "string", format: "date-time" } } },
          free: { type: "object", "x-kubernetes-preserve-unknown-fields": true },
        },
      },
      status: {
        type: "object",
        properties: { replicas: { type: "integer" }, selector: { type: "string" }, phase: { type: "string", enum: ["Up", "Down"] } },
      },
    },
  };
}

export function widgetsCrd(): Record<string, unknown> {
  const version = (name: string, storage: boolean) => ({
    name,
    served: true,
    storage,
    schema: { openAPIV3Schema: widgetSchema() },
    subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas", labelSelectorPath: ".status.selector" } },
    additionalPrinterColumns: [
      { name: "Mode", type: "string", jsonPath: ".spec.mode" },
      { name: "Replicas", type: "integer", jsonPath: ".spec.replicas" },
    ],
  });
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: WIDGETS.crdName },
    spec: {
      group: GROUP,
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList", shortNames: ["wd"] },
      conversion: { strategy: "None" },
      versions: [version("v1", true), version("v2", false)],
    },
  };
}

export function gadgetsCrd(): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: GADGETS.crdName },
    spec: {
      group: GROUP,
      scope: "Cluster",
      names: { plural: "gadgets", singular: "gadget", kind: "Gadget" },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  properties: {
                    count: { type: "integer", format: "int32" },
                    name: { type: "string", minLength: 2 },
                    when: { type: "string", format: "date" },
                    kv: { type: "object", additionalProperties: { type: "integer" } },
                    ips: { type: "array", "x-kubernetes-list-type": "atomic", items: { type: "string", format: "ipv4" } },
                    choice: { type: "string", nullable: true, enum: ["x", "y", null] },
                    embedded: { type: "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** A valid widget spec, varied by `pick`. */
export function validWidgetSpec(i: number): Record<string, unknown> {
  return {
    replicas: i % 4,
    mode: ["a", "b", "c"][i % 3],
    port: i % 2 === 0 ? 80 : "http",
    size: "m",
    tags: ["t1", `t${i + 2}`],
    items: [{ name: "a", value: i }],
    labels: { k: "v" },
    level: i,
    ratio: 0.5,
  };
}

export function validGadgetSpec(i: number): Record<string, unknown> {
  return { count: i, name: `gd${i}`, kv: { a: i }, ips: ["10.0.0.1"], choice: "x" };
}
