/**
 * The naming and establishing controllers (apiextensions `controller/status`, `controller/establish`):
 * after a CRD is written, its `status.acceptedNames` and `NamesAccepted` / `Established` conditions are
 * written in a second write through the status subresource, as field manager `kube-apiserver` (operation
 * Update, subresource status), as Kubernetes' controllers do — so the answer to a CRD create has no
 * conditions yet, a later read has them. Every other CRD of the group is re-checked too (a name freed or
 * taken changes their verdict), as the naming controller requeues the group.
 *
 * crdkit runs the pass before answering the CRD write (`crdNamingStore`), so a CRD created through this
 * server is established when its create returns; Kubernetes runs it moments later. The status write of a
 * create is handed to the store with the create where it can share its commit (`Store.createThen`, SQLite:
 * one fsync for both); still two revisions (ADDED without conditions, then MODIFIED with them), both durable
 * before the answer, which is the CRD as created.
 */
import { type FollowUpGuard, KeyNotFoundError, RevisionConflictError, type Store, type StoredValue } from "../../storage/types.js";
import { deepEqual, isObject, type JsonObject } from "../../value/json-value.js";
import { encodeObject, parseStored } from "../endpoints/rest-common.js";
import type { Registry } from "../registry/registry.js";
import { CRD_PREFIX } from "../registry/registry.js";
import { isSynced } from "../registry/registry-synced-store.js";
import { CRD_TYPE } from "../ssa/crd-type.js";
import { trackUpdate } from "../ssa/field-manager.js";
import { namingStatus } from "./crd-status.js";
import { withNonStructuralCondition } from "./nonstructural-condition.js";
import { nowTimestamp } from "../registry/object-meta.js";

/** The field manager of the API server's own controllers (its loopback client's user agent). */
export const CONTROLLER_MANAGER = "kube-apiserver";

/** Compare-and-swap attempts before a pass gives up (another writer keeps changing the CRD). */
const MAX_ATTEMPTS = 10;

function groupOf(crd: JsonObject): string {
  const spec = crd["spec"];
  return isObject(spec) && typeof spec["group"] === "string" ? spec["group"] : "";
}

export class CrdNamingController {
  /** `store` should resolve writes once the registry has seen them (registry-synced-store.ts). */
  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
  ) {}

  /**
   * One pass for the CRD `name`; returns its group ("" when it is gone). `written`: the CRD as this server
   * just wrote it, used instead of reading it back first (the status write is a compare-and-swap on its
   * revision, so a change made meanwhile fails it and the pass reads the CRD again).
   */
  async sync(name: string, written?: StoredValue, created = false): Promise<string> {
    const key = CRD_PREFIX + name;
    let known = written?.key === key ? written : undefined;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const sv = known ?? (await this.store.get(key));
      const admitted = created && sv === known;
      known = undefined;
      if (!sv) return "";
      const crd = this.parsed(key, sv);
      const group = groupOf(crd);
      const next = this.statusWrite(name, crd, admitted);
      if (next === undefined) return group;
      try {
        await this.store.update(key, next, sv.modRevision);
        return group;
      } catch (e) {
        if (e instanceof KeyNotFoundError) return "";
        if (!(e instanceof RevisionConflictError)) throw e;
      }
    }
    return "";
  }

  /**
   * The CRD of `sv` parsed once: the registry's object when it already holds that revision, else parsed here
   * and handed to the registry for the write's watch event (read-only from then on: statusWrite builds copies).
   */
  private parsed(key: string, sv: StoredValue): JsonObject {
    const held = this.registry.objectAt(key.slice(CRD_PREFIX.length), sv.modRevision);
    if (held) return held;
    const crd = parseStored(sv.value);
    this.registry.prime(key, sv.value, crd);
    return crd;
  }

  /**
   * The CRD with the status the controllers give it (accepted names, conditions, the nonstructural
   * condition, their managed-fields entry), encoded for the store; undefined when the status is already so.
   * `created`: the CRD as this server's create admission stored it, which required structural schemas and
   * `preserveUnknownFields` other than true (`requireStructuralSchema` of a v1 create), and reset the status: it
   * has no NonStructuralSchema condition and gets none, so the schemas are not checked a second time.
   */
  private statusWrite(name: string, crd: JsonObject, created = false): string | undefined {
    const status = namingStatus(crd, this.registry.takenNames(groupOf(crd), name));
    if (!created) {
      // The nonstructuralschema controller's condition, kept in the same pass.
      const conds = Array.isArray(status["conditions"]) ? status["conditions"] : [];
      const withNs = withNonStructuralCondition(crd, conds, nowTimestamp());
      if (withNs !== conds) status["conditions"] = withNs;
    }
    if (deepEqual(status, crd["status"] ?? null)) return undefined;
    const next = trackUpdate(crd, { ...crd, status }, CRD_TYPE, CONTROLLER_MANAGER, "apiextensions.k8s.io/v1", "status", ["spec", "metadata"]);
    return encodeObject(next);
  }

  /**
   * The status write that follows a CRD create (`Store.createThen`): as {@link sync} would write it,
   * computed from the registry as it is now — the guard makes the store write it only if no other CRD
   * changed since the revision the registry reflects; otherwise {@link afterWrite} does the pass.
   */
  followUp(key: string, created: string): string | undefined {
    if (!key.startsWith(CRD_PREFIX)) return undefined;
    const crd = parseStored(created);
    this.registry.prime(key, created, crd);
    return this.statusWrite(key.slice(CRD_PREFIX.length), crd, true);
  }

  /** What a follow-up computed now depends on: the CRDs as of the registry's revision. */
  followUpGuard(): FollowUpGuard {
    return { prefix: CRD_PREFIX, unchangedSince: this.registry.revision };
  }

  /**
   * The passes for every other CRD of `group` (default: the group `name` has in the registry) after a write
   * of `name` (a name taken or freed changes their verdict).
   */
  async afterGroupChange(name: string, group = this.registry.get(name)?.group): Promise<void> {
    if (!group) return;
    try {
      for (const other of this.registry.namesInGroup(group)) {
        if (other !== name) await this.sync(other);
      }
    } catch {
      // Reported by the next request that reaches the store.
    }
  }

  /** A pass over every CRD (at startup), in name order. */
  async syncAll(): Promise<void> {
    const names = [...this.registry.entries()].map((e) => e.name).sort();
    try {
      for (const n of names) await this.sync(n);
    } catch {
      // A store failure: the next write of each CRD runs its pass.
    }
  }

  /**
   * The pass for `name`, then for every other CRD of `group` (or of the CRD's group). The write it follows
   * has succeeded either way: a store failure here leaves the status to the next write.
   */
  async afterWrite(name: string, group?: string, written?: StoredValue, created = false): Promise<void> {
    let g: string | undefined;
    try {
      g = (await this.sync(name, written, created)) || group;
    } catch {
      // Reported by the next request that reaches the store.
      return;
    }
    // Only the group's CRDs (not every CRD: installing n CRDs stays O(n)).
    if (g) await this.afterGroupChange(name, g);
  }
}

/** The store CRD requests write through: every write (or delete) is followed by the controllers' pass. */
export function crdNamingStore(store: Store, controller: CrdNamingController): Store {
  const nameOf = (key: string) => key.slice(CRD_PREFIX.length);
  return {
    currentRevision: () => store.currentRevision(),
    get: (key) => store.get(key),
    list: (prefix) => store.list(prefix),
    listRange: (prefix, range) => store.listRange(prefix, range),
    watch: (prefix, from, onEvent, onError) => store.watch(prefix, from, onEvent, onError),
    deletePrefix: (prefix) => store.deletePrefix(prefix),
    close: () => store.close(),
    create: async (key, value) => {
      if (store.createThen) {
        // The status write shares the create's commit (one fsync); the answer is still the CRD as created.
        const { created, next } = await store.createThen(key, value, (k, v) => controller.followUp(k, v), controller.followUpGuard());
        if (next) await controller.afterGroupChange(nameOf(key));
        else await controller.afterWrite(nameOf(key), undefined, created, true);
        return created;
      }
      if (isSynced(store)) {
        // The pass needs no wait for the create to reach the registry (its names are compared with the other
        // CRDs'); its status write waits for the registry, which then holds the create too. Either way the
        // answer waits until the registry holds the CRD.
        const sv = await store.unsynced.create(key, value);
        await controller.afterWrite(nameOf(key), undefined, sv, true);
        await store.waitSeen(key, sv.modRevision);
        return sv;
      }
      const sv = await store.create(key, value);
      await controller.afterWrite(nameOf(key), undefined, sv, true);
      return sv;
    },
    update: async (key, value, expected) => {
      const sv = await store.update(key, value, expected);
      await controller.afterWrite(nameOf(key), undefined, sv);
      return sv;
    },
    delete: async (key, expected) => {
      const res = await store.delete(key, expected);
      await controller.afterWrite(nameOf(key), groupOf(parseStored(res.last.value)));
      return res;
    },
  };
}
