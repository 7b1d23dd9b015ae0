/**
 * Random structural schemas and objects for the differential fuzzer (scripts/fuzz-k8s.ts): valid
 * CRDs with a random `spec` schema (types, bounds, formats, enums, defaults, nullable, list types,
 * int-or-string, preserve-unknown-fields, a few CEL rules) and objects that are valid or nearly valid
 * (wrong types, out-of-range values, unknown fields, nulls, duplicates in sets, missing required keys).
 */
import { Float64, type JsonObject, type JsonValue } from "../../src/value/json-value.js";
import type { Rng } from "./rng.js";

export type Schema = JsonObject;

export interface FuzzCase {
  id: string;
  operation: "create" | "update" | "status";
  fieldValidation: "Strict" | "Warn" | "Ignore";
  crd: JsonObject;
  object: JsonValue;
  oldObject?: JsonValue;
}

const FORMATS = ["", "", "", "date", "date-time", "uuid", "ipv4", "ipv6", "cidr", "hostname", "email", "byte", "duration", "mac", "uri"];
const FORMAT_SAMPLES: Record<string, string[]> = {
  date: ["2024-01-31", "2024-02-30", "x"],
  "date-time": ["2024-01-01T00:00:00Z", "2024-01-01", "nope"],
  uuid: ["123e4567-e89b-12d3-a456-426614174000", "123"],
  ipv4: ["10.1.2.3", "300.1.1.1"],
  ipv6: ["::1", "1::2::3"],
  cidr: ["10.0.0.0/8", "10.0.0.0"],
  hostname: ["a.example.com", "-x-"],
  email: ["a@b.c", "nope"],
  byte: ["aGk=", "!!"],
  duration: ["5m", "5x"],
  mac: ["00:11:22:33:44:55", "00:11"],
  uri: ["https://x/y", "::"],
};
const WORDS = ["a", "b", "abc", "x-y", "Zed", "", "héllo", "12", "long-string-value", "a b", "日本語", "😀x", "a\u0000b", "<&>"];
const LABEL_KEYS = ["app", "example.com/tier", "-bad", "a".repeat(64), "x/y/z", "kubernetes.io/name"];
const LABEL_VALUES = ["v", "", "has space", "v".repeat(64), "ok.value-1", "-x"];
const FINALIZERS = ["example.com/f", "nodomain", "has.dot", "kubernetes", "Bad Name", "orphan"];

function fieldName(rng: Rng, i: number): string {
  return rng.pick(["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "name", "value"]) + (i > 0 ? String(i) : "");
}

/** Changes a freshly generated schema node (`fuzz:k8s --shapes`, test/fuzz/shapes.ts). */
export type ShapeHook = (s: Schema) => void;

/** A random schema node (depth-limited); `shape` is called on every node once it is complete. */
export function genSchema(rng: Rng, depth: number, shape?: ShapeHook): Schema {
  const kinds =
    depth <= 0
      ? ["string", "integer", "number", "boolean", "ios"]
      : ["string", "integer", "number", "boolean", "ios", "object", "object", "array", "array", "map", "embedded"];
  const k = rng.pick(kinds);
  const s: Schema = {};
  switch (k) {
    case "string": {
      s["type"] = "string";
      if (rng.chance(0.3)) s["maxLength"] = rng.int(0, 8);
      if (rng.chance(0.2)) s["minLength"] = rng.int(0, 3);
      if (rng.chance(0.15)) s["pattern"] = rng.pick(["^[a-z]+$", "[0-9]", "^a", "x$", "^\\w*$"]);
      if (rng.chance(0.15)) s["enum"] = ["a", "b", "abc"];
      const f = rng.pick(FORMATS);
      if (f && rng.chance(0.5)) s["format"] = f;
      break;
    }
    case "integer":
      s["type"] = "integer";
      if (rng.chance(0.3)) s["maximum"] = rng.int(-5, 50);
      if (rng.chance(0.3)) s["minimum"] = rng.int(-50, 5);
      if (rng.chance(0.15)) s["exclusiveMaximum"] = true;
      if (rng.chance(0.15)) s["multipleOf"] = rng.int(2, 5);
      if (rng.chance(0.15)) s["format"] = rng.pick(["int32", "int64"]);
      if (rng.chance(0.1)) s["enum"] = [1, 2, 3];
      break;
    case "number":
      s["type"] = "number";
      if (rng.chance(0.3)) s["maximum"] = rng.pick([1.5, 10, 100.25]);
      if (rng.chance(0.3)) s["minimum"] = rng.pick([-1.5, 0, 2]);
      if (rng.chance(0.15)) s["exclusiveMinimum"] = true;
      if (rng.chance(0.1)) s["multipleOf"] = rng.pick([0.5, 2]);
      break;
    case "boolean":
      s["type"] = "boolean";
      break;
    case "ios":
      s["x-kubernetes-int-or-string"] = true;
      if (rng.chance(0.3)) {
        s["anyOf"] = [{ type: "integer" }, { type: "string" }];
        if (rng.chance(0.5)) s["pattern"] = "^[0-9]+%?$";
      }
      break;
    case "object": {
      s["type"] = "object";
      const props: JsonObject = {};
      const n = rng.int(1, 4);
      for (let i = 0; i < n; i++) props[fieldName(rng, i)] = genSchema(rng, depth - 1, shape);
      s["properties"] = props;
      const names = Object.keys(props);
      if (rng.chance(0.3)) s["required"] = [rng.pick(names)];
      if (rng.chance(0.1)) s["x-kubernetes-preserve-unknown-fields"] = true;
      if (rng.chance(0.1)) s["maxProperties"] = rng.int(1, 3);
      if (rng.chance(0.1)) s["x-kubernetes-map-type"] = rng.pick(["atomic", "granular"]);
      break;
    }
    case "embedded":
      s["type"] = "object";
      s["x-kubernetes-embedded-resource"] = true;
      if (rng.chance(0.5)) s["x-kubernetes-preserve-unknown-fields"] = true;
      else s["properties"] = { spec: genSchema(rng, 0, shape), data: { type: "object", additionalProperties: { type: "string" } } };
      break;
    case "map":
      s["type"] = "object";
      s["additionalProperties"] = genSchema(rng, depth - 1, shape);
      if (rng.chance(0.2)) s["maxProperties"] = rng.int(0, 3);
      if (rng.chance(0.2)) s["minProperties"] = 1;
      break;
    case "array": {
      s["type"] = "array";
      const lt = rng.pick(["", "", "atomic", "set", "map"]);
      if (lt === "set") {
        s["items"] = { type: rng.pick(["string", "integer"]) };
        s["x-kubernetes-list-type"] = "set";
      } else if (lt === "map") {
        s["items"] = { type: "object", required: ["key"], properties: { key: { type: "string" }, val: genSchema(rng, 0, shape) } };
        s["x-kubernetes-list-type"] = "map";
        s["x-kubernetes-list-map-keys"] = ["key"];
      } else {
        s["items"] = genSchema(rng, depth - 1, shape);
        if (lt) s["x-kubernetes-list-type"] = lt;
      }
      if (rng.chance(0.3)) s["maxItems"] = rng.int(0, 3);
      if (rng.chance(0.2)) s["minItems"] = rng.int(1, 2);
      break;
    }
  }
  if (rng.chance(0.1) && s["x-kubernetes-list-type"] === undefined) s["nullable"] = true;
  if (rng.chance(0.15) && s["x-kubernetes-int-or-string"] === undefined) {
    const d = genValue(rng, s, 1, 0);
    if (d !== undefined && d !== null) s["default"] = d;
  }
  if (rng.chance(0.08)) addRule(rng, s);
  shape?.(s);
  return s;
}

function addRule(rng: Rng, s: Schema): void {
  const t = s["type"];
  let rule: string | undefined;
  if (t === "string" && typeof s["maxLength"] === "number") rule = rng.pick(["self.size() != 1", "!self.startsWith('x')", "self == oldSelf"]);
  else if (t === "integer") rule = rng.pick(["self % 2 == 0", "self < 40", "self >= oldSelf"]);
  else if (t === "boolean") rule = "self == true || self == false";
  if (rule) s["x-kubernetes-validations"] = [{ rule, ...(rng.chance(0.5) ? { message: "rule failed" } : {}) }];
}

/**
 * A value for a schema. `validity` 1 = try to be valid; lower values make mistakes more likely.
 * `depth` limits recursion; returns undefined to omit an optional field.
 */
export function genValue(rng: Rng, s: Schema, validity: number, depth: number): JsonValue | undefined {
  const bad = (): boolean => rng.next() > validity;
  if (depth > 6) return null;
  if (bad() && rng.chance(0.25)) return rng.pick<JsonValue>([null, "str", 7, new Float64(2), 1.5, true, [], {}]);
  if (s["x-kubernetes-int-or-string"] === true) return rng.chance(0.5) ? rng.int(-3, 30) : rng.pick(["5", "50%", "x"]);
  switch (s["type"]) {
    case "string": {
      const f = typeof s["format"] === "string" ? FORMAT_SAMPLES[s["format"]] : undefined;
      if (Array.isArray(s["enum"]) && !bad()) return rng.pick(s["enum"]);
      if (f) return rng.pick(f);
      const max = typeof s["maxLength"] === "number" ? s["maxLength"] : 12;
      let w = rng.pick(WORDS);
      if (!bad()) w = w.slice(0, max);
      return w;
    }
    case "integer": {
      if (Array.isArray(s["enum"]) && !bad()) return rng.pick(s["enum"]);
      const lo = typeof s["minimum"] === "number" ? s["minimum"] : -100;
      const hi = typeof s["maximum"] === "number" ? s["maximum"] : 100;
      let v = bad() ? rng.int(-200, 3000000000) : rng.int(Math.min(lo, hi), Math.max(lo, hi));
      if (typeof s["multipleOf"] === "number" && !bad()) v = v - (v % s["multipleOf"]);
      if (bad() && rng.chance(0.3)) return new Float64(v);
      return v;
    }
    case "number": {
      const v = rng.pick([0.5, 1.25, -3.5, 2, 7, 100.5, 1e21, 1.5e-7, 123456789.125]);
      return rng.chance(0.5) && Number.isInteger(v) ? new Float64(v) : v;
    }
    case "boolean":
      return rng.chance(0.5);
    case "array": {
      const items = s["items"] as Schema;
      const n = rng.int(0, bad() ? 5 : Math.min(3, typeof s["maxItems"] === "number" ? s["maxItems"] : 3));
      const out: JsonValue[] = [];
      for (let i = 0; i < n; i++) {
        if (s["x-kubernetes-list-type"] === "map") {
          const o: JsonObject = { key: bad() && i > 0 ? "k0" : `k${i}` };
          const props = items["properties"] as JsonObject;
          const vv = genValue(rng, props["val"] as Schema, validity, depth + 1);
          if (vv !== undefined) o["val"] = vv;
          // more keys (`--shapes`): an integer key, or a defaulted one left out now and then
          if (props["port"] !== undefined) o["port"] = bad() && i > 0 ? 1 : i + 1;
          if (props["protocol"] !== undefined && rng.chance(0.6)) o["protocol"] = rng.pick(["TCP", "UDP", "SCTP"]);
          out.push(o);
        } else {
          const v = genValue(rng, items, validity, depth + 1);
          out.push(v === undefined ? null : v);
        }
      }
      if (s["x-kubernetes-list-type"] === "set" && !bad()) return [...new Map(out.map((x) => [JSON.stringify(x), x])).values()];
      return out;
    }
    case "object": {
      const o: JsonObject = {};
      if (s["x-kubernetes-embedded-resource"] === true) {
        if (!bad() || rng.chance(0.5)) o["apiVersion"] = rng.pick(["v1", "apps/v1", "example.com/v1"]);
        if (!bad() || rng.chance(0.5)) o["kind"] = rng.pick(["ConfigMap", "Deployment", "Thing"]);
        if (rng.chance(0.7)) o["metadata"] = genMetadata(rng, validity, false);
      }
      const props = s["properties"] as JsonObject | undefined;
      const req = Array.isArray(s["required"]) ? (s["required"] as string[]) : [];
      if (props) {
        for (const [k, ps] of Object.entries(props)) {
          if (!req.includes(k) && rng.chance(0.3)) continue;
          if (req.includes(k) && bad() && rng.chance(0.5)) continue;
          const v = genValue(rng, ps as Schema, validity, depth + 1);
          if (v !== undefined) o[k] = v;
        }
      }
      const ap = s["additionalProperties"];
      if (typeof ap === "object" && ap !== null && !Array.isArray(ap)) {
        const n = rng.int(0, 3);
        for (let i = 0; i < n; i++) {
          const v = genValue(rng, ap as Schema, validity, depth + 1);
          if (v !== undefined) o[rng.pick(["k1", "k2", "k3", "a.b", "x"])] = v;
        }
      }
      if (bad() && rng.chance(0.4)) o[rng.pick(["unknownA", "zz", "extra"])] = rng.pick<JsonValue>([1, "u", { n: 1 }]);
      return o;
    }
    default:
      return rng.pick<JsonValue>(["free", 3, { a: 1 }]);
  }
}

/** Object metadata, valid or not: names, generateName, labels, annotations, finalizers, unknown keys. */
export function genMetadata(rng: Rng, validity: number, root: boolean): JsonObject {
  const bad = (): boolean => rng.next() > validity;
  const m: JsonObject = {};
  if (root) {
    if (bad() && rng.chance(0.3)) m["generateName"] = rng.pick(["f-", "Bad_", "g".repeat(70)]);
    else m["name"] = bad() && rng.chance(0.4) ? rng.pick(["Bad_Name", "a..b", "x".repeat(254), ""]) : "f1";
  } else if (rng.chance(0.7)) {
    m["name"] = bad() ? rng.pick(["Bad_Name", "ok", ""]) : "inner";
  }
  if (rng.chance(0.3)) {
    const labels: JsonObject = {};
    for (let i = rng.int(1, 3); i > 0; i--) labels[bad() ? rng.pick(LABEL_KEYS) : "app"] = bad() ? rng.pick(LABEL_VALUES) : "v";
    m["labels"] = labels;
  }
  if (rng.chance(0.2)) m["annotations"] = { [bad() ? rng.pick(LABEL_KEYS) : "note"]: rng.pick(WORDS) };
  if (root && rng.chance(0.2)) m["finalizers"] = [rng.pick(FINALIZERS), ...(rng.chance(0.5) ? [rng.pick(FINALIZERS)] : [])];
  if (rng.chance(0.1)) m["namespace"] = rng.pick(["default", "Bad_NS"]);
  if (bad() && rng.chance(0.2)) m[rng.pick(["bogus", "extra"])] = 1;
  if (bad() && rng.chance(0.1)) m["labels"] = { a: 1 };
  return m;
}

/** A whole case: a CRD with a random spec schema (and status), plus one or two objects. */
export function genCase(rng: Rng, id: string, shape?: ShapeHook): FuzzCase {
  const spec = genSchema(rng, 3, shape);
  if (spec["type"] !== "object") {
    // the spec field itself is an object holding the random node
    const wrapped: Schema = { type: "object", properties: { value: spec } };
    return finish(rng, id, wrapped);
  }
  return finish(rng, id, spec);
}

function finish(rng: Rng, id: string, spec: Schema): FuzzCase {
  const withStatus = rng.chance(0.3);
  const status: Schema = { type: "object", properties: { ready: { type: "boolean" }, count: { type: "integer", minimum: 0 } } };
  const root: Schema = { type: "object", properties: { spec, ...(withStatus ? { status } : {}) } };
  const version: JsonObject = { name: "v1", served: true, storage: true, schema: { openAPIV3Schema: root } };
  if (withStatus) version["subresources"] = { status: {} };
  const crd: JsonObject = {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "fuzzes.fuzz.example.com" },
    spec: {
      group: "fuzz.example.com",
      names: { plural: "fuzzes", singular: "fuzz", kind: "Fuzz", listKind: "FuzzList" },
      scope: "Cluster",
      versions: [version],
    },
  };
  const validity = rng.pick([1, 1, 0.9, 0.7]);
  const mk = (v: number): JsonValue => {
    const o: JsonObject = { apiVersion: "fuzz.example.com/v1", kind: "Fuzz", metadata: genMetadata(rng, v, true) };
    const sv = genValue(rng, spec, v, 0);
    if (sv !== undefined) o["spec"] = sv;
    if (withStatus && rng.chance(0.5)) o["status"] = genValue(rng, status, v, 0) ?? {};
    return o;
  };
  const operation = rng.pick(["create", "create", "update", withStatus ? "status" : "update"] as const);
  const fieldValidation = rng.pick(["Strict", "Strict", "Warn", "Ignore"] as const);
  const object = mk(validity);
  if (operation === "create") return { id, operation, fieldValidation, crd, object };
  const oldObject = rng.chance(0.5) ? structuredCloneValue(object) : mk(rng.pick([1, 0.8]));
  const newObject = rng.chance(0.5) ? mk(validity) : object;
  // a stored object has a valid name; an update usually keeps it
  const om = (oldObject as JsonObject)["metadata"] as JsonObject;
  delete om["generateName"];
  om["name"] = "f1";
  if (rng.chance(0.9)) {
    const nm = (newObject as JsonObject)["metadata"] as JsonObject;
    delete nm["generateName"];
    nm["name"] = "f1";
  }
  return { id, operation, fieldValidation, crd, object: newObject, oldObject };
}

function structuredCloneValue(v: JsonValue): JsonValue {
  if (v instanceof Float64) return new Float64(v.value);
  if (Array.isArray(v)) return v.map(structuredCloneValue);
  if (typeof v === "object" && v !== null) {
    const o: JsonObject = {};
    for (const [k, x] of Object.entries(v)) o[k] = structuredCloneValue(x);
    return o;
  }
  return v;
}
