/** The built-in (non-CRD) resources the server serves: RBAC, and the self reviews (discovery only). */
import type { DiscoveredResource } from "../discovery/discovery.js";
import type { ResourceType } from "../registry/resource-type.js";
import { rbacResourceTypes } from "./rbac-types.js";
import { REVIEW_RESOURCES } from "./self-reviews.js";

/** Verbs of a built-in REST storage with every operation. */
const ALL_VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];

/** `group/version/plural` → type, for the REST handlers. */
export function builtinTypes(): Map<string, ResourceType> {
  return new Map(rbacResourceTypes().map((rt) => [`${rt.group}/${rt.version}/${rt.plural}`, rt]));
}

/**
 * Discovery entries of the built-in resources, in kube-apiserver's group order (authentication.k8s.io,
 * authorization.k8s.io, rbac.authorization.k8s.io; apiextensions.k8s.io follows), resources by name.
 */
export function builtinDiscovery(types: Map<string, ResourceType>): DiscoveredResource[] {
  const out: DiscoveredResource[] = [];
  for (const r of [...REVIEW_RESOURCES].sort((a, b) => (a.group < b.group ? -1 : 1))) {
    out.push({
      rt: { group: r.group, version: "v1", plural: r.plural, singular: "", kind: r.kind, namespaced: false, shortNames: [], categories: [], status: false },
      verbs: ["create"],
    });
  }
  for (const rt of [...types.values()].sort((a, b) => (a.plural < b.plural ? -1 : 1))) out.push({ rt, verbs: rt.verbs ?? ALL_VERBS });
  return out;
}
