/**
 * API discovery: legacy (`APIVersions`, `APIGroupList`, `APIGroup`, `APIResourceList`) and aggregated
 * (`apidiscovery.k8s.io` v2 and v2beta1 `APIGroupDiscoveryList`, chosen from the Accept header and
 * echoed in Content-Type, as kubectl requires).
 */
import type { JsonObject } from "../../value/json-value.js";
import type { Registry } from "../registry/registry.js";
import type { ResourceType } from "../registry/resource-type.js";

const CR_VERBS = ["delete", "deletecollection", "get", "list", "patch", "create", "update", "watch"];
const CR_VERBS_TERMINATING = ["delete", "deletecollection", "get", "list", "watch"];
const CRD_VERBS = ["create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"];
const SUB_VERBS = ["get", "patch", "update"];

/** The negotiated discovery format. */
export type DiscoveryFormat = "legacy" | "v2" | "v2beta1";

/** Picks aggregated v2 / v2beta1 when the Accept header asks for it (first acceptable wins). */
export function negotiateDiscovery(accept: string | undefined): DiscoveryFormat {
  if (!accept) return "legacy";
  for (const range of accept.split(",")) {
    const params = range.split(";").map((p) => p.trim());
    if (!params.includes("g=apidiscovery.k8s.io") || !params.includes("as=APIGroupDiscoveryList")) {
      if (params[0] === "application/json" || params[0] === "*/*") return "legacy";
      continue;
    }
    if (params.includes("v=v2")) return "v2";
    if (params.includes("v=v2beta1")) return "v2beta1";
  }
  return "legacy";
}

export function discoveryContentType(f: DiscoveryFormat): string {
  return f === "legacy" ? "application/json" : `application/json;g=apidiscovery.k8s.io;v=${f};as=APIGroupDiscoveryList`;
}

/** What discovery needs to know about a resource. */
export type DiscoveryInfo = Pick<
  ResourceType,
  "group" | "version" | "plural" | "singular" | "kind" | "namespaced" | "shortNames" | "categories" | "status" | "scale" | "storageVersionHash" | "extraSubresources"
>;

/** The legacy core group's name (served under `/api`). */
const CORE_GROUP = "";

/** Everything discovery publishes about one resource. */
export interface DiscoveredResource {
  rt: DiscoveryInfo;
  verbs: string[];
}

/** The resources of each served group version, including apiextensions.k8s.io/v1. */
export class Discovery {
  private cache: { generation: number; groups: Map<string, Map<string, DiscoveredResource[]>> } | undefined;

  /** `host:port` clients reach the server at (`serverAddressByClientCIDRs`). */
  serverAddress = "";

  constructor(
    private readonly registry: Registry,
    private readonly crdType: ResourceType,
    /** Built-in resources served besides CRDs (RBAC, self reviews). */
    private readonly builtins: readonly DiscoveredResource[] = [],
  ) {}

  /** group → version (preferred first) → resources. */
  groups(): Map<string, Map<string, DiscoveredResource[]>> {
    if (this.cache && this.cache.generation === this.registry.generation) return this.cache.groups;
    const groups = new Map<string, Map<string, DiscoveredResource[]>>();
    // Built-in groups first (in the order given: kube-apiserver's group priority), then CRDs' groups.
    for (const b of this.builtins) {
      let vm = groups.get(b.rt.group);
      if (!vm) groups.set(b.rt.group, (vm = new Map()));
      let list = vm.get(b.rt.version);
      if (!list) vm.set(b.rt.version, (list = []));
      list.push(b);
    }
    groups.set(this.crdType.group, new Map([[this.crdType.version, [{ rt: this.crdType, verbs: CRD_VERBS }]]]));
    for (const [group, versions] of this.registry.groupVersions()) {
      const vm = new Map<string, DiscoveredResource[]>();
      for (const v of versions) {
        vm.set(
          v,
          this.registry.resourcesOf(group, v).map((rt) => ({ rt, verbs: rt.terminating ? CR_VERBS_TERMINATING : CR_VERBS })),
        );
      }
      groups.set(group, vm);
    }
    this.cache = { generation: this.registry.generation, groups };
    return groups;
  }

  /** The built-in (non-CRD) groups and their versions, the apiextensions group among them (`""`: the core group). */
  builtinGroupVersions(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const { rt } of [...this.builtins, { rt: this.crdType }]) {
      const versions = out.get(rt.group) ?? [];
      if (!versions.includes(rt.version)) versions.push(rt.version);
      out.set(rt.group, versions);
    }
    return out;
  }

  /** A group served by a built-in handler (go-restful in kube-apiserver), not by the CRD handler. */
  isBuiltinGroup(group: string): boolean {
    return group === this.crdType.group || this.builtins.some((b) => b.rt.group === group);
  }

  /** `GET /api`: the legacy core group (`v1`, when a core resource such as namespaces is served). */
  coreVersions(format: DiscoveryFormat): JsonObject {
    const core = this.groups().get(CORE_GROUP);
    if (format !== "legacy") {
      // The core group has no name: its metadata is empty (creationTimestamp is omitted when zero, as in /apis).
      const items = core ? [{ metadata: {}, versions: this.aggregatedVersions(core) }] : [];
      return { kind: "APIGroupDiscoveryList", apiVersion: `apidiscovery.k8s.io/${format}`, metadata: {}, items };
    }
    if (!core) return { kind: "APIVersions", versions: [], serverAddressByClientCIDRs: [] };
    return {
      kind: "APIVersions",
      versions: [...core.keys()],
      serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress: this.serverAddress }],
    };
  }

  private aggregatedVersions(versions: Map<string, DiscoveredResource[]>): JsonObject[] {
    return [...versions.entries()].map(([v, resources]) => ({
      version: v,
      resources: resources.map((r) => aggregatedResource(r, r.rt === this.crdType || r.rt.group === CORE_GROUP)),
      freshness: "Current",
    }));
  }

  /** `GET /apis`. */
  apis(format: DiscoveryFormat): JsonObject {
    // The core group is served under /api, not /apis.
    const groups = new Map([...this.groups()].filter(([g]) => g !== CORE_GROUP));
    if (format === "legacy") {
      // The aggregator-less server answers the list without apiVersion; its own (apiextensions) group carries
      // the server address, the groups of CRDs do not.
      return {
        kind: "APIGroupList",
        groups: [...groups.keys()].map((g) => {
          const json = this.groupJson(g, [...groups.get(g)!.keys()]);
          if (g === this.crdType.group) json["serverAddressByClientCIDRs"] = [{ clientCIDR: "0.0.0.0/0", serverAddress: this.serverAddress }];
          return json;
        }),
      };
    }
    const items = [...groups.entries()].map(([g, versions]) => ({ metadata: { name: g }, versions: this.aggregatedVersions(versions) }));
    return { kind: "APIGroupDiscoveryList", apiVersion: `apidiscovery.k8s.io/${format}`, metadata: {}, items };
  }

  /** `GET /apis/<group>`, or undefined when the group is not served. */
  group(group: string): JsonObject | undefined {
    const versions = group === CORE_GROUP ? undefined : this.groups().get(group);
    return versions ? { ...this.groupJson(group, [...versions.keys()]), kind: "APIGroup", apiVersion: "v1" } : undefined;
  }

  private groupJson(group: string, versions: string[]): JsonObject {
    const gvs = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
    return { name: group, versions: gvs, preferredVersion: gvs[0]! };
  }

  /** `GET /apis/<group>/<version>`, or undefined when not served. */
  resourceList(group: string, version: string): JsonObject | undefined {
    const resources = this.groups().get(group)?.get(version);
    if (!resources) return undefined;
    const list: JsonObject[] = [];
    for (const { rt, verbs } of resources) {
      const main: JsonObject = { name: rt.plural, singularName: rt.singular, namespaced: rt.namespaced, kind: rt.kind, verbs };
      if (rt.shortNames.length > 0) main["shortNames"] = rt.shortNames;
      if (rt.categories.length > 0) main["categories"] = rt.categories;
      if (rt.storageVersionHash) main["storageVersionHash"] = rt.storageVersionHash;
      list.push(main);
      // status and the extra subresources in name order (`namespaces/finalize` before `namespaces/status`).
      const subs = [...(rt.extraSubresources ?? []), ...(rt.status ? [{ name: "status", verbs: SUB_VERBS }] : [])];
      for (const sub of subs.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        list.push({ name: `${rt.plural}/${sub.name}`, singularName: "", namespaced: rt.namespaced, kind: rt.kind, verbs: sub.verbs });
      }
      if (rt.scale) {
        list.push({
          name: `${rt.plural}/scale`,
          singularName: "",
          namespaced: rt.namespaced,
          group: "autoscaling",
          version: "v1",
          kind: "Scale",
          verbs: SUB_VERBS,
        });
      }
    }
    // The legacy core group's list carries no apiVersion (kube-apiserver answers `{"kind":"APIResourceList","groupVersion":"v1",…}`).
    if (group === CORE_GROUP) return { kind: "APIResourceList", groupVersion: version, resources: list };
    return { kind: "APIResourceList", apiVersion: "v1", groupVersion: `${group}/${version}`, resources: list };
  }
}

function aggregatedResource({ rt, verbs }: DiscoveredResource, builtin: boolean): JsonObject {
  // Built-in resources name only the kind of their own group version (the apiserver's discovery conversion).
  const kindOf = builtin ? { group: "", version: "", kind: rt.kind } : { group: rt.group, version: rt.version, kind: rt.kind };
  const out: JsonObject = {
    resource: rt.plural,
    responseKind: kindOf,
    scope: rt.namespaced ? "Namespaced" : "Cluster",
    singularResource: rt.singular,
    verbs,
  };
  if (rt.shortNames.length > 0) out["shortNames"] = rt.shortNames;
  if (rt.categories.length > 0) out["categories"] = rt.categories;
  // Subresources in name order, as the aggregated discovery lists them.
  const subs: JsonObject[] = (rt.extraSubresources ?? []).map((s) => ({ subresource: s.name, responseKind: kindOf, verbs: s.verbs }));
  if (rt.status) subs.push({ subresource: "status", responseKind: kindOf, verbs: SUB_VERBS });
  if (rt.scale) subs.push({ subresource: "scale", responseKind: { group: "autoscaling", version: "v1", kind: "Scale" }, verbs: SUB_VERBS });
  if (subs.length > 0) out["subresources"] = subs;
  return out;
}
