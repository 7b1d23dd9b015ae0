/**
 * The live set of CRDs, kept in step with the store by a watch on the CRD prefix, and the
 * {@link ResourceType}s they serve (built lazily per CRD version and dropped when the CRD changes, so
 * installing CRD n+1 does not rebuild the other n).
 */
import { createHash } from "node:crypto";
import type { Store, StoreEvent } from "../../storage/types.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { createCrAdmission } from "./cr-admission.js";
import { type VersionConverter, versionConverter, type WebhookSettings } from "../conversion/conversion.js";
import { type CompileResult, tryCompileCrd } from "../../pipeline/compile.js";
import { rootType, type TypeNode } from "../ssa/type-schema.js";
import { conditionTrue, readNames, type CrdNames, type TakenNames } from "../controllers/crd-status.js";
import { compileJsonPath, type CompiledPath } from "../tableconvertor/jsonpath.js";
import { type ResourceType, type ScaleSpec, storageVersionHash } from "./resource-type.js";
import { PrefixInformer } from "./prefix-informer.js";
import { parseStored } from "../endpoints/rest-common.js";
import { DEFAULT_COLUMNS, TableConvertor, type PrinterColumn } from "../tableconvertor/table.js";

/** Storage prefix of CRD objects. */
export const CRD_PREFIX = "/registry/apiextensions.k8s.io/customresourcedefinitions/";

/** One served or unserved version of a CRD. */
export interface CrdVersionInfo {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  raw: JsonObject;
}

/** A CRD as the registry holds it. */
export interface CrdEntry {
  name: string;
  obj: JsonObject;
  /** The store revision of the CRD (its resourceVersion). */
  revision: number;
  group: string;
  names: CrdNames;
  namespaced: boolean;
  versions: CrdVersionInfo[];
  established: boolean;
  terminating: boolean;
  types: Map<string, ResourceType>;
  /** Built on first use: converts objects between the versions (storage version on write). */
  converter?: VersionConverter;
  /** Built on first use: the engine's compilation of this CRD revision, shared by admission and conversion. */
  compiled?: CompileResult;
}

function str(o: JsonObject, k: string): string {
  return typeof o[k] === "string" ? (o[k] as string) : "";
}

function toEntry(name: string, obj: JsonObject, revision: number): CrdEntry {
  const spec = isObject(obj["spec"]) ? obj["spec"] : {};
  const status = isObject(obj["status"]) ? obj["status"] : {};
  const versions: CrdVersionInfo[] = (Array.isArray(spec["versions"]) ? spec["versions"] : []).filter(isObject).map((v) => {
    const info: CrdVersionInfo = {
      name: str(v, "name"),
      served: v["served"] === true,
      storage: v["storage"] === true,
      deprecated: v["deprecated"] === true,
      raw: v,
    };
    if (typeof v["deprecationWarning"] === "string") info.deprecationWarning = v["deprecationWarning"];
    return info;
  });
  const meta = isObject(obj["metadata"]) ? obj["metadata"] : {};
  return {
    name,
    obj,
    revision,
    group: str(spec, "group"),
    names: readNames(status["acceptedNames"]),
    namespaced: spec["scope"] === "Namespaced",
    versions,
    established: conditionTrue(obj, "Established"),
    terminating: typeof meta["deletionTimestamp"] === "string" || conditionTrue(obj, "Terminating"),
    types: new Map(),
  };
}

function columnsOf(v: JsonObject): PrinterColumn[] {
  const cols = Array.isArray(v["additionalPrinterColumns"]) ? v["additionalPrinterColumns"].filter(isObject) : [];
  if (cols.length === 0) return DEFAULT_COLUMNS;
  return cols.map((c) => {
    const jsonPath = str(c, "jsonPath");
    return {
      name: str(c, "name"),
      type: str(c, "type"),
      format: str(c, "format"),
      description: str(c, "description") || `Custom resource definition column (in JSONPath format): ${jsonPath}`,
      priority: typeof c["priority"] === "number" ? c["priority"] : 0,
      jsonPath,
    };
  });
}

function scaleOf(v: JsonObject): ScaleSpec | undefined {
  const sub = isObject(v["subresources"]) ? v["subresources"] : {};
  const sc = sub["scale"];
  if (!isObject(sc)) return undefined;
  const out: ScaleSpec = { specReplicasPath: str(sc, "specReplicasPath"), statusReplicasPath: str(sc, "statusReplicasPath") };
  if (typeof sc["labelSelectorPath"] === "string") out.labelSelectorPath = sc["labelSelectorPath"];
  return out;
}

/** Kube-aware version order (`v1` > `v1beta2` > `v1beta1` > `v1alpha1` > others alphabetically). */
export function compareKubeVersions(a: string, b: string): number {
  const parse = (s: string) => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(s);
    if (!m) return undefined;
    return { major: Number(m[1]), stage: m[2] === undefined ? 2 : m[2] === "beta" ? 1 : 0, minor: Number(m[3] ?? 0) };
  };
  const x = parse(a);
  const y = parse(b);
  if (x && y) {
    if (x.stage !== y.stage) return y.stage - x.stage;
    if (x.major !== y.major) return y.major - x.major;
    return y.minor - x.minor;
  }
  if (x) return -1;
  if (y) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The CRD registry. */
export class Registry {
  private readonly crds = new Map<string, CrdEntry>();
  /** `group` → `plural` → CRD name. */
  private readonly byResource = new Map<string, Map<string, string>>();
  /** `group` → the names of its CRDs (accepted names or not). */
  private readonly byGroup = new Map<string, Set<string>>();
  private changeCounter = 0;
  private readonly informer: PrefixInformer;
  /** Controllers that follow CRDs through the registry's watch instead of one of their own. */
  private readonly followers: ((name: string, crd: JsonObject) => void)[] = [];
  /**
   * Values this server wrote (or is writing) and has parsed already, by key and text: their watch event takes the
   * object (see {@link prime}). A key may have two at once (a create's, and the status write sent behind it).
   */
  private readonly primed = new Map<string, Map<string, JsonObject>>();
  private primedCount = 0;
  /** Writes of this server under way, by key: the value written, and who waits for its event (see {@link whenStored}). */
  private readonly storedWaiters = new Map<string, StoredWaiter[]>();

  /**
   * The registry of the CRDs in `store`; {@link start} loads them and follows their changes.
   * `knownRevision` is the newest store revision the server has seen (a resource's watch cache start).
   */
  constructor(
    store: Store,
    private readonly knownRevision?: () => number,
    /** How conversion webhooks are reached. */
    private readonly webhooks: WebhookSettings = {},
  ) {
    this.informer = new PrefixInformer(store, CRD_PREFIX, {
      replace: (items) => {
        const names = new Set(items.map((it) => it.key.slice(CRD_PREFIX.length)));
        for (const name of [...this.crds.keys()]) if (!names.has(name)) this.remove(name);
        for (const it of items) {
          const name = it.key.slice(CRD_PREFIX.length);
          if (this.crds.get(name)?.revision !== it.modRevision) this.put(name, parseStored(it.value), it.modRevision);
        }
        // After a re-list every follower sees every CRD again (as after its own list).
        for (const f of this.followers) for (const e of this.crds.values()) f(e.name, e.obj);
      },
      event: (e) => this.onEvent(e),
    });
  }

  /** Loads the CRDs and watches them (other replicas' writes arrive through the watch). */
  start(): Promise<void> {
    return this.informer.start();
  }

  stop(): void {
    this.informer.stop();
  }

  /** The newest store revision the registry reflects. */
  get revision(): number {
    return this.informer.revision;
  }

  /** Resolves once the registry reflects the store at `revision` (false after `timeoutMs`). */
  caughtUp(revision: number, timeoutMs = 5000): Promise<boolean> {
    return this.informer.waitFor(revision, timeoutMs);
  }

  /** Increases on every CRD change (cache key for discovery documents). */
  get generation(): number {
    return this.changeCounter;
  }

  private onEvent(e: StoreEvent): void {
    const name = e.key.slice(CRD_PREFIX.length);
    if (e.type === "DELETED") this.remove(name);
    else {
      // Exactly the text that was parsed: the same object a parse would give (each handed-over object used once).
      const obj = this.takePrimed(e.key, e.value) ?? parseStored(e.value);
      this.put(name, obj, e.revision);
      for (const f of this.followers) f(name, obj);
      if (this.storedWaiters.size > 0) this.stored(e.key, e.value, e.revision);
    }
  }

  /**
   * Resolves `seen` with the revision of the event (ADDED or MODIFIED) of `key` holding exactly `value` once the
   * registry's watch delivers it: a write this server sent, whose text no other write has (a create's value holds
   * the uid it generated; a status write's, the managed-fields entry and conditions of this pass). The event proves
   * the write committed (etcd sends it after the write is applied) and the registry now holds it; on etcd it often
   * arrives before the write's own answer. `cancel` forgets the wait (the write failed, or was answered first);
   * `seen` then never resolves.
   */
  whenStored(key: string, value: string): { seen: Promise<number>; cancel: () => void } {
    let waiter: StoredWaiter | undefined;
    const seen = new Promise<number>((resolve) => {
      waiter = { value, resolve };
    });
    const w = waiter!;
    const list = this.storedWaiters.get(key);
    if (list) list.push(w);
    else this.storedWaiters.set(key, [w]);
    return { seen, cancel: () => this.dropStoredWaiter(key, w) };
  }

  private stored(key: string, value: string, revision: number): void {
    const list = this.storedWaiters.get(key);
    if (!list) return;
    for (const w of list) {
      if (w.value !== value) continue;
      this.dropStoredWaiter(key, w);
      w.resolve(revision);
      return;
    }
  }

  private dropStoredWaiter(key: string, w: StoredWaiter): void {
    const list = this.storedWaiters.get(key);
    const i = list?.indexOf(w) ?? -1;
    if (i < 0) return;
    list!.splice(i, 1);
    if (list!.length === 0) this.storedWaiters.delete(key);
  }

  /**
   * Calls `changed` with every CRD now, then with each CRD written from now on and with every CRD after a
   * re-list (not for deletions): a controller that follows CRDs shares the registry's watch and its parse
   * (the object must not be changed).
   */
  follow(changed: (name: string, crd: JsonObject) => void): void {
    this.followers.push(changed);
    for (const e of this.crds.values()) changed(e.name, e.obj);
  }

  private remove(name: string): void {
    const old = this.crds.get(name);
    if (!old) return;
    this.crds.delete(name);
    const m = this.byResource.get(old.group);
    if (m && m.get(old.names.plural) === name) m.delete(old.names.plural);
    if (m && m.size === 0) this.byResource.delete(old.group);
    const g = this.byGroup.get(old.group);
    g?.delete(name);
    if (g && g.size === 0) this.byGroup.delete(old.group);
    this.changeCounter++;
  }

  private put(name: string, obj: JsonObject, revision: number): void {
    this.remove(name);
    const e = toEntry(name, obj, revision);
    this.crds.set(name, e);
    let g = this.byGroup.get(e.group);
    if (!g) this.byGroup.set(e.group, (g = new Set()));
    g.add(name);
    if (e.names.plural !== "") {
      let m = this.byResource.get(e.group);
      if (!m) this.byResource.set(e.group, (m = new Map()));
      m.set(e.names.plural, name);
    }
    this.changeCounter++;
  }

  /**
   * Hands over the parse of a CRD value this server is writing (or wrote) under `key`, so that the watch event
   * of that write takes the object instead of parsing the same text again. `obj` must be what `parseStored(value)`
   * gives, and must not be changed afterwards. An event with another value parses as usual.
   */
  prime(key: string, value: string, obj: JsonObject): void {
    // Writes whose event never comes (a failed write) must not pile up.
    if (this.primedCount >= 64) {
      this.primed.clear();
      this.primedCount = 0;
    }
    let forKey = this.primed.get(key);
    if (!forKey) this.primed.set(key, (forKey = new Map()));
    if (!forKey.has(value)) this.primedCount++;
    forKey.set(value, obj);
  }

  /** The object handed over for `value` of `key`, removed from the handed-over ones. */
  private takePrimed(key: string, value: string): JsonObject | undefined {
    const forKey = this.primed.get(key);
    const obj = forKey?.get(value);
    if (obj === undefined) return undefined;
    forKey!.delete(value);
    this.primedCount--;
    if (forKey!.size === 0) this.primed.delete(key);
    return obj;
  }

  /** The CRD `name` as the registry holds it, when it holds it at `revision` (the object must not be changed). */
  objectAt(name: string, revision: number): JsonObject | undefined {
    const e = this.crds.get(name);
    return e?.revision === revision ? e.obj : undefined;
  }

  /** Every CRD. */
  entries(): IterableIterator<CrdEntry> {
    return this.crds.values();
  }

  /** The names of the CRDs of `group`, in no particular order. */
  namesInGroup(group: string): string[] {
    return [...(this.byGroup.get(group) ?? [])];
  }

  get(name: string): CrdEntry | undefined {
    return this.crds.get(name);
  }

  /**
   * The CRDs of `group` other than `exceptName` as the registry holds them (names and revisions): equal texts
   * mean {@link takenNames} has the same answer.
   */
  groupState(group: string, exceptName: string): string {
    const g = this.byGroup.get(group);
    if (!g) return "";
    let out = "";
    for (const n of [...g].sort()) if (n !== exceptName) out += `${n}@${this.crds.get(n)?.revision ?? 0};`;
    return out;
  }

  /** Names used in `group` by CRDs other than `exceptName` (for the naming conditions). */
  takenNames(group: string, exceptName: string): TakenNames {
    const taken: TakenNames = { resources: new Set(), kinds: new Set() };
    const m = this.byResource.get(group);
    if (!m) return taken;
    for (const crdName of m.values()) {
      if (crdName === exceptName) continue;
      const e = this.crds.get(crdName);
      if (!e) continue;
      const n = e.names;
      for (const r of [n.plural, n.singular, ...n.shortNames]) if (r) taken.resources.add(r);
      for (const k of [n.kind, n.listKind]) if (k) taken.kinds.add(k);
    }
    return taken;
  }

  /** The CRD serving `plural` in `group` (any version), if established. */
  entryFor(group: string, plural: string): CrdEntry | undefined {
    const name = this.byResource.get(group)?.get(plural);
    const e = name === undefined ? undefined : this.crds.get(name);
    return e?.established ? e : undefined;
  }

  /** The resource for `group/version/plural`, when the CRD is established and serves the version. */
  lookup(group: string, version: string, plural: string): ResourceType | undefined {
    const e = this.entryFor(group, plural);
    if (!e) return undefined;
    const v = e.versions.find((x) => x.name === version);
    if (!v?.served) return undefined;
    let rt = e.types.get(version);
    if (!rt) {
      rt = this.buildType(e, v);
      e.types.set(version, rt);
    }
    return rt;
  }

  /** Served group versions: group → versions (kube-aware order, preferred first). */
  groupVersions(): Map<string, string[]> {
    const out = new Map<string, Set<string>>();
    for (const e of this.crds.values()) {
      if (!e.established) continue;
      for (const v of e.versions) {
        if (!v.served) continue;
        let s = out.get(e.group);
        if (!s) out.set(e.group, (s = new Set()));
        s.add(v.name);
      }
    }
    const sorted = new Map<string, string[]>();
    for (const g of [...out.keys()].sort()) sorted.set(g, [...out.get(g)!].sort(compareKubeVersions));
    return sorted;
  }

  /** Every served resource of `group/version`. */
  resourcesOf(group: string, version: string): ResourceType[] {
    const m = this.byResource.get(group);
    if (!m) return [];
    const out: ResourceType[] = [];
    for (const plural of [...m.keys()].sort()) {
      const rt = this.lookup(group, version, plural);
      if (rt) out.push(rt);
    }
    return out;
  }

  private buildType(e: CrdEntry, v: CrdVersionInfo): ResourceType {
    const sub = isObject(v.raw["subresources"]) ? v.raw["subresources"] : {};
    const selectable = new Map<string, CompiledPath>();
    for (const f of Array.isArray(v.raw["selectableFields"]) ? v.raw["selectableFields"] : []) {
      if (!isObject(f) || typeof f["jsonPath"] !== "string") continue;
      const p = compileJsonPath(f["jsonPath"]);
      if (p) selectable.set(f["jsonPath"].replace(/^\./, ""), p);
    }
    const rt: ResourceType = {
      group: e.group,
      version: v.name,
      plural: e.names.plural,
      singular: e.names.singular,
      kind: e.names.kind,
      listKind: e.names.listKind,
      namespaced: e.namespaced,
      shortNames: e.names.shortNames,
      categories: e.names.categories,
      status: isObject(sub["status"]),
      watchCacheStart: this.knownRevision?.() ?? this.informer.revision,
      storageVersionHash: storageVersionHash(e.group, storageVersionOf(e.obj) ?? "", e.names.kind, sha256),
      table: new TableConvertor(columnsOf(v.raw)),
      selectableFields: selectable,
      storagePrefix: `/registry/${e.group}/${e.names.plural}/`,
      decodesBodyVersion: true,
      terminating: e.terminating,
      admission: () => admission,
      smdType: () => (smd ??= rootType(this.versionSchema(e, v))),
      converter: () => (e.converter ??= versionConverter(e.obj, compiled(), e.group, e.names.kind, storageVersionOf(e.obj) ?? v.name, this.webhooks)),
    };
    let smd: TypeNode | undefined;
    /** One compilation per CRD revision (the entry is replaced when the CRD changes). */
    const compiled = (): CompileResult => (e.compiled ??= tryCompileCrd(e.obj));
    const scale = scaleOf(v.raw);
    if (scale) {
      scale.replicasPaths = new Map(e.versions.map((x) => [`${e.group}/${x.name}`, scaleOf(x.raw)?.specReplicasPath ?? null]));
      rt.scale = scale;
    }
    if (v.deprecated) rt.deprecationWarning = v.deprecationWarning ?? this.defaultDeprecation(e, v);
    let cached: ReturnType<typeof createCrAdmission> | undefined;
    const admission = {
      create: (o: JsonObject, opts: object) => (cached ??= createCrAdmission(compiled(), v.name, rt)).create(o, opts),
      update: (n: JsonObject, o: JsonObject, opts: object) => (cached ??= createCrAdmission(compiled(), v.name, rt)).update(n, o, opts),
      updateStatus: (n: JsonObject, o: JsonObject, opts: object) =>
        (cached ??= createCrAdmission(compiled(), v.name, rt)).updateStatus(n, o, opts),
    };
    return rt;
  }

  /** The openAPIV3Schema of a version (per-version or the CRD-wide legacy `spec.validation`). */
  private versionSchema(e: CrdEntry, v: CrdVersionInfo): JsonObject | undefined {
    const own = isObject(v.raw["schema"]) ? v.raw["schema"]["openAPIV3Schema"] : undefined;
    if (isObject(own)) return own;
    const spec = isObject(e.obj["spec"]) ? e.obj["spec"] : {};
    const val = isObject(spec["validation"]) ? spec["validation"]["openAPIV3Schema"] : undefined;
    return isObject(val) ? val : undefined;
  }

  private defaultDeprecation(e: CrdEntry, v: CrdVersionInfo): string {
    let msg = `${e.group}/${v.name} ${e.names.kind} is deprecated`;
    const better = e.versions
      .filter((x) => x.served && !x.deprecated && compareKubeVersions(x.name, v.name) < 0)
      .map((x) => x.name)
      .sort(compareKubeVersions)[0];
    if (better) msg += `; use ${e.group}/${better} ${e.names.kind}`;
    return msg;
  }
}

/** A write waiting for its event ({@link Registry.whenStored}). */
interface StoredWaiter {
  value: string;
  resolve: (revision: number) => void;
}

/** The storage version of a CRD object (the version with `storage: true`). */
export function storageVersionOf(crd: JsonValue | undefined): string | undefined {
  if (!isObject(crd) || !isObject(crd["spec"]) || !Array.isArray(crd["spec"]["versions"])) return undefined;
  const v = crd["spec"]["versions"].find((x) => isObject(x) && x["storage"] === true);
  return isObject(v) && typeof v["name"] === "string" ? v["name"] : undefined;
}

function sha256(text: string): Uint8Array {
  return createHash("sha256").update(text).digest();
}
