/**
 * Schema shapes the k8s fuzzer's base generator never writes but CRDs of the corpus do (`fuzz:k8s --shapes
 * P`), applied to P% of the schema nodes as they are generated, from a second random stream (a seed's
 * cases without the flag stay the same; with it the objects follow the changed schemas):
 *
 * - int-or-string with a default (`default: 1`, `default: "25%"`), as Deployment-like `maxSurge` fields;
 * - list maps keyed by two fields, one of them defaulted (`[containerPort, protocol]` with
 *   `protocol: {default: TCP}`), and an integer key;
 * - `x-kubernetes-preserve-unknown-fields` on array items (with or without a type);
 * - embedded resources with CEL rules over `apiVersion`, `kind` and `metadata.name`;
 * - object rules with `messageExpression`, `fieldPath` and `reason`, and a transition rule (`oldSelf`);
 * - map rules over keys (`self.all(k, ...)`);
 * - `default: {}` on objects, so that their properties' defaults apply.
 */
import { Float64, type JsonObject, type JsonValue } from "../../src/value/json-value.js";
import type { Rng } from "./rng.js";

function isObj(v: JsonValue | undefined): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Float64);
}

const REASONS = ["FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate"];

/** Changes schema node `s` to one of the shapes above that fits it, with probability `percent`%. */
export function applyShape(r: Rng, s: JsonObject, percent: number): void {
  if (r.int(1, 100) > percent) return;
  if (s["x-kubernetes-int-or-string"] === true) {
    s["default"] = r.pick<JsonValue>([1, 0, "25%", "x", "10"]);
    return;
  }
  if (s["x-kubernetes-embedded-resource"] === true) {
    s["x-kubernetes-validations"] = [
      r.pick<JsonObject>([
        { rule: "self.kind != 'Thing'", message: "no things" },
        { rule: "self.apiVersion.startsWith('v') || self.apiVersion.contains('/')" },
        { rule: "!has(self.metadata.name) || self.metadata.name.size() < 6", messageExpression: "'name too long: ' + self.metadata.name" },
        { rule: "self.kind == oldSelf.kind", message: "kind is immutable" },
      ]),
    ];
    return;
  }
  const type = s["type"];
  const listType = s["x-kubernetes-list-type"];
  if (type === "array" && listType === "map") {
    const items = s["items"] as JsonObject;
    const props = items["properties"] as JsonObject;
    if (r.chance(0.5)) {
      props["protocol"] = { type: "string", default: "TCP", enum: ["TCP", "UDP"] };
      s["x-kubernetes-list-map-keys"] = ["key", "protocol"];
    } else {
      props["port"] = { type: "integer", minimum: 1 };
      items["required"] = ["key", "port"];
      s["x-kubernetes-list-map-keys"] = ["port"];
    }
    return;
  }
  if (type === "array" && listType === undefined) {
    s["items"] = r.pick<JsonObject>([
      { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      { type: "object", "x-kubernetes-preserve-unknown-fields": true, properties: { name: { type: "string", maxLength: 5 } } },
      { "x-kubernetes-preserve-unknown-fields": true },
    ]);
    return;
  }
  if (type === "object" && isObj(s["additionalProperties"])) {
    s["x-kubernetes-validations"] = [
      r.pick<JsonObject>([
        { rule: "self.all(k, k.size() <= 2)", message: "short keys" },
        { rule: "self.size() <= 2", messageExpression: "'too many: ' + string(self.size())" },
      ]),
    ];
    return;
  }
  const props = s["properties"];
  if (type === "object" && isObj(props)) {
    const names = Object.keys(props);
    const a = r.pick(names);
    const b = r.pick(names);
    const roll = r.int(0, 2);
    if (roll === 0) s["default"] = {};
    else if (roll === 1) {
      const rule: JsonObject = { rule: `has(self.${a}) || !has(self.${b})`, messageExpression: `'${a} is required with ${b}'` };
      if (r.chance(0.7)) rule["fieldPath"] = `.${a}`;
      if (r.chance(0.5)) rule["reason"] = r.pick(REASONS);
      s["x-kubernetes-validations"] = [rule];
    } else {
      s["x-kubernetes-validations"] = [{ rule: `!has(oldSelf.${a}) || has(self.${a})`, message: `${a} cannot be removed` }];
    }
  }
}
