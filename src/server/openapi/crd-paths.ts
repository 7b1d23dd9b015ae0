/**
 * The path operations of one custom resource version in its OpenAPI v3 document, as apiextensions-apiserver's
 * OpenAPI builder declares them (one go-restful route per verb, with apiserver's option parameters) and
 * kube-openapi's builder3 writes them: operation ids and tags from the group version, parameters common to every
 * operation of a path lifted onto the path, each list sorted by name, and the JSON text in struct field order.
 */
import { compareGoStrings } from "../../go/fmt.js";
import { goJsonString } from "../../go/json.js";
import type { ResourceType } from "../registry/resource-type.js";
import { QUERY_PARAMS, type QueryParam } from "./crd-query-params.js";
import { META, SCALE } from "./openapi-meta.js";

interface Param {
  name: string;
  in: "query" | "path";
  description: string;
  type: string;
}

interface Route {
  method: "get" | "put" | "post" | "delete" | "patch";
  sub: "" | "/{name}" | "/{name}/status" | "/{name}/scale";
  action: string;
  verb: string;
  operation: string;
  params: Param[];
  body?: { model: string; required: boolean; patch: boolean };
  responses: [string, string, string][];
}

const query = (p: QueryParam): Param => ({ name: p.name, in: "query", description: p.description, type: p.type });
const Q = QUERY_PARAMS;
const LIST = [Q.allowWatchBookmarks, Q.continue, Q.fieldSelector, Q.labelSelector, Q.limit, Q.resourceVersion, Q.resourceVersionMatch, Q.sendInitialEvents, Q.shardSelector, Q.timeoutSeconds, Q.watch].map(query);
const GET = [query(Q.resourceVersion)];
const WRITE = [Q.dryRun, Q.fieldManager, Q.fieldValidation].map(query);
const PATCH = [Q.dryRun, Q.fieldManagerPatch, Q.fieldValidation, Q.force].map(query);
const DELETE = [Q.dryRun, Q.gracePeriodSeconds, Q.ignoreStoreReadErrorWithClusterBreakingPotential, Q.orphanDependents, Q.propagationPolicy].map(query);
const PRETTY = query(Q.pretty);
const STATUS = `${META}.Status`;
const PATCH_MODEL = `${META}.Patch`;
const DELETE_OPTIONS = `${META}.DeleteOptions`;
const PATCH_TYPES = ["application/apply-patch+yaml", "application/json-patch+json", "application/merge-patch+json"];
const MEDIA_TYPES = ["application/json", "application/yaml"];

/** apiserver's `ToValidOperationID`: letters and `_` (digits after the first rune), a capital after each other rune. */
export function toValidOperationId(s: string, capitalizeFirst: boolean): string {
  let out = "";
  let capitalize = capitalizeFirst;
  let i = 0;
  for (const r of s) {
    if (/\p{L}/u.test(r) || r === "_" || (i !== 0 && /\p{Nd}/u.test(r))) {
      out += capitalize ? r.toUpperCase() : r;
      capitalize = false;
    } else {
      capitalize = true;
    }
    i += r.length;
  }
  return out;
}

/** apiserver's `GetArticleForNoun` with a space of padding. */
function article(noun: string): string {
  if (!noun.endsWith("ss") && noun.endsWith("s")) return " ";
  return "aeiou".includes((noun[0] ?? "").toLowerCase()) ? " an " : " a ";
}

function description(kind: string, sub: string, verb: string): string {
  const s = sub.split("/")[2];
  const of = s ? ` ${s} of` : "";
  switch (verb) {
    case "list":
      return `list${of} objects of kind ${kind}`;
    case "read":
    case "replace":
      return `${verb}${of} the specified ${kind}`;
    case "patch":
      return `partially update${of} the specified ${kind}`;
    case "create":
    case "delete":
      return `${verb}${of}${article(kind)}${kind}`;
    case "deletecollection":
      return `delete collection of${s ? `${of} a` : ""} ${kind}`;
    default:
      return `${verb}${of}${kind}`;
  }
}

/** The texts of the shared query parameters, written once (their descriptions are long and escaped). */
const paramTexts = new WeakMap<Param, string>();

function paramJson(p: Param): string {
  let text = paramTexts.get(p);
  if (text === undefined) {
    text = writeParam(p);
    if (p.in === "query") paramTexts.set(p, text);
  }
  return text;
}

function writeParam(p: Param): string {
  return `{"name":${goJsonString(p.name)},"in":"${p.in}","description":${goJsonString(p.description)}${p.in === "path" ? ',"required":true' : ""},"schema":{"type":"${p.type}","uniqueItems":true}}`;
}

function sortParams(ps: Param[]): Param[] {
  return [...ps].sort((a, b) => compareGoStrings(a.name, b.name) || compareGoStrings(a.in, b.in));
}

const ref = (model: string): string => `{"schema":{"$ref":${goJsonString(`#/components/schemas/${model}`)}}}`;
const content = (types: string[], model: string): string => `{${types.map((t) => `"${t}":${ref(model)}`).join(",")}}`;

/** apiserver's `GetOperationIDAndTags` for a route under `/apis/<group>/<version>/`: operation id and tag. */
export function operationIdAndTag(group: string, version: string, operation: string): { id: string; tag: string } {
  // The verb trie answers the shortest verb the operation starts with (`delete` for `deletecollection…`).
  const verb = VERBS.filter((v) => operation.startsWith(v)).sort((a, b) => a.length - b.length)[0] ?? "";
  const trimmed = group.endsWith(".k8s.io") ? group.slice(0, -".k8s.io".length) : group;
  const prefix = verb + toValidOperationId(trimmed, verb !== "");
  const full = prefix + toValidOperationId(version, prefix !== "");
  return { id: full + toValidOperationId(operation.slice(verb.length), full !== ""), tag: `${toValidOperationId(trimmed, false)}_${toValidOperationId(version, false)}` };
}

const VERBS = ["get", "log", "read", "replace", "patch", "delete", "deletecollection", "watch", "connect", "proxy", "list", "create"];

function operationJson(rt: ResourceType, r: Route, params: Param[]): string {
  const { id: op, tag } = operationIdAndTag(rt.group, rt.version, r.operation);
  let out = `{"tags":[${goJsonString(tag)}],"description":${goJsonString(description(rt.kind, r.sub, r.verb))},"operationId":${goJsonString(op)}`;
  if (params.length > 0) out += `,"parameters":[${params.map(paramJson).join(",")}]`;
  if (r.body) {
    out += `,"requestBody":{"content":${content(r.body.patch ? PATCH_TYPES : MEDIA_TYPES, r.body.model)}${r.body.required ? ',"required":true' : ""}}`;
  }
  const responses = r.responses.map(([code, desc, model]) => `"${code}":{"description":"${desc}","content":${content(MEDIA_TYPES, model)}}`);
  out += `,"responses":{${responses.join(",")},"401":{"description":"Unauthorized"}}`;
  out += `,"x-kubernetes-action":"${r.action}","x-kubernetes-group-version-kind":{"group":${goJsonString(rt.group)},"version":${goJsonString(rt.version)},"kind":${goJsonString(rt.kind)}}}`;
  return out;
}

/** The routes of one resource type in the builder's order (list for all namespaces first when namespaced). */
function routes(rt: ResourceType, model: string, listModel: string): { path: string; route: Route }[] {
  const ns = rt.namespaced ? "Namespaced" : "";
  const root = `/apis/${rt.group}/${rt.version}/${rt.namespaced ? "namespaces/{namespace}/" : ""}${rt.plural}`;
  const out: { path: string; route: Route }[] = [];
  const add = (sub: Route["sub"], method: Route["method"], action: string, verb: string, sample: string, params: Param[], body?: Route["body"]) => {
    const subName = sub.split("/")[2] ?? "";
    const title = subName ? subName[0]!.toUpperCase() + subName.slice(1) : "";
    const responses: [string, string, string][] = [["200", "OK", sample]];
    if (action === "post") responses.push(["201", "Created", sample], ["202", "Accepted", sample]);
    if (action === "put") responses.push(["201", "Created", sample]);
    if (action === "delete") responses.push(["202", "Accepted", sample]);
    out.push({ path: root + sub, route: { method, sub, action, verb, operation: `${verb}${ns}${rt.kind}${title}`, params, ...(body ? { body } : {}), responses } });
  };
  if (rt.namespaced) {
    out.push({
      path: `/apis/${rt.group}/${rt.version}/${rt.plural}`,
      route: { method: "get", sub: "", action: "list", verb: "list", operation: `list${rt.kind}ForAllNamespaces`, params: LIST, responses: [["200", "OK", listModel]] },
    });
  }
  add("", "get", "list", "list", listModel, LIST);
  add("", "post", "post", "create", model, WRITE, { model, required: true, patch: false });
  add("", "delete", "deletecollection", "deletecollection", STATUS, LIST);
  add("/{name}", "get", "get", "read", model, GET);
  add("/{name}", "put", "put", "replace", model, WRITE, { model, required: true, patch: false });
  add("/{name}", "delete", "delete", "delete", STATUS, DELETE, { model: DELETE_OPTIONS, required: false, patch: false });
  add("/{name}", "patch", "patch", "patch", model, PATCH, { model: PATCH_MODEL, required: true, patch: true });
  if (rt.status) {
    add("/{name}/status", "get", "get", "read", model, GET);
    add("/{name}/status", "put", "put", "replace", model, WRITE, { model, required: true, patch: false });
    add("/{name}/status", "patch", "patch", "patch", model, PATCH, { model: PATCH_MODEL, required: true, patch: true });
  }
  if (rt.scale) {
    add("/{name}/scale", "get", "get", "read", SCALE, GET);
    add("/{name}/scale", "put", "put", "replace", SCALE, WRITE, { model: SCALE, required: true, patch: false });
    add("/{name}/scale", "patch", "patch", "patch", SCALE, PATCH, { model: PATCH_MODEL, required: true, patch: true });
  }
  return out;
}

const METHOD_ORDER: Route["method"][] = ["get", "put", "post", "delete", "patch"];

/** Each path of the resource type → its path item's JSON text (`spec3.Path`: operations in struct order, then `parameters`). */
export function crdPaths(rt: ResourceType, model: string, listModel: string): Map<string, string> {
  const byPath = new Map<string, Route[]>();
  for (const { path, route } of routes(rt, model, listModel)) {
    const list = byPath.get(path) ?? [];
    list.push(route);
    byPath.set(path, list);
  }
  const out = new Map<string, string>();
  for (const [path, rs] of byPath) {
    const name: Param = { name: "name", in: "path", description: `name of the ${rt.kind}`, type: "string" };
    const namespace: Param = { name: "namespace", in: "path", description: "object name and auth scope, such as for teams and projects", type: "string" };
    const full = rs.map((r) => [PRETTY, ...(path.includes("{namespace}") ? [namespace] : []), ...(path.includes("{name}") ? [name] : []), ...r.params]);
    const key = (p: Param) => `${p.in}\u0000${p.name}`;
    const common = full[0]!.filter((p) => full.every((ps) => ps.some((x) => key(x) === key(p))));
    const commonKeys = new Set(common.map(key));
    const parts: string[] = [];
    for (const m of METHOD_ORDER) {
      const i = rs.findIndex((r) => r.method === m);
      if (i < 0) continue;
      parts.push(`"${m}":${operationJson(rt, rs[i]!, sortParams(full[i]!.filter((p) => !commonKeys.has(key(p)))))}`);
    }
    if (common.length > 0) parts.push(`"parameters":[${sortParams(common).map(paramJson).join(",")}]`);
    out.set(path, `{${parts.join(",")}}`);
  }
  return out;
}
