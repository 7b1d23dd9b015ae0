/**
 * OpenAPI publishing: the v3 index (`/openapi/v3`) and one document per group version, built lazily
 * and cached per CRD revision (so installing CRD n+1 does not rebuild the other n), and the v2 document
 * derived from them (`openapi-v2.ts`; served with its protobuf form by `openapi-v2-handler.ts`).
 */
import { createHash } from "node:crypto";
import { brotliDecompressSync } from "node:zlib";
import { deepClone, isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import type { CrdEntry, Registry } from "../registry/registry.js";
import { groupVersion, type ResourceType } from "../registry/resource-type.js";
import { crdPaths } from "./crd-paths.js";
import { LIST_META, OBJECT_META, sharedSchemaTexts } from "./openapi-meta.js";
import { schemaJson } from "./schema-json.js";
import { compareGoStrings } from "../../go/fmt.js";
import { goJsonMarshal, goJsonString } from "../../go/json.js";
import { PUBLISHED_CRD_OPENAPI_BROTLI } from "./published-crd-openapi.js";
import { PUBLISHED_DISCOVERY_DOCS } from "./published-discovery-docs.js";
import { PUBLISHED_V2_BUILTIN_BROTLI } from "./published-v2-builtin.js";
import { openApiV2, stripDefaults, toOpenApiV2Schema } from "./openapi-v2.js";

/** `gvkToModelName`: reversed group, version, kind (`com.example.stable.v1.CronTab`). */
export function modelName(group: string, version: string, kind: string): string {
  return `${group.split(".").reverse().join(".")}.${version}.${kind}`;
}

const CONVENTIONS = "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md";
/** TypeMeta's published field descriptions (the OpenAPI builder copies them onto every custom resource). */
const API_VERSION_DESCRIPTION = `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${CONVENTIONS}#resources`;
const KIND_DESCRIPTION = `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${CONVENTIONS}#types-kinds`;

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const METADATA_DESCRIPTION = `Standard object's metadata. More info: ${CONVENTIONS}#metadata`;

/**
 * The builder's `addEmbeddedProperties`: every `x-kubernetes-embedded-resource` schema (under properties, items and
 * additionalProperties) gains apiVersion, kind and metadata properties, and requires kind and apiVersion.
 */
function addEmbeddedProperties(s: JsonValue | undefined, v2 = false): void {
  if (!isObject(s)) return;
  if (isObject(s["properties"])) for (const v of Object.values(s["properties"])) addEmbeddedProperties(v, v2);
  addEmbeddedProperties(s["items"], v2);
  addEmbeddedProperties(s["additionalProperties"], v2);
  // In v2, where unknown fields are preserved, kubectl would refuse the other fields.
  if (v2 && s["x-kubernetes-preserve-unknown-fields"] === true) return;
  if (s["x-kubernetes-embedded-resource"] !== true) return;
  const props: JsonObject = isObject(s["properties"]) ? s["properties"] : {};
  props["apiVersion"] = { description: `apiVersion defines the versioned schema of this representation of an object. More info: ${CONVENTIONS}#resources`, type: "string" };
  props["kind"] = { description: `kind is a string value representing the type of this object. In CamelCase. More info: ${CONVENTIONS}#types-kinds`, type: "string" };
  props["metadata"] = v2 ? { description: METADATA_DESCRIPTION, $ref: `#/definitions/${OBJECT_META}` } : { description: METADATA_DESCRIPTION, allOf: [ref(OBJECT_META)] };
  s["properties"] = props;
  const required = Array.isArray(s["required"]) ? [...s["required"]] : [];
  if (!required.includes("kind")) required.push("kind");
  if (!required.includes("apiVersion")) required.push("apiVersion");
  s["required"] = required;
}

/**
 * Paths and schemas one CRD version contributes to its group-version document, as JSON texts (path → path item,
 * model name → schema) written as the real server writes them.
 */
export function buildVersionSpec(rt: ResourceType, schema: JsonValue | undefined): { paths: Map<string, string>; schemas: Map<string, string> } {
  const model = modelName(rt.group, rt.version, rt.kind);
  const listModel = modelName(rt.group, rt.version, rt.listKind);
  const root: JsonObject = isObject(schema) ? (unfoldIntOrString(deepClone(schema)) as JsonObject) : { type: "object" };
  if (isObject(schema)) addEmbeddedProperties(root);
  const props: JsonObject = isObject(root["properties"]) ? root["properties"] : {};
  root["properties"] = {
    ...props,
    apiVersion: { description: API_VERSION_DESCRIPTION, type: "string" },
    kind: { description: KIND_DESCRIPTION, type: "string" },
    metadata: { description: METADATA_DESCRIPTION, allOf: [ref(OBJECT_META)] },
  };
  if (root["type"] === undefined) root["type"] = "object";
  root["x-kubernetes-group-version-kind"] = [{ group: rt.group, kind: rt.kind, version: rt.version }];
  const list: JsonObject = {
    description: `${rt.listKind} is a list of ${rt.kind}`,
    type: "object",
    required: ["items"],
    properties: {
      apiVersion: { description: API_VERSION_DESCRIPTION, type: "string" },
      items: { description: `List of ${rt.plural}. More info: ${CONVENTIONS}`, type: "array", items: ref(model) },
      kind: { description: KIND_DESCRIPTION, type: "string" },
      metadata: { description: `Standard list metadata. More info: ${CONVENTIONS}#types-kinds`, allOf: [ref(LIST_META)] },
    },
    "x-kubernetes-group-version-kind": [{ group: rt.group, kind: rt.listKind, version: rt.version }],
  };
  if (rt.selectableFields.size > 0) {
    const fields = [...rt.selectableFields.keys()].map((f) => ({ fieldPath: f }));
    root["x-kubernetes-selectable-fields"] = fields;
    list["x-kubernetes-selectable-fields"] = fields;
  }
  const schemas = new Map([
    [model, schemaJson(root)],
    [listModel, schemaJson(list)],
  ]);
  return { paths: crdPaths(rt, model, listModel), schemas };
}

/**
 * A CRD kind's definition in the v2 document, as the builder makes it with its v2 options: a root that preserves
 * unknown fields is only `type: object` (kubectl would otherwise refuse unknown fields); otherwise the unfolded
 * schema through `ToStructuralOpenAPIV2`, without defaults, with embedded resources' properties (not where
 * unknown fields are preserved) and the TypeMeta and ObjectMeta properties.
 */
export function buildV2KindSchema(rt: ResourceType, schema: JsonValue | undefined): JsonObject {
  let root: JsonObject;
  if (!isObject(schema) || schema["x-kubernetes-preserve-unknown-fields"] === true) root = { type: "object" };
  else {
    root = stripDefaults(toOpenApiV2Schema(unfoldIntOrString(deepClone(schema)))) as JsonObject;
    addEmbeddedProperties(root, true);
    const props: JsonObject = isObject(root["properties"]) ? root["properties"] : {};
    root["properties"] = {
      ...props,
      apiVersion: { description: API_VERSION_DESCRIPTION, type: "string" },
      kind: { description: KIND_DESCRIPTION, type: "string" },
      metadata: { description: METADATA_DESCRIPTION, $ref: `#/definitions/${OBJECT_META}` },
    };
  }
  root["x-kubernetes-group-version-kind"] = [{ group: rt.group, kind: rt.kind, version: rt.version }];
  if (rt.selectableFields.size > 0) root["x-kubernetes-selectable-fields"] = [...rt.selectableFields.keys()].map((f) => ({ fieldPath: f }));
  return root;
}

/**
 * `Structural.Unfold`: an `x-kubernetes-int-or-string` schema gains `anyOf: [integer, string]` (or, when it has
 * an anyOf of its own, a first allOf entry with it), as the published OpenAPI v3 shows it.
 */
export function unfoldIntOrString(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(unfoldIntOrString);
  if (!isObject(v)) return v;
  for (const [k, x] of Object.entries(v)) if (k !== "enum" && k !== "default" && k !== "example") v[k] = unfoldIntOrString(x);
  if (v["x-kubernetes-int-or-string"] !== true || isIntOrStringPattern(v)) return v;
  const pair: JsonValue[] = [{ type: "integer" }, { type: "string" }];
  if (v["anyOf"] === undefined) v["anyOf"] = pair;
  else v["allOf"] = [{ anyOf: pair }, ...(Array.isArray(v["allOf"]) ? v["allOf"] : [])];
  return v;
}

/** The anyOf (or first allOf's anyOf) of exactly `type: integer` and `type: string` is already there. */
function isIntOrStringPattern(v: JsonObject): boolean {
  const pair = (a: JsonValue | undefined): boolean =>
    Array.isArray(a) && a.length === 2 && isObject(a[0]) && isObject(a[1]) && a[0]["type"] === "integer" && a[1]["type"] === "string" && Object.keys(a[0]).length === 1 && Object.keys(a[1]).length === 1;
  if (pair(v["anyOf"])) return true;
  const all = v["allOf"];
  return Array.isArray(all) && isObject(all[0]) && pair(all[0]["anyOf"]) && Object.keys(all[0]).length === 1;
}

function crdVersionSchema(e: CrdEntry, version: string): JsonValue | undefined {
  const v = e.versions.find((x) => x.name === version);
  const s = v && isObject(v.raw["schema"]) ? v.raw["schema"]["openAPIV3Schema"] : undefined;
  return s;
}

/** The contributors key of the CRD kind's group version (apiextensions.k8s.io/v1). */
const BUILTIN = "builtin";

/** The resource types of one group version and a key that changes with any of their CRDs. */
interface Contributors {
  rts: { rt: ResourceType; entry?: CrdEntry }[];
  key: string;
}

/** A Go map of JSON texts (keys in sorted order), as parts of a document's text. */
function pushSortedJson(out: string[], m: Map<string, string>): void {
  const keys = [...m.keys()].sort(compareGoStrings);
  out.push("{");
  keys.forEach((k, i) => {
    out.push(`${i === 0 ? "" : ","}${goJsonString(k)}:`, m.get(k)!);
  });
  out.push("}");
}

/**
 * A document: its text as parts (the large ones, such as the shared meta.k8s.io schemas and each CRD's paths and
 * schemas, are the cached strings, shared between documents rather than copied), and its hash.
 */
class Doc {
  /** When it was built (its Last-Modified: kube-openapi's time of the spec's last computation). */
  readonly modified = new Date();

  constructor(
    readonly parts: readonly string[],
    readonly hash: string,
    readonly key?: string,
  ) {}

  get text(): string {
    return this.parts.join("");
  }
}

function docOf(parts: string[], key?: string): Doc {
  const h = createHash("sha512");
  for (const p of parts) h.update(p);
  return new Doc(parts, h.digest("hex").toUpperCase(), key);
}

/** The OpenAPI v3 endpoints. */
export class OpenApi {
  private readonly perCrd = new Map<string, { revision: number; paths: Map<string, string>; schemas: Map<string, string> }>();
  private readonly docs = new Map<string, Doc>();
  private lastIndex: Doc | undefined;
  /** The published v2 document without CRDs (JSON text), decompressed on first need. */
  private v2Builtin: string | undefined;

  constructor(
    private readonly registry: Registry,
    private readonly crdType: ResourceType,
  ) {}

  /** Contributors of each group version: `group/version` → resource types and a cache key. */
  private contributors(): Map<string, Contributors> {
    const out = new Map<string, Contributors>();
    out.set(`${this.crdType.group}/${this.crdType.version}`, { rts: [{ rt: this.crdType }], key: BUILTIN });
    for (const [group, versions] of this.registry.groupVersions()) {
      for (const v of versions) {
        const rts: { rt: ResourceType; entry?: CrdEntry }[] = [];
        const keys: string[] = [];
        for (const rt of this.registry.resourcesOf(group, v)) {
          const entry = this.registry.entryFor(group, rt.plural)!;
          rts.push({ rt, entry });
          keys.push(`${entry.name}@${entry.revision}`);
        }
        out.set(`${group}/${v}`, { rts, key: keys.join(",") });
      }
    }
    return out;
  }

  /** `GET /openapi/v3`: the discovery web services' documents and every served group version's. */
  index(): JsonObject {
    const paths: JsonObject = {};
    for (const name of Object.keys(PUBLISHED_DISCOVERY_DOCS)) {
      paths[name] = { serverRelativeURL: `/openapi/v3/${name}?hash=${this.discoveryDocument(name)!.hash}` };
    }
    for (const [gv, c] of this.contributors()) {
      paths[`apis/${gv}`] = { serverRelativeURL: `/openapi/v3/apis/${gv}?hash=${this.groupVersionDocument(gv, c).hash}` };
    }
    return { paths };
  }

  /** The index as its JSON text (json.Marshal of the discovery), its hash, and when that text last changed. */
  indexDocument(): { text: string; hash: string; modified: Date } {
    const text = goJsonMarshal(this.index());
    if (this.lastIndex?.text !== text) this.lastIndex = docOf([text]);
    return this.lastIndex;
  }

  /**
   * `GET /openapi/v3/apis`, `/openapi/v3/apis/<group>`, `/openapi/v3/version`: the document of that discovery web
   * service as Kubernetes serves it (hashed as kube-openapi hashes: SHA-512 of its bytes), or undefined (a CRD's
   * group has none).
   */
  discoveryDocument(name: string): { text: string; hash: string; modified: Date } | undefined {
    const cached = this.docs.get(name);
    if (cached) return cached;
    if (!Object.hasOwn(PUBLISHED_DISCOVERY_DOCS, name)) return undefined;
    const text = PUBLISHED_DISCOVERY_DOCS[name]!;
    const out = docOf([text]);
    this.docs.set(name, out);
    return out;
  }

  /** `GET /openapi/v3/apis/<group>/<version>` as JSON text, or undefined when not served. */
  document(group: string, version: string): { text: string; hash: string; modified: Date } | undefined {
    const gv = groupVersion(group, version);
    const c = this.contributors().get(gv);
    return c ? this.groupVersionDocument(gv, c) : undefined;
  }

  /**
   * A group version's document, built on first need and kept until one of its CRDs changes; its hash is
   * kube-openapi's: SHA-512 of the JSON bytes, in upper-case hex.
   */
  private groupVersionDocument(gv: string, c: Contributors): { text: string; hash: string; modified: Date } {
    const cached = this.docs.get(gv);
    if (cached && cached.key === c.key) return cached;
    if (c.key === BUILTIN) {
      // The CRD kind's own group version: Kubernetes' document, as published.
      const text = brotliDecompressSync(Buffer.from(PUBLISHED_CRD_OPENAPI_BROTLI.join(""), "base64")).toString("utf8");
      const out = docOf([text], c.key);
      this.docs.set(gv, out);
      return out;
    }
    const paths = new Map<string, string>();
    const schemas = new Map<string, string>();
    let scale = false;
    for (const { rt, entry } of c.rts) {
      if (!entry) continue;
      const part = this.crdPart(entry, rt);
      for (const [k, v] of part.paths) paths.set(k, v);
      for (const [k, v] of part.schemas) schemas.set(k, v);
      if (rt.scale) scale = true;
    }
    for (const [k, v] of sharedSchemaTexts(scale)) schemas.set(k, v);
    const parts = ['{"openapi":"3.0.0","info":{"title":"Kubernetes CRD Swagger","version":"v0.1.0"},"paths":'];
    pushSortedJson(parts, paths);
    parts.push(',"components":{"schemas":');
    pushSortedJson(parts, schemas);
    parts.push("}}");
    const out = docOf(parts, c.key);
    this.docs.set(gv, out);
    return out;
  }

  /** `GET /openapi/v2`: every served group version in one Swagger 2.0 document (lossy v3→v2). */
  v2(serverVersion: string): JsonObject {
    const docs: JsonObject[] = [];
    const kinds = new Map<string, JsonObject>();
    for (const [gv, c] of this.contributors()) {
      if (c.key === BUILTIN) continue; // in the published built-in part
      docs.push(JSON.parse(this.groupVersionDocument(gv, c).text) as JsonObject);
      for (const { rt, entry } of c.rts) {
        if (entry) kinds.set(modelName(rt.group, rt.version, rt.kind), buildV2KindSchema(rt, crdVersionSchema(entry, rt.version)));
      }
    }
    this.v2Builtin ??= brotliDecompressSync(Buffer.from(PUBLISHED_V2_BUILTIN_BROTLI.join(""), "base64")).toString("utf8");
    return openApiV2(JSON.parse(this.v2Builtin) as JsonObject, docs, serverVersion, kinds);
  }

  private crdPart(entry: CrdEntry, rt: ResourceType): { paths: Map<string, string>; schemas: Map<string, string> } {
    const key = `${entry.name}/${rt.version}`;
    const hit = this.perCrd.get(key);
    if (hit && hit.revision === entry.revision) return hit;
    const built = { revision: entry.revision, ...buildVersionSpec(rt, crdVersionSchema(entry, rt.version)) };
    this.perCrd.set(key, built);
    return built;
  }
}
