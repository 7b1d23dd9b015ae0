/**
 * The API server's index (`routes.IndexLister`): `GET /` and `/index.html` answer 200, and a path no handler
 * serves answers 404 (the mux's NotFoundHandler of a server without a delegate), both with the sorted list of
 * the paths the server lists (`metav1.RootPaths`), written as `json.MarshalIndent(v, "", "  ")` without a
 * trailing newline and with `Content-Type: application/json`.
 */
import { compareGoStrings } from "../../go/fmt.js";
import { goJsonString } from "../../go/json.js";

/** The group versions served by built-in (non-CRD) handlers; `""` is the legacy core group under `/api`. */
export type BuiltinGroupVersions = ReadonlyMap<string, Iterable<string>>;

/**
 * The listed paths of crdkit's server: each web service's root (`/api`, `/api/v1`, `/apis`, `/apis/<group>`,
 * `/apis/<group>/<version>` of the built-in groups — CRD groups are served under `/apis/` and not listed —,
 * `/version`) and the mux's listed paths (`/apis/`, `/healthz`, `/livez`, `/readyz` and their `/ping` check,
 * `/openapi/v2`, `/openapi/v3`, `/openapi/v3/`), sorted as Go's `sort.Strings`.
 */
export function listedPaths(builtin: BuiltinGroupVersions): string[] {
  const out = new Set(["/apis", "/apis/", "/openapi/v2", "/openapi/v3", "/openapi/v3/", "/version"]);
  for (const h of ["/healthz", "/livez", "/readyz"]) out.add(h).add(`${h}/ping`);
  for (const [group, versions] of builtin) {
    const root = group === "" ? "/api" : `/apis/${group}`;
    out.add(root);
    for (const v of versions) out.add(`${root}/${v}`);
  }
  return [...out].sort(compareGoStrings);
}

/** The body of the index: `{"paths": [...]}` indented by two spaces, as Go's `json.MarshalIndent`. */
export function indexBody(paths: readonly string[]): string {
  if (paths.length === 0) return '{\n  "paths": []\n}';
  return `{\n  "paths": [\n${paths.map((p) => `    ${goJsonString(p)}`).join(",\n")}\n  ]\n}`;
}
