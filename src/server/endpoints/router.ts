/** Parses request paths into the endpoint they address. */

export type Route =
  | { kind: "version" }
  | { kind: "health"; endpoint: string }
  | { kind: "core" }
  | { kind: "apis" }
  | { kind: "group"; group: string }
  | { kind: "groupVersion"; group: string; version: string }
  | { kind: "openapiIndex" }
  | { kind: "openapiDoc"; group: string; version: string }
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
    }
  | { kind: "notFound" };

/** Routes a URL path (already stripped of the query string). */
export function route(pathname: string): Route {
  const parts = pathname.split("/").filter((p) => p !== "");
  let decoded = parts;
  if (pathname.includes("%")) {
    try {
      decoded = parts.map((p) => decodeURIComponent(p));
    } catch {
      return { kind: "notFound" };
    }
  }
  const [a, b, c, d] = decoded;
  if (a === "version" && decoded.length === 1) return { kind: "version" };
  if ((a === "healthz" || a === "livez" || a === "readyz") && decoded.length === 1) return { kind: "health", endpoint: a };
  if (a === "api" && decoded.length === 1) return { kind: "core" };
  if (a === "openapi") {
    if (b === "v3" && decoded.length === 2) return { kind: "openapiIndex" };
    if (b === "v3" && c === "apis" && decoded.length === 5) return { kind: "openapiDoc", group: d!, version: decoded[4]! };
    if (b === "v2" && decoded.length === 2) return { kind: "openapiV2" };
    return { kind: "notFound" };
  }
  if (a === "swagger-2.0.0.pb-v1" && decoded.length === 1) return { kind: "openapiV2" };
  if (a === "api") return coreRoute(decoded.slice(1));
  if (a !== "apis") return { kind: "notFound" };
  if (decoded.length === 1) return { kind: "apis" };
  if (decoded.length === 2) return { kind: "group", group: b! };
  if (decoded.length === 3) return { kind: "groupVersion", group: b!, version: c! };
  return resourceRoute(b!, c!, decoded.slice(3));
}

/** `/api/v1[/…]`: the legacy core group (served: `v1` only; other versions are unknown paths). */
function coreRoute(parts: string[]): Route {
  const [version] = parts;
  if (version !== "v1") return { kind: "notFound" };
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
  let namespace = "";
  let namespaced = false;
  if (rest[0] === "namespaces" && rest.length >= 3) {
    namespace = rest[1]!;
    namespaced = true;
    rest.splice(0, 2);
  }
  if (rest.length > 3) return { kind: "notFound" };
  return {
    kind: "resource",
    group,
    version,
    namespace,
    namespaced,
    plural: rest[0]!,
    name: rest[1] ?? "",
    subresource: rest[2] ?? "",
  };
}
