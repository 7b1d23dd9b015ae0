/**
 * The structured-merge-diff type of a custom resource, derived from its CRD version's OpenAPI schema as
 * the API server's type converter does: `properties` are struct fields, `additionalProperties` map
 * elements, `x-kubernetes-map-type: atomic` makes a map atomic, arrays are atomic unless
 * `x-kubernetes-list-type` is `set` or `map` (keyed by `x-kubernetes-list-map-keys`), and schemaless
 * parts (`x-kubernetes-preserve-unknown-fields`) are "deduced": maps granular, lists atomic.
 * `metadata` is typed as ObjectMeta (labels/annotations maps, finalizers a set, ownerReferences keyed by uid, each atomic).
 */
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";

/** smd's scalar kinds (`numeric` for integer and number, `untyped` for strings of a format and times). */
export type ScalarKind = "numeric" | "string" | "boolean" | "untyped";

export type TypeNode =
  | { kind: "scalar"; scalar?: ScalarKind }
  | { kind: "deduced" }
  /** `closed`: a Go struct, whose undeclared fields an applied configuration may not have (`field not declared in schema`). */
  | { kind: "map"; fields: Map<string, TypeNode>; elem?: TypeNode; atomic: boolean; closed?: boolean }
  | { kind: "list"; rel: "atomic" | "set" | "map"; keys: string[]; elem: TypeNode; keyDefaults?: Record<string, JsonValue> };

export const SCALAR: TypeNode = { kind: "scalar" };
export const DEDUCED: TypeNode = { kind: "deduced" };

const STRING: TypeNode = { kind: "scalar", scalar: "string" };
const NUMERIC: TypeNode = { kind: "scalar", scalar: "numeric" };
const BOOLEAN: TypeNode = { kind: "scalar", scalar: "boolean" };
/** metav1.Time: a string of format date-time, which the type converter makes untyped. */
const TIME: TypeNode = { kind: "scalar", scalar: "untyped" };
const STRING_MAP: TypeNode = { kind: "map", fields: new Map(), elem: STRING, atomic: false };

/** ObjectMeta as the API server's schema types it. */
export const OBJECT_META: TypeNode = {
  kind: "map",
  atomic: false,
  fields: new Map<string, TypeNode>([
    ...["name", "generateName", "namespace", "selfLink", "uid", "resourceVersion"].map((n): [string, TypeNode] => [n, STRING]),
    ["generation", NUMERIC],
    ["deletionGracePeriodSeconds", NUMERIC],
    ["creationTimestamp", TIME],
    ["deletionTimestamp", TIME],
    ["labels", STRING_MAP],
    ["annotations", STRING_MAP],
    ["finalizers", { kind: "list", rel: "set", keys: [], elem: STRING }],
    // OwnerReference is `+structType=atomic`: an owner reference is owned whole (`k:{"uid":…}: {}`).
    [
      "ownerReferences",
      {
        kind: "list",
        rel: "map",
        keys: ["uid"],
        elem: {
          kind: "map",
          atomic: true,
          fields: new Map<string, TypeNode>([
            ...["apiVersion", "kind", "name", "uid"].map((n): [string, TypeNode] => [n, STRING]),
            ["controller", BOOLEAN],
            ["blockOwnerDeletion", BOOLEAN],
          ]),
        },
      },
    ],
    ["managedFields", { kind: "list", rel: "atomic", keys: [], elem: DEDUCED }],
  ]),
};

/** The type of one schema node. */
export function typeOfSchema(s: JsonValue | undefined): TypeNode {
  if (!isObject(s)) return DEDUCED;
  // int-or-string has no type: kube-openapi's schemaconv makes any typeless schema an untyped scalar, an atomic
  // list and a granular map of deduced elements at once (a list or map there is no type error for smd).
  if (s["x-kubernetes-int-or-string"] === true) return DEDUCED;
  const type = s["type"];
  if (type === "array") {
    const lt = s["x-kubernetes-list-type"];
    const rel = lt === "set" || lt === "map" ? lt : "atomic";
    const keys = Array.isArray(s["x-kubernetes-list-map-keys"]) ? s["x-kubernetes-list-map-keys"].filter((k): k is string => typeof k === "string") : [];
    const node: TypeNode = { kind: "list", rel, keys: rel === "map" ? keys : [], elem: typeOfSchema(s["items"]) };
    // Key fields with a schema default (smd fills them in when an item omits them).
    const props = isObject(s["items"]) && isObject(s["items"]["properties"]) ? s["items"]["properties"] : {};
    if (rel === "map") {
      const defaults: Record<string, JsonValue> = {};
      for (const k of keys) {
        const p = props[k];
        if (isObject(p) && p["default"] !== undefined) defaults[k] = p["default"];
      }
      if (Object.keys(defaults).length > 0) node.keyDefaults = defaults;
    }
    return node;
  }
  if (type === "object" || isObject(s["properties"]) || s["additionalProperties"] !== undefined) {
    const fields = new Map<string, TypeNode>();
    if (isObject(s["properties"])) for (const [k, v] of Object.entries(s["properties"])) fields.set(k, typeOfSchema(v));
    if (s["x-kubernetes-embedded-resource"] === true) {
      if (!fields.has("apiVersion")) fields.set("apiVersion", SCALAR);
      if (!fields.has("kind")) fields.set("kind", SCALAR);
      if (!fields.has("metadata")) fields.set("metadata", OBJECT_META);
    }
    const node: TypeNode = { kind: "map", fields, atomic: s["x-kubernetes-map-type"] === "atomic" };
    const ap = s["additionalProperties"];
    if (isObject(ap)) node.elem = typeOfSchema(ap);
    else if (ap === true || s["x-kubernetes-preserve-unknown-fields"] === true) node.elem = DEDUCED;
    return node;
  }
  if (type === undefined && s["x-kubernetes-preserve-unknown-fields"] === true) return DEDUCED;
  if (type === undefined) return DEDUCED;
  if (type === "integer" || type === "number") return { kind: "scalar", scalar: "numeric" };
  // kube-openapi's schemaconv: a string of a format other than "" and "byte" (date-time, ipv4, …) is untyped.
  if (type === "string") return s["format"] === undefined || s["format"] === "" || s["format"] === "byte" ? { kind: "scalar", scalar: "string" } : { kind: "scalar", scalar: "untyped" };
  if (type === "boolean") return { kind: "scalar", scalar: type };
  return SCALAR;
}

/** The type of a whole custom resource of a version with schema `openAPIV3Schema` (or none). */
export function rootType(openAPIV3Schema: JsonObject | undefined): TypeNode {
  const t = typeOfSchema(openAPIV3Schema ?? { type: "object", "x-kubernetes-preserve-unknown-fields": true });
  const fields = t.kind === "map" ? new Map(t.fields) : new Map<string, TypeNode>();
  fields.set("apiVersion", SCALAR);
  fields.set("kind", SCALAR);
  fields.set("metadata", OBJECT_META);
  const root: TypeNode = { kind: "map", fields, atomic: false };
  if (t.kind === "map" && t.elem) root.elem = t.elem;
  else if (t.kind === "deduced") root.elem = DEDUCED;
  return root;
}

/** The type of map field `key` (declared, element, or deduced). */
export function fieldType(t: TypeNode, key: string): TypeNode {
  if (t.kind !== "map") return DEDUCED;
  return t.fields.get(key) ?? t.elem ?? DEDUCED;
}

/** Resolves "deduced" by the value's shape: objects are granular maps, anything else a leaf. */
export function resolve(t: TypeNode, v: JsonValue | undefined): TypeNode {
  if (t.kind !== "deduced") return t;
  if (isObject(v)) return { kind: "map", fields: new Map(), elem: DEDUCED, atomic: false };
  return SCALAR;
}
