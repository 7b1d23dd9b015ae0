/** Parses request paths into the endpoint they address. */
import { pathSegments } from "./request-url.js";

export type Route =
  | { kind: "version" }
  | { kind: "health"; endpoint: string }
  /** `/healthz/ping` (and livez, readyz): the ping check's own path. */
  | { kind: "ping" }
  | { kind: "core" }
  | { kind: "apis" }
  | { kind: "group"; group: string }
  | { kind: "groupVersion"; group: string; version: string }
  | { kind: "openapiIndex" }
  | { kind: "openapiDoc"; group: string; version: string }
  /** `/openapi/v3/apis`, `/openapi/v3/apis/<group>`, `/openapi/v3/version`: a discovery web service's document. */
  | { kind: "openapiDiscoveryDoc"; name: string }
  | { kind: "openapiV2" }
  | {
      kind: "resource";
      group: string;
      version: string;
      namespace: string;
      /** The path named a namespace (`/namespaces/NS/…`). */
      namespaced: boolean;
      plural: string;
      name: string;
      subresource: string;
      /** Parts followed the subresource (ignored by the CRD handler). */
      extraParts?: boolean;
      /** The deprecated `/watch/` form (`…/<version>/watch/[namespaces/NS/]plural[/name]`): a watch. */
      watch?: boolean;
    }
  /**
   * A path under `/apis/` or `/api/` that names no endpoint: `404 page not found` from the CRD handler, or a
   * Status where `group` is a built-in group (its web service answers).
   */
  | { kind: "notFound"; group?: string }
  /** A path under a web service's root it has no route for (`/version/x`): a 404 `Status`. */
  | { kind: "noRoute" }
  /** `/` and `/index.html` (200), or a path nothing serves (404): the list of the server's paths. */
  | { kind: "index"; found: boolean }
  /** Under `/openapi/v3/` but not a document's path: the OpenAPI v3 handler's empty 200. */
  | { kind: "openapiNone" };

const UNLISTED: Route = { kind: "index", found: false };

/**
 * Routes a request's path (Go's `URL.Path`: escapes decoded, nothing cleaned) as kube-apiserver's director does:
 * the go-restful web services (`/apis` itself, `/apis/<group>…`, `/api…`, `/version…`) first, then the mux's
 * exact paths (`/`, `/index.html`, `/healthz`, `/livez`, `/readyz` and their `/ping`, `/openapi/v2`, `/openapi/v3`) and prefixes
 * (`/openapi/v3/`); any other path gets the index's 404 (so `//apis`, `/apis#x`, `/./version`, `*` and `` do).
 * `segments`: {@link pathSegments} of `path`, when the caller has them.
 */
export function route(path: string, segments?: readonly string[]): Route {
  switch (path) {
    case "/apis":
    case "/apis/":
      return { kind: "apis" };
    case "/":
    case "/index.html":
      return { kind: "index", found: true };
    case "/healthz":
    case "/livez":
    case "/readyz":
      return { kind: "health", endpoint: path.slice(1) };
    case "/healthz/ping":
    case "/livez/ping":
    case "/readyz/ping":
      return { kind: "ping" };
    case "/openapi/v2":
      return { kind: "openapiV2" };
    case "/openapi/v3":
      return { kind: "openapiIndex" };
  }
  if (path.startsWith("/apis/")) return apisRoute(segments ?? pathSegments(path));
  if (path === "/api" || path.startsWith("/api/")) {
    const parts = segments ?? pathSegments(path);
    return parts.length === 1 ? { kind: "core" } : coreRoute(parts.slice(1));
  }
  if (path === "/version" || path.startsWith("/version/")) return (segments ?? pathSegments(path)).length === 1 ? { kind: "version" } : { kind: "noRoute" };
  if (path.startsWith("/openapi/v3/")) {
    const rest = path.slice("/openapi/v3/".length);
    const m = /^apis\/([^/]+)\/([^/]+)$/.exec(rest);
    if (m) return { kind: "openapiDoc", group: m[1]!, version: m[2]! };
    return rest === "apis" || rest === "version" || /^apis\/[^/]+$/.test(rest) ? { kind: "openapiDiscoveryDoc", name: rest } : { kind: "openapiNone" };
  }
  return UNLISTED;
}

/** `/apis/<group>[/<version>[/…]]` (`parts` starts with `apis`; `/apis//` is not the group list). */
function apisRoute(parts: readonly string[]): Route {
  const [, b, c] = parts;
  // No group is named "" (`/apis//x`): the CRD handler's plain 404.
  if (parts.length === 1 || b === "") return { kind: "notFound" };
  if (parts.length === 2) return { kind: "group", group: b! };
  if (parts.length === 3) return { kind: "groupVersion", group: b!, version: c! };
  return resourceRoute(b!, c!, parts.slice(3));
}

/** `/api/v1[/…]`: the legacy core group (served: `v1` only; other versions are unknown paths). */
function coreRoute(parts: readonly string[]): Route {
  const [version] = parts;
  if (version !== "v1") return { kind: "notFound", group: "" };
  if (parts.length === 1) return { kind: "groupVersion", group: "", version };
  const rest = parts.slice(1);
  // RequestInfo: `namespaces/<name>/status|finalize` are subresources of the Namespace, not a namespace.
  if (rest[0] === "namespaces" && rest.length === 3 && (rest[2] === "status" || rest[2] === "finalize")) {
    return { kind: "resource", group: "", version, namespace: "", namespaced: false, plural: "namespaces", name: rest[1]!, subresource: rest[2] };
  }
  return resourceRoute("", version, rest);
}

/** The resource part of a path (`[namespaces/NS/]plural[/name[/subresource]]`). */
function resourceRoute(group: string, version: string, rest: string[]): Route {
  // RequestInfo's special verb: `watch/` before the resource makes the request a watch.
  const watch = rest[0] === "watch" && rest.length >= 2;
  if (watch) rest = rest.slice(1);
  let namespace = "";
  let namespaced = false;
  if (rest[0] === "namespaces" && rest.length >= 3) {
    namespace = rest[1]!;
    namespaced = true;
    rest.splice(0, 2);
  }
  const r: Route = {
    kind: "resource",
    group,
    version,
    namespace,
    namespaced,
    plural: rest[0]!,
    name: rest[1] ?? "",
    subresource: rest[2] ?? "",
  };
  // RequestInfo ignores the parts past the subresource (the CRD handler serves `…/a/status/x` as `…/a/status`);
  // a built-in group's web service has no route for them.
  if (rest.length > 3) r.extraParts = true;
  if (watch) r.watch = true;
  return r;
}
