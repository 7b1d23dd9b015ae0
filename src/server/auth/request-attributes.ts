/**
 * What authorization decides on (apiserver `RequestInfoFactory.NewRequestInfo` + `authorizer.Attributes`):
 * resource requests under `/apis/<group>/<version>/…` (verb from the method: get/list/watch, create,
 * update, patch, delete/deletecollection; namespace, resource, name, subresource from the path) and
 * non-resource requests (verb = lower-cased method, the path).
 */
import type { UserInfo } from "./user-info.js";
import { pathSegments, type RequestUrl } from "../endpoints/request-url.js";

export interface RequestAttributes {
  user: UserInfo;
  verb: string;
  resourceRequest: boolean;
  /** The URL path (non-resource requests). */
  path: string;
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

const NAMESPACE_SUBRESOURCES = new Set(["status", "finalize"]);
const SPECIAL_VERBS = new Set(["proxy", "watch"]);

const METHOD_VERBS: Readonly<Record<string, string>> = { POST: "create", GET: "get", HEAD: "get", PUT: "update", PATCH: "patch", DELETE: "delete" };

/** `path.IsValidPathSegmentName(name)` is empty. */
function validPathSegment(name: string): boolean {
  return name !== "." && name !== ".." && !name.includes("/") && !name.includes("%");
}

/** The `metadata.name=X` (or `==`) requirement of a field selector, if it has exactly that. */
function fieldSelectorName(sel: string | null): string | undefined {
  if (!sel) return undefined;
  for (const term of sel.split(",")) {
    const m = /^\s*metadata\.name\s*(==|=)\s*(.*?)\s*$/.exec(term);
    if (m) return m[2]!;
  }
  return undefined;
}

/** The attributes of a request with `method` and `url` made by `user`. */
export function requestAttributes(method: string, url: RequestUrl, user: UserInfo): RequestAttributes {
  const path = url.pathname;
  const base: RequestAttributes = {
    user,
    verb: method.toLowerCase(),
    resourceRequest: false,
    path,
    apiGroup: "",
    apiVersion: "",
    namespace: "",
    resource: "",
    subresource: "",
    name: "",
  };
  // An index into the path's segments instead of slicing them (RequestInfo's `currentParts = currentParts[1:]`).
  const parts = url.segments ?? pathSegments(path);
  if (parts.length < 3 || (parts[0] !== "api" && parts[0] !== "apis")) return base;
  let i = 1;
  const a: RequestAttributes = { ...base };
  if (parts[0] === "apis") {
    if (parts.length - i < 3) return base;
    a.apiGroup = parts[i++]!;
  }
  a.resourceRequest = true;
  a.apiVersion = parts[i++]!;
  if (SPECIAL_VERBS.has(parts[i]!)) {
    if (parts.length - i < 2) return { ...base };
    a.verb = parts[i++]!;
  } else {
    a.verb = Object.hasOwn(METHOD_VERBS, method) ? METHOD_VERBS[method]! : "";
  }
  if (parts[i] === "namespaces") {
    if (parts.length - i > 1) {
      a.namespace = parts[i + 1]!;
      if (parts.length - i > 2 && !NAMESPACE_SUBRESOURCES.has(parts[i + 2]!)) i += 2;
    }
  }
  const left = parts.length - i;
  if (left >= 3 && a.verb !== "proxy") a.subresource = parts[i + 2]!;
  if (left >= 2) a.name = parts[i + 1]!;
  if (left >= 1) a.resource = parts[i]!;
  if (a.name === "" && a.verb === "get") {
    const w = url.searchParams.getAll("watch");
    a.verb = w.length > 0 && w[0]!.toLowerCase() !== "false" && w[0] !== "0" ? "watch" : "list";
    const n = fieldSelectorName(url.searchParams.get("fieldSelector"));
    if (n !== undefined && validPathSegment(n)) a.name = n;
  }
  if (a.name === "" && a.verb === "delete") a.verb = "deletecollection";
  return a;
}
