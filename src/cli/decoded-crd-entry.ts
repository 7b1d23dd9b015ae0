/**
 * A decoded CRD ({@link DecodedCrd}) as a plain JSON-able entry of the compiled-CRD cache, and back: the
 * form that was decoded (v1: the defaulted v1 CRD; v1beta1: the internal form) is stored, and the other
 * form is derived from it again on reading exactly as `decodeCrd` derives it, so that the objects the
 * two forms share (schemas, names, metadata) are shared again. Reading an entry costs a JSON parse,
 * instead of decoding every schema node with Go's type checks.
 *
 * Schema nodes are stored without their `description`: the CRD passed the create checks (the only step
 * that reads descriptions), pruning, defaulting and validation never read them, and they are most of a
 * CRD's bytes (~60% in the corpus), so an entry is that much cheaper to read, check and parse.
 *
 * A v1 CRD whose versions all have the same schema (the common case of a CRD served at several versions)
 * keeps it once: read back, its versions share that one schema object (as the internal form's hoisted
 * `spec.validation` does), so the entry is read, checked and parsed once for all of them.
 *
 * An entry also keeps the subtree facts of each version's structural schema (../structural/facts-tree.ts):
 * compiled from the entry, a version's structural schema is converted only as far as documents reach it.
 */
import { CRD_GROUP } from "../crd/crd-group.js";
import type { DecodedCrd } from "../crd/decode-crd.js";
import { type InternalCrd, schemaForVersion, v1ToInternal } from "../crd/internal.js";
import type { CustomResourceDefinition } from "../crd/types.js";
import { internalToV1 } from "../crd/v1beta1.js";
import type { JsonValue } from "../value/json-value.js";
import { serializeValue } from "./schema-cache.js";
import { type FactsTree, factsTree, isFactsTree } from "../structural/facts-tree.js";
import { StructuralError, cachedStructural } from "../structural/new-structural.js";

const V1 = `${CRD_GROUP}/v1`;
const V1BETA1 = `${CRD_GROUP}/v1beta1`;

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** Keywords whose value is a map of schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "definitions"]);
/** Keywords whose value is a schema (or a list of schemas, or a boolean). */
const SCHEMAS = new Set(["items", "additionalProperties", "additionalItems", "not", "allOf", "anyOf", "oneOf"]);

/**
 * A copy of a schema without the `description` of any schema node; everything else (defaults, examples,
 * enums, rules, ...) is shared as is, so a `description` inside such a value is kept.
 */
export function withoutSchemaDescriptions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSchemaDescriptions);
  if (!isObj(node)) return node;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(node)) {
    const v = node[k];
    if (k === "description" && typeof v === "string") continue;
    if (SCHEMA_MAPS.has(k) && isObj(v)) {
      const m: Record<string, unknown> = {};
      for (const p of Object.keys(v)) Object.defineProperty(m, p, { value: withoutSchemaDescriptions(v[p]), enumerable: true, writable: true, configurable: true });
      out[k] = m;
    } else if (SCHEMAS.has(k)) out[k] = withoutSchemaDescriptions(v);
    else if (k === "dependencies" && isObj(v)) {
      const m: Record<string, unknown> = {};
      for (const p of Object.keys(v)) Object.defineProperty(m, p, { value: Array.isArray(v[p]) ? v[p] : withoutSchemaDescriptions(v[p]), enumerable: true, writable: true, configurable: true });
      out[k] = m;
    } else Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A copy of a decoded CRD's form (v1 or internal) whose schemas have no descriptions (the rest is shared). */
function formWithoutDescriptions<T extends CustomResourceDefinition | InternalCrd>(form: T): T {
  const spec = form.spec as unknown as Record<string, unknown>;
  const strip = (v: unknown): unknown => (isObj(v) && isObj(v["openAPIV3Schema"]) ? { ...v, openAPIV3Schema: withoutSchemaDescriptions(v["openAPIV3Schema"]) } : v);
  const out: Record<string, unknown> = { ...spec };
  if (spec["validation"] !== undefined) out["validation"] = strip(spec["validation"]);
  if (Array.isArray(spec["versions"])) out["versions"] = spec["versions"].map((v: unknown) => (isObj(v) && v["schema"] !== undefined ? { ...v, schema: strip(v["schema"]) } : v));
  return { ...form, spec: out } as T;
}

/** The subtree facts of each version's structural schema (versions without a schema have none). */
function versionFacts(internal: InternalCrd): Record<string, FactsTree> {
  const out: Record<string, FactsTree> = {};
  for (const v of internal.spec.versions) {
    const schema = schemaForVersion(internal, v.name)?.openAPIV3Schema;
    // the CRD checks converted it already (cachedStructural is shared with them)
    const s = schema && cachedStructural(schema);
    if (s && !(s instanceof StructuralError)) Object.defineProperty(out, v.name, { value: factsTree(s), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * A v1 form whose versions (two or more) all have the same schema, exactly (keys in the same order, the
 * same numbers): the form with the schema kept by the first version only (the others have 0); else undefined.
 */
function withSharedSchema(d: DecodedCrd, form: CustomResourceDefinition): CustomResourceDefinition | undefined {
  const versions = form.spec.versions;
  // the internal form hoists the schema when the versions' schemas are semantically equal
  if (versions.length < 2 || d.internal.spec.validation === undefined || versions[0]!.schema === undefined) return undefined;
  const first = serializeValue(versions[0]!.schema as unknown as JsonValue).join("");
  for (let i = 1; i < versions.length; i++) {
    const s = versions[i]!.schema;
    if (s === undefined || serializeValue(s as unknown as JsonValue).join("") !== first) return undefined;
  }
  // the other versions keep a 0 in its place (their keys stay in order)
  return { ...form, spec: { ...form.spec, versions: versions.map((v, i) => (i === 0 ? v : { ...v, schema: 0 as unknown as undefined })) } };
}

/**
 * The entry of a decoded CRD that passed the CRD checks: its apiVersion, unknown fields, the form it was
 * decoded into (its schemas without descriptions; a schema shared by all versions once) and the subtree
 * facts of its versions' schemas.
 */
export function decodedCrdEntry(d: DecodedCrd): {
  apiVersion: string;
  unknownFields: string[];
  form: CustomResourceDefinition | InternalCrd;
  sharedSchema?: true;
  facts: Record<string, FactsTree>;
} {
  const form = formWithoutDescriptions(d.apiVersion === V1BETA1 ? d.internal : d.crd);
  const shared = d.apiVersion === V1BETA1 ? undefined : withSharedSchema(d, form as CustomResourceDefinition);
  return {
    apiVersion: d.apiVersion,
    unknownFields: d.unknownFields,
    form: shared ?? form,
    ...(shared ? { sharedSchema: true as const } : {}),
    facts: versionFacts(d.internal),
  };
}

/**
 * The subtree facts by version of an entry written by {@link decodedCrdEntry}, for the versions of its
 * decoded CRD; undefined when they are missing or malformed (the schemas are then converted in full).
 */
export function structuralFactsFromEntry(entry: JsonValue, decoded: DecodedCrd): Map<string, FactsTree> | undefined {
  if (!isObj(entry) || !isObj(entry["facts"])) return undefined;
  const facts = entry["facts"];
  const out = new Map<string, FactsTree>();
  for (const v of decoded.internal.spec.versions) {
    if (!Object.hasOwn(facts, v.name)) {
      if (schemaForVersion(decoded.internal, v.name)?.openAPIV3Schema === undefined) continue;
      return undefined;
    }
    const t = facts[v.name];
    if (!isFactsTree(t)) return undefined;
    out.set(v.name, t);
  }
  return out;
}

/** The decoded CRD of an entry written by {@link decodedCrdEntry}; undefined for anything else. */
export function decodedCrdFromEntry(entry: JsonValue): DecodedCrd | undefined {
  if (!isObj(entry)) return undefined;
  const { apiVersion, unknownFields, form } = entry;
  if ((apiVersion !== V1 && apiVersion !== V1BETA1) || !Array.isArray(unknownFields) || !unknownFields.every((f) => typeof f === "string")) return undefined;
  if (!isObj(form) || !isObj(form["spec"]) || !Array.isArray(form["spec"]["versions"]) || !isObj(form["metadata"])) return undefined;
  if (apiVersion === V1) {
    const crd = form as unknown as CustomResourceDefinition;
    if (entry["sharedSchema"] === true) {
      // every version has the first version's schema (kept by it alone)
      const versions = form["spec"]["versions"] as unknown[];
      if (versions.length < 2 || !versions.every(isObj)) return undefined;
      const schema = (versions[0] as Record<string, unknown>)["schema"];
      if (!isObj(schema) || versions.some((v, i) => i > 0 && (v as Record<string, unknown>)["schema"] !== 0)) return undefined;
      for (const v of crd.spec.versions) v.schema = schema as unknown as CustomResourceDefinition["spec"]["versions"][number]["schema"];
    } else if (entry["sharedSchema"] !== undefined) return undefined;
    return { ok: true, apiVersion, crd, internal: v1ToInternal(crd), unknownFields: unknownFields as string[] };
  }
  if (!isObj(form["status"])) return undefined;
  const internal = form as unknown as InternalCrd;
  return { ok: true, apiVersion, crd: internalToV1(internal), internal, unknownFields: unknownFields as string[] };
}
