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
 * before the answer, which is the CRD as created. Where the store has no such commit (etcd), the status write is
 * computed while the create is on its way to the store and sent as soon as it has its revision (a
 * compare-and-swap on it, as any pass writes), so that work does not wait for the create's round trip. The revision
 * comes from the store's answer or from the registry's watch event of exactly the value written, whichever is first
 * (etcd often sends the event before the Txn's answer; the event proves the write committed), and the status write
 * is done on its answer or its event likewise; the create's answer still waits for the store's answer to the create.
 * A group's passes run one at a time, each seeing the names the previous ones accepted.
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
  /** The tail of the passes running per group: a group's passes run one at a time (see {@link exclusive}). */
  private readonly running = new Map<string, Promise<void>>();

  /** `store` should resolve writes once the registry has seen them (registry-synced-store.ts). */
  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
  ) {}

  /**
   * Runs `pass` after the passes of the group already queued, as Kubernetes' naming controller works its queue one
   * CRD at a time: a pass sees the names the previous ones accepted (their status writes resolve once the
   * registry has them), so two CRDs of a group created at once cannot both accept one name. Keyed by the group
   * part of the CRD's name (`<plural>.<group>`, which validation requires), known before the CRD is read.
   */
  private exclusive<T>(name: string, pass: () => Promise<T>): Promise<T> {
    const group = name.slice(name.indexOf(".") + 1);
    const run = (this.running.get(group) ?? Promise.resolve()).then(pass);
    const tail = run.then(
      () => {},
      () => {},
    );
    this.running.set(group, tail);
    void tail.then(() => {
      if (this.running.get(group) === tail) this.running.delete(group);
    });
    return run;
  }

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
   * has no NonStructuralSchema condition and gets none, so the schemas are not checked a second time. Also for a
   * re-check after another CRD of the group changed (its schemas did not: its condition stays as it is).
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
    return this.createdStatus(key, parseStored(created), created);
  }

  /** The status write of the CRD `crd` just created as `value` (its parse handed to the registry's watch event). */
  private createdStatus(key: string, crd: JsonObject, value: string): string | undefined {
    this.registry.prime(key, value, crd);
    return this.statusWrite(key.slice(CRD_PREFIX.length), crd, true);
  }

  /**
   * The status write of a CRD whose create is under way (computed during the create's round trip to the
   * store), with what it was computed from: the other CRDs of its group as the registry holds them now.
   */
  prepareCreated(key: string, value: string): PreparedStatus | undefined {
    try {
      const crd = parseStored(value);
      const group = groupOf(crd);
      const others = this.registry.groupState(group, key.slice(CRD_PREFIX.length));
      const next = this.createdStatus(key, crd, value);
      return next === undefined ? undefined : { key, next, group, others };
    } catch {
      return undefined;
    }
  }

  /**
   * Writes a prepared status once the create has its revision: as {@link sync} would, a compare-and-swap on that
   * revision, provided the group's other CRDs are still as the registry had them when it was computed. False
   * when it was not written (the caller then runs the pass as usual).
   */
  private async writePrepared(created: StoredValue, prepared: PreparedStatus): Promise<boolean> {
    if (this.registry.groupState(prepared.group, prepared.key.slice(CRD_PREFIX.length)) !== prepared.others) return false;
    // The write's watch event (exactly this value) tells as much as its answer: committed, and held by the registry.
    const seen = this.registry.whenStored(prepared.key, prepared.next);
    try {
      const written = this.store.update(prepared.key, prepared.next, created.modRevision);
      // Handled below; not an unhandled rejection while the value is parsed.
      written.catch(() => {});
      // The status write's watch event takes this parse, made while etcd commits the write rather than after it.
      // (Unless the registry has it already: a store that delivers its events at once.)
      await afterIo();
      const held = this.registry.get(prepared.key.slice(CRD_PREFIX.length));
      if (held === undefined || held.revision <= created.modRevision) this.registry.prime(prepared.key, prepared.next, parseStored(prepared.next));
      await Promise.race([written, seen.seen]);
      return true;
    } catch (e) {
      if (e instanceof KeyNotFoundError || e instanceof RevisionConflictError) return false;
      throw e;
    } finally {
      seen.cancel();
    }
  }

  /** The registry's wait for the event of a create this server sent ({@link Registry.whenStored}). */
  whenCreated(key: string, value: string): { seen: Promise<number>; cancel: () => void } {
    return this.registry.whenStored(key, value);
  }

  /** What a follow-up computed now depends on: the CRDs as of the registry's revision. */
  followUpGuard(): FollowUpGuard {
    return { prefix: CRD_PREFIX, unchangedSince: this.registry.revision };
  }

  /**
   * The passes for every other CRD of `group` (default: the group `name` has in the registry) after a write
   * of `name` (a name taken or freed changes their verdict).
   */
  afterGroupChange(name: string, group?: string): Promise<void> {
    return this.exclusive(name, () => this.groupPass(name, group));
  }

  private async groupPass(name: string, group = this.registry.get(name)?.group): Promise<void> {
    if (!group) return;
    try {
      for (const other of this.registry.namesInGroup(group)) {
        if (other !== name) await this.recheck(other);
      }
    } catch {
      // Reported by the next request that reaches the store.
    }
  }

  /**
   * The pass for another CRD of a group whose names changed. Only its names' status can change (its
   * NonStructuralSchema condition depends on its own schemas alone, checked when it was written), so it is worked
   * out from the registry's object, as Kubernetes' naming controller works from its lister: the store is read, and
   * the CRD written (compare-and-swap, schemas checked as any pass does), only when that status changes. Installing
   * the n-th CRD of a group then costs no store read and no schema walk per other CRD of the group.
   */
  private async recheck(name: string): Promise<void> {
    const held = this.registry.get(name);
    if (!held || this.statusWrite(name, held.obj, true) === undefined) return;
    await this.sync(name);
  }

  /** A pass over every CRD (at startup), in name order. */
  async syncAll(): Promise<void> {
    const names = [...this.registry.entries()].map((e) => e.name).sort();
    try {
      for (const n of names) await this.exclusive(n, () => this.sync(n));
    } catch {
      // A store failure: the next write of each CRD runs its pass.
    }
  }

  /**
   * The pass for `name`, then for every other CRD of `group` (or of the CRD's group). The write it follows
   * has succeeded either way: a store failure here leaves the status to the next write.
   */
  afterWrite(name: string, group?: string, written?: StoredValue, created = false): Promise<void> {
    return this.exclusive(name, () => this.pass(name, group, written, created));
  }

  /**
   * After the create of `created`: its prepared status write ({@link prepareCreated}) when it still holds, else the
   * pass; then the group's other CRDs.
   */
  afterCreate(created: StoredValue, prepared: PreparedStatus | undefined): Promise<void> {
    const name = created.key.slice(CRD_PREFIX.length);
    return this.exclusive(name, async () => {
      if (prepared && (await this.writePrepared(created, prepared).catch(() => false))) await this.groupPass(name, prepared.group);
      else await this.pass(name, undefined, created, true);
    });
  }

  private async pass(name: string, group?: string, written?: StoredValue, created = false): Promise<void> {
    let g: string | undefined;
    try {
      g = (await this.sync(name, written, created)) || group;
    } catch {
      // Reported by the next request that reaches the store.
      return;
    }
    // Only the group's CRDs (not every CRD: installing n CRDs stays O(n)).
    if (g) await this.groupPass(name, g);
  }
}

/** A status write computed for a CRD being created (see {@link CrdNamingController.prepareCreated}). */
export interface PreparedStatus {
  key: string;
  /** The CRD with its status, encoded for the store. */
  next: string;
  group: string;
  /** The registry's view of the group's other CRDs it was computed from ({@link Registry.groupState}). */
  others: string;
}

/** Resolves after the I/O queued so far has been handed to the OS (a request just sent is on its way). */
function afterIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The store CRD requests write through: every write (or delete) is followed by the controllers' pass. */
export function crdNamingStore(store: Store, controller: CrdNamingController): Store {
  const nameOf = (key: string) => key.slice(CRD_PREFIX.length);
  return {
    currentRevision: () => store.currentRevision(),
    get: (key) => store.get(key),
    list: (prefix) => store.list(prefix),
    listRange: (prefix, range) => store.listRange(prefix, range),
    watch: (prefix, from, onEvent, onError, options) => store.watch(prefix, from, onEvent, onError, options),
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
        // The create's revision, from whichever comes first: the store's answer, or the registry's watch event of
        // exactly this value (it proves the create committed; etcd often sends it before the Txn's answer).
        const added = controller.whenCreated(key, value);
        const pending = store.unsynced.create(key, value);
        // Handled below; not an unhandled rejection while the status write is computed.
        pending.catch(() => {});
        // The status write is computed while the create is under way (it needs only the value and the
        // registry), and sent as soon as the create has its revision.
        await afterIo();
        const prepared = controller.prepareCreated(key, value);
        let revision: number;
        try {
          revision = await Promise.race([pending.then((sv) => sv.modRevision), added.seen]);
        } finally {
          added.cancel();
        }
        await controller.afterCreate({ key, value, createRevision: revision, modRevision: revision }, prepared);
        // The answer is still the store's (and its error, if it has one).
        const sv = await pending;
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
