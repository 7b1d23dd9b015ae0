/**
 * OpenAPI publishing: the v3 index (`/openapi/v3`) and one document per group version, built lazily
 * and cached per CRD revision (so installing CRD n+1 does not rebuild the other n), and the v2 document
 * derived from them (`openapi-v2.ts`; served with its protobuf form by `openapi-v2-handler.ts`).
 */
import { createHash } from "node:crypto";
import { deepClone, isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import type { CrdEntry, Registry } from "../registry/registry.js";
import { groupVersion, type ResourceType } from "../registry/resource-type.js";
import { LIST_META, META, OBJECT_META, SCALE, sharedSchemas } from "./openapi-meta.js";
import { PUBLISHED_DISCOVERY_DOCS } from "./published-discovery-docs.js";
import { openApiV2 } from "./openapi-v2.js";

/** `gvkToModelName`: reversed group, version, kind (`com.example.stable.v1.CronTab`). */
export function modelName(group: string, version: string, kind: string): string {
  return `${group.split(".").reverse().join(".")}.${version}.${kind}`;
}

const CONVENTIONS = "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md";
/** TypeMeta's published field descriptions (the OpenAPI builder copies them onto every custom resource). */
const API_VERSION_DESCRIPTION = `APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: ${CONVENTIONS}#resources`;
const KIND_DESCRIPTION = `Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: ${CONVENTIONS}#types-kinds`;

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (name: string): JsonObject => ({ "application/json": { schema: ref(name) } });

function param(name: string, description: string, inWhere = "query", type = "string"): JsonObject {
  const p: JsonObject = { name, in: inWhere, description, schema: { type, uniqueItems: true } };
  if (inWhere === "path") p["required"] = true;
  return p;
}

const P = {
  dryRun: param("dryRun", "When present, modifications are not persisted (All)."),
  fieldManager: param("fieldManager", "The name of the actor making the change."),
  fieldValidation: param("fieldValidation", "How to handle unknown or duplicate fields: Ignore, Warn or Strict."),
  force: param("force", "Force apply requests (re-acquire conflicting fields).", "query", "boolean"),
  pretty: param("pretty", "If 'true', the output is pretty printed."),
  labelSelector: param("labelSelector", "Selects objects by label."),
  fieldSelector: param("fieldSelector", "Selects objects by field."),
  resourceVersion: param("resourceVersion", "Resource version constraint of a list or watch."),
  watch: param("watch", "Watch for changes.", "query", "boolean"),
  limit: param("limit", "Maximum number of items to return.", "query", "integer"),
  name: param("name", "name of the object", "path"),
  namespace: param("namespace", "object name and auth scope, such as for teams and projects", "path"),
};

const PATCH_BODY: JsonObject = {
  content: {
    "application/json-patch+json": { schema: ref(`${META}.Patch`) },
    "application/merge-patch+json": { schema: ref(`${META}.Patch`) },
    "application/apply-patch+yaml": { schema: ref(`${META}.Patch`) },
  },
  required: true,
};

function op(
  rt: ResourceType,
  verb: string,
  action: string,
  params: JsonObject[],
  responseModel: string,
  gvk: JsonObject,
  extra: JsonObject = {},
): JsonObject {
  const tag = `${rt.group.split(".").map((s, i) => (i === 0 ? s : s[0]!.toUpperCase() + s.slice(1))).join("")}_${rt.version}`;
  return {
    tags: [tag],
    operationId: `${verb}${rt.kind}`,
    parameters: params,
    responses: { "200": { description: "OK", content: jsonContent(responseModel) }, "401": { description: "Unauthorized" } },
    "x-kubernetes-action": action,
    "x-kubernetes-group-version-kind": gvk,
    ...extra,
  };
}

/** Paths and schemas one CRD version contributes to its group-version document. */
export function buildVersionSpec(rt: ResourceType, schema: JsonValue | undefined): { paths: JsonObject; schemas: JsonObject } {
  const model = modelName(rt.group, rt.version, rt.kind);
  const listModel = modelName(rt.group, rt.version, rt.listKind);
  const gvk: JsonObject = { group: rt.group, version: rt.version, kind: rt.kind };
  const scaleGvk: JsonObject = { group: "autoscaling", version: "v1", kind: "Scale" };
  const base = `/apis/${rt.group}/${rt.version}/${rt.namespaced ? "namespaces/{namespace}/" : ""}${rt.plural}`;
  const scope = rt.namespaced ? [P.namespace] : [];
  const writeParams = [P.dryRun, P.fieldManager, P.fieldValidation];
  const paths: JsonObject = {
    [base]: {
      get: op(rt, "list", "list", [P.labelSelector, P.fieldSelector, P.limit, P.resourceVersion, P.watch], listModel, gvk),
      post: op(rt, "create", "post", writeParams, model, gvk, { requestBody: { content: jsonContent(model), required: true } }),
      delete: op(rt, "deletecollection", "deletecollection", [P.labelSelector, P.fieldSelector, P.dryRun], `${META}.Status`, gvk),
      parameters: [...scope, P.pretty],
    },
    [`${base}/{name}`]: {
      get: op(rt, "read", "get", [], model, gvk),
      put: op(rt, "replace", "put", writeParams, model, gvk, { requestBody: { content: jsonContent(model), required: true } }),
      patch: op(rt, "patch", "patch", [...writeParams, P.force], model, gvk, { requestBody: PATCH_BODY }),
      delete: op(rt, "delete", "delete", [P.dryRun], `${META}.Status`, gvk),
      parameters: [P.name, ...scope, P.pretty],
    },
  };
  if (rt.namespaced) {
    paths[`/apis/${rt.group}/${rt.version}/${rt.plural}`] = {
      get: op(rt, "list", "list", [P.labelSelector, P.fieldSelector, P.limit, P.resourceVersion, P.watch], listModel, gvk),
      parameters: [P.pretty],
    };
  }
  if (rt.status) {
    paths[`${base}/{name}/status`] = {
      get: op(rt, "read", "get", [], model, gvk),
      put: op(rt, "replace", "put", writeParams, model, gvk, { requestBody: { content: jsonContent(model), required: true } }),
      patch: op(rt, "patch", "patch", [...writeParams, P.force], model, gvk, { requestBody: PATCH_BODY }),
      parameters: [P.name, ...scope, P.pretty],
    };
  }
  if (rt.scale) {
    paths[`${base}/{name}/scale`] = {
      get: op(rt, "read", "get", [], SCALE, scaleGvk),
      put: op(rt, "replace", "put", writeParams, SCALE, scaleGvk, { requestBody: { content: jsonContent(SCALE), required: true } }),
      patch: op(rt, "patch", "patch", [...writeParams, P.force], SCALE, scaleGvk, { requestBody: PATCH_BODY }),
      parameters: [P.name, ...scope, P.pretty],
    };
  }
  const root: JsonObject = isObject(schema) ? (unfoldIntOrString(deepClone(schema)) as JsonObject) : { type: "object" };
  const props: JsonObject = isObject(root["properties"]) ? root["properties"] : {};
  root["properties"] = {
    ...props,
    apiVersion: { type: "string", description: API_VERSION_DESCRIPTION },
    kind: { type: "string", description: KIND_DESCRIPTION },
    metadata: { allOf: [ref(OBJECT_META)], description: `Standard object's metadata. More info: ${CONVENTIONS}#metadata` },
  };
  if (root["type"] === undefined) root["type"] = "object";
  root["x-kubernetes-group-version-kind"] = [{ group: rt.group, kind: rt.kind, version: rt.version }];
  if (rt.selectableFields.size > 0) root["x-kubernetes-selectable-fields"] = [...rt.selectableFields.keys()].map((f) => ({ fieldPath: f }));
  const schemas: JsonObject = {
    [model]: root,
    [listModel]: {
      description: `${rt.listKind} is a list of ${rt.kind}`,
      type: "object",
      required: ["items"],
      properties: {
        apiVersion: { type: "string", description: API_VERSION_DESCRIPTION },
        items: { type: "array", description: `List of ${rt.plural}. More info: ${CONVENTIONS}`, items: ref(model) },
        kind: { type: "string", description: KIND_DESCRIPTION },
        metadata: { allOf: [ref(LIST_META)], description: `Standard list metadata. More info: ${CONVENTIONS}#types-kinds` },
      },
      "x-kubernetes-group-version-kind": [{ group: rt.group, kind: rt.listKind, version: rt.version }],
    },
  };
  return { paths, schemas };
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

/** The OpenAPI v3 endpoints. */
export class OpenApi {
  private readonly perCrd = new Map<string, { revision: number; paths: JsonObject; schemas: JsonObject }>();
  private readonly docs = new Map<string, { hash: string; text: string }>();

  constructor(
    private readonly registry: Registry,
    private readonly crdType: ResourceType,
  ) {}

  /** Contributors of each group version: `group/version` → resource types and a cache key. */
  private contributors(): Map<string, { rts: { rt: ResourceType; entry?: CrdEntry }[]; key: string }> {
    const out = new Map<string, { rts: { rt: ResourceType; entry?: CrdEntry }[]; key: string }>();
    out.set(`${this.crdType.group}/${this.crdType.version}`, { rts: [{ rt: this.crdType }], key: "builtin" });
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

  /**
   * A group version document's hash: SHA-512 in upper-case hex, as kube-openapi's, of a key that changes with
   * the document (its CRDs' revisions), so that the index is answered without building every document.
   */
  private hashOf(key: string): string {
    return createHash("sha512").update(key).digest("hex").toUpperCase();
  }

  /** `GET /openapi/v3`: the discovery web services' documents and every served group version's. */
  index(): JsonObject {
    const paths: JsonObject = {};
    for (const name of Object.keys(PUBLISHED_DISCOVERY_DOCS)) {
      paths[name] = { serverRelativeURL: `/openapi/v3/${name}?hash=${this.discoveryDocument(name)!.hash}` };
    }
    for (const [gv, c] of this.contributors()) {
      paths[`apis/${gv}`] = { serverRelativeURL: `/openapi/v3/apis/${gv}?hash=${this.hashOf(c.key)}` };
    }
    return { paths };
  }

  /**
   * `GET /openapi/v3/apis`, `/openapi/v3/apis/<group>`, `/openapi/v3/version`: the document of that discovery web
   * service as Kubernetes serves it (hashed as kube-openapi hashes: SHA-512 of its bytes), or undefined (a CRD's
   * group has none).
   */
  discoveryDocument(name: string): { text: string; hash: string } | undefined {
    const cached = this.docs.get(name);
    if (cached) return cached;
    if (!Object.hasOwn(PUBLISHED_DISCOVERY_DOCS, name)) return undefined;
    const text = PUBLISHED_DISCOVERY_DOCS[name]!;
    const out = { text, hash: createHash("sha512").update(text).digest("hex").toUpperCase() };
    this.docs.set(name, out);
    return out;
  }

  /** `GET /openapi/v3/apis/<group>/<version>` as JSON text, or undefined when not served. */
  document(group: string, version: string): { text: string; hash: string } | undefined {
    const gv = groupVersion(group, version);
    const c = this.contributors().get(gv);
    if (!c) return undefined;
    const hash = this.hashOf(c.key);
    const cached = this.docs.get(gv);
    if (cached && cached.hash === hash) return cached;
    const paths: JsonObject = {};
    let schemas: JsonObject = {};
    let scale = false;
    for (const { rt, entry } of c.rts) {
      const part = entry ? this.crdPart(entry, rt) : buildVersionSpec(rt, undefined);
      Object.assign(paths, part.paths);
      schemas = { ...schemas, ...part.schemas };
      if (rt.scale) scale = true;
    }
    const doc: JsonObject = {
      openapi: "3.0.0",
      info: { title: "Kubernetes CRD Swagger", version: "v0.1.0" },
      paths,
      components: { schemas: { ...schemas, ...sharedSchemas(scale) } },
    };
    const out = { text: JSON.stringify(doc), hash };
    this.docs.set(gv, out);
    return out;
  }

  /** `GET /openapi/v2`: every served group version in one Swagger 2.0 document (lossy v3→v2). */
  v2(serverVersion: string): JsonObject {
    const docs: JsonObject[] = [];
    for (const gv of this.contributors().keys()) {
      const [group, version] = gv.split("/");
      const d = this.document(group!, version!);
      if (d) docs.push(JSON.parse(d.text) as JsonObject);
    }
    return openApiV2(docs, serverVersion);
  }

  private crdPart(entry: CrdEntry, rt: ResourceType): { paths: JsonObject; schemas: JsonObject } {
    const key = `${entry.name}/${rt.version}`;
    const hit = this.perCrd.get(key);
    if (hit && hit.revision === entry.revision) return hit;
    const built = { revision: entry.revision, ...buildVersionSpec(rt, crdVersionSchema(entry, rt.version)) };
    this.perCrd.set(key, built);
    return built;
  }
}
