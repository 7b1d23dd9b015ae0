/**
 * Replays testdata/k8s-differential.json: random schemas/objects whose expected outputs were produced by
 * the real Kubernetes code (apiextensions-apiserver v0.37.2). Every stage of PIPE-A must print the same.
 */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { errorString } from "../errors/field-error.js";
import { validateListSetsAndMaps } from "../listtype/validate.js";
import { coerce } from "../objectmeta/coerce.js";
import { getObjectMeta, setObjectMeta } from "../objectmeta/get-set.js";
import { validateEmbedded } from "../objectmeta/validate-embedded.js";
import { prune } from "../prune/prune.js";
import { type StructuralSpec, st } from "../prune/structural-builder.js";
import type { Structural } from "../structural/structural.js";
import { compareGoStrings } from "../go/fmt.js";
import { goJsonMarshal } from "../go/json.js";
import { Float64, type JsonObject, type JsonValue, deepClone } from "../value/json-value.js";
import { applyDefaults } from "./default.js";
import { pruneDefaults } from "./prune-defaults.js";
import { pruneNonNullableNullsWithoutDefaults } from "./prune-nulls.js";
import { applySchemaCoercion } from "./schema-coercer.js";

interface Spec {
  type?: string;
  properties?: Record<string, Spec>;
  items?: Spec;
  ap?: Spec | boolean;
  nullable?: boolean;
  default?: JsonValue;
  preserve?: boolean;
  embedded?: boolean;
  listType?: string;
  listMapKeys?: string[];
}

function decode(v: unknown): JsonValue {
  if (Array.isArray(v)) return v.map(decode);
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (keys.length === 1 && keys[0] === "__f64") return new Float64(o.__f64 as number);
    const out: JsonObject = {};
    for (const k of keys) out[k] = decode(o[k]);
    return out;
  }
  return v as JsonValue;
}

function toStructural(s: Spec): Structural {
  const spec: StructuralSpec = {
    type: s.type,
    nullable: s.nullable,
    default: s.default,
    preserveUnknownFields: s.preserve,
    embeddedResource: s.embedded,
    listType: s.listType,
    listMapKeys: s.listMapKeys,
  };
  if (s.properties) spec.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toStructural(v)]));
  if (s.items) spec.items = toStructural(s.items);
  if (s.ap !== undefined) spec.additionalProperties = typeof s.ap === "boolean" ? s.ap : toStructural(s.ap);
  return st(spec);
}

const sorted = (a: string[]) => [...a].sort(compareGoStrings);

function run(i: number, spec: Spec, obj: JsonObject): string[] {
  const out: string[] = [];
  const s = toStructural(spec);
  {
    const oa = deepClone(obj);
    if (i % 3 === 0) oa.apiVersion = "g/v2";
    if (i % 7 === 0) oa.kind = 3;
    const drop = i % 5 === 0;
    const r = applySchemaCoercion(oa, {
      group: "g",
      kind: "K",
      schemaFor: (v) => (v === "v1" ? s : undefined),
      dropInvalidMetadata: drop,
      repairGeneration: drop,
      returnUnknownFieldPaths: true,
    });
    out.push(r.error !== undefined ? `apply ERR ${r.error}` : `apply ${goJsonMarshal(oa)} [${r.unknownFieldPaths.join(" ")}]`);
  }
  const o = deepClone(obj);
  const rm = getObjectMeta(o, { returnUnknownFieldPaths: true });
  out.push(`rootmeta ${rm.error ?? ""} [${rm.unknownPaths.join(" ")}]`);
  {
    const o2 = deepClone(obj);
    const rd = getObjectMeta(o2, { returnUnknownFieldPaths: true, dropMalformedFields: true });
    if (rd.error === undefined && rd.found) setObjectMeta(o2, rd.meta);
    out.push(`rootmeta-drop ${rd.error ?? ""} ${goJsonMarshal(o2.metadata ?? null)} [${sorted(rd.unknownPaths).join(" ")}]`);
    const o3 = deepClone(obj);
    const cd = coerce(null, o3, s, true, { dropInvalidFields: true, returnUnknownFieldPaths: true });
    out.push(`coerce-drop ${cd.error ? "ERR" : goJsonMarshal(o3)} [${cd.unknownPaths.join(" ")}]`);
    const s2 = toStructural(spec);
    const pd = pruneDefaults(s2);
    const defs: string[] = [];
    const walk = (n: Structural, p: string) => {
      if (n.hasDefault) defs.push(`${p}=${goJsonMarshal(n.default!)}`);
      if (n.items) walk(n.items, p + "[]");
      if (n.additionalProperties?.schema) walk(n.additionalProperties.schema, p + ".*");
      for (const k of sorted([...(n.properties?.keys() ?? [])])) walk(n.properties!.get(k)!, p + "." + k);
    };
    walk(s2, "");
    out.push(`prunedefaults ${pd.error ?? ""} ${defs.join(" ")}`);
  }
  const paths = prune(o, s, true);
  out.push(`prune ${goJsonMarshal(o)} [${paths.join(" ")}]`);
  pruneNonNullableNullsWithoutDefaults(o, s);
  out.push(`nulls ${goJsonMarshal(o)}`);
  const c = coerce(null, o, s, false, { returnUnknownFieldPaths: true });
  out.push(`coerce ${c.error ? "ERR" : "ok " + goJsonMarshal(o) + " [" + c.unknownPaths.join(" ") + "]"}`);
  if (c.error) return out;
  if (rm.error === undefined && rm.found) setObjectMeta(o, rm.meta);
  applyDefaults(o, s);
  out.push(`default ${goJsonMarshal(o)}`);
  out.push(`list ${sorted(validateListSetsAndMaps(null, s, o).map(errorString)).join(" | ")}`);
  out.push(`embedded ${sorted(validateEmbedded(null, o, s, false).map(errorString)).join(" | ")}`);
  return out;
}

const data = JSON.parse(readFileSync(new URL("./testdata/k8s-differential.json", import.meta.url), "utf8")) as {
  cases: { spec: unknown; obj: unknown; expected: string[] }[];
};

test(`k8s differential fixture: ${data.cases.length} random schema/object pairs match Kubernetes v0.37.2`, () => {
  data.cases.forEach((c, i) => {
    const got = run(i, decode(c.spec) as Spec, decode(c.obj) as JsonObject);
    assert.deepEqual(got, c.expected, `case ${i}`);
  });
});
