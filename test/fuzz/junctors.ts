/**
 * Value validations under logical junctors (`allOf`, `anyOf`, `oneOf`, `not`) for the k8s fuzzer
 * (`fuzz:k8s --junctors P`), as CRDs of the corpus write them (mutually exclusive fields as
 * `oneOf: [{required: [a]}, {required: [b]}]`, alternative bounds), plus now and then a junctor that a
 * structural schema forbids (a `type` or `default` inside), which both sides must reject alike.
 */
import { Float64, type JsonObject, type JsonValue } from "../../src/value/json-value.js";
import type { Rng } from "./rng.js";

const JUNCTORS = ["allOf", "anyOf", "oneOf"] as const;

function isObj(v: JsonValue | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Float64);
}

/** Alternatives for a node of type `t` (value validations only). */
function alternatives(r: Rng, s: JsonObject): JsonObject[] | undefined {
  switch (s["type"]) {
    case "string":
      return r.pick<JsonObject[]>([
        [{ minLength: 3 }, { pattern: "^x" }],
        [{ maxLength: 2 }, { enum: ["abc", "héllo"] }],
        [{ format: "date" }, { format: "uuid" }],
        [{ pattern: "^[a-z]+$" }],
      ]);
    case "integer":
    case "number":
      return r.pick<JsonObject[]>([
        [{ minimum: 5 }, { maximum: -5 }],
        [{ multipleOf: 2 }, { multipleOf: 3 }],
        [{ maximum: 10, exclusiveMaximum: true }],
        [{ enum: [1, 2, 3] }, { minimum: 100 }],
      ]);
    case "array":
      return r.pick<JsonObject[]>([[{ maxItems: 1 }, { minItems: 3 }], [{ uniqueItems: false }]]);
    case "object": {
      const props = s["properties"];
      const names = isObj(props) ? Object.keys(props) : [];
      if (names.length === 0) return r.pick<JsonObject[]>([[{ minProperties: 2 }, { maxProperties: 0 }]]);
      const a = r.pick(names);
      const b = r.pick(names);
      return r.pick<JsonObject[]>([
        [{ required: [a] }, { required: [b] }],
        [{ required: [a, b] }],
        [{ properties: { [a]: { description: "x" } }, required: [a] }],
      ]);
    }
    default:
      return undefined;
  }
}

/** Adds a junctor to `s` (and recursively to its children) with probability `percent`. */
function visit(r: Rng, s: JsonObject, percent: number): void {
  if (r.int(1, 100) <= percent) {
    const alts = alternatives(r, s);
    if (alts !== undefined) {
      const roll = r.int(0, 9);
      if (roll === 0) s["not"] = alts[0]!;
      else if (roll === 1) s[r.pick(JUNCTORS)] = [...alts, r.pick<JsonObject>([{ type: "string" }, { default: 1 }, { nullable: true }])];
      else s[r.pick(JUNCTORS)] = alts;
    }
  }
  const props = s["properties"];
  if (isObj(props)) for (const v of Object.values(props)) if (isObj(v)) visit(r, v, percent);
  const items = s["items"];
  if (isObj(items)) visit(r, items, percent);
  const ap = s["additionalProperties"];
  if (isObj(ap)) visit(r, ap, percent);
}

/** The CRD's `spec` schema with junctors added at `percent`% of its nodes. */
export function withJunctors(r: Rng, crd: JsonObject, percent: number): void {
  const versions = (crd["spec"] as JsonObject)["versions"] as JsonObject[];
  const root = ((versions[0]!["schema"] as JsonObject)["openAPIV3Schema"] as JsonObject)["properties"] as JsonObject;
  visit(r, root["spec"] as JsonObject, percent);
}
