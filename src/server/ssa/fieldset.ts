/**
 * Field sets of server-side apply (structured-merge-diff `fieldpath`): path elements (a field name, an
 * associative-list key, a set value, a list index), sets of paths as a trie, the FieldsV1 wire format
 * (`{"f:spec":{".":{},"f:replicas":{}}}`) and the path text of conflict messages (`.spec.ports[port=80]`).
 */
import { goQuote, goSprint } from "../../go/fmt.js";
import { goJsonString } from "../../go/json.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";

/** One step of a path. */
export type PathElement =
  | { kind: "f"; name: string }
  | { kind: "k"; fields: [string, JsonValue][] }
  | { kind: "v"; value: JsonValue }
  | { kind: "i"; index: number };

/**
 * Go `json.Marshal` of a scalar (keys and set values are scalars in practice), strings HTML-escaped as smd writes
 * them (`k:{"value":"a\u003cb"}`).
 */
function jsonText(v: JsonValue): string {
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "string") return goJsonString(v);
  if (isObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${goJsonString(k)}:${jsonText(v[k]!)}`)
      .join(",")}}`;
  }
  if (Array.isArray(v)) return `[${v.map(jsonText).join(",")}]`;
  return JSON.stringify(v);
}

/** The FieldsV1 key of an element: `f:name`, `k:{"port":80}`, `v:"x"`, `i:0`. */
export function serializePE(pe: PathElement): string {
  switch (pe.kind) {
    case "f":
      return `f:${pe.name}`;
    case "k":
      return `k:{${pe.fields.map(([n, v]) => `${goJsonString(n)}:${jsonText(v)}`).join(",")}}`;
    case "v":
      return `v:${jsonText(pe.value)}`;
    case "i":
      return `i:${pe.index}`;
  }
}

/** smd `value.ToString`: strings quoted (`%q`), numbers and booleans as Go prints them. */
function valueText(v: JsonValue): string {
  if (v === null) return "null";
  if (typeof v === "string") return goQuote(v);
  if (Array.isArray(v)) return `[${v.map(valueText).join(",")}]`;
  if (isObject(v)) return Object.keys(v).map((k) => `${k}=${valueText(v[k]!)}`).join("");
  // (`%v` of the int64 or float64: a number beyond int64 is a float64, -9.223372036854776e+18)
  return goSprint(v);
}

/** smd `PathElement.String()`: `.name`, `[k=v,k2=v2]`, `[=v]`, `[0]`. */
export function peString(pe: PathElement): string {
  switch (pe.kind) {
    case "f":
      return `.${pe.name}`;
    case "k":
      return `[${pe.fields.map(([n, v]) => `${n}=${valueText(v)}`).join(",")}]`;
    case "v":
      return `[=${valueText(pe.value)}]`;
    case "i":
      return `[${pe.index}]`;
  }
}

/** smd `Path.String()`. */
export function pathString(path: readonly PathElement[]): string {
  return path.map(peString).join("");
}

const KIND_ORDER = { f: 0, k: 1, v: 2, i: 3 } as const;

/** smd `PathElement.Compare`: fields < keys < values < indexes; then by name / key / value / index. */
export function comparePE(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
  if (a.kind === "f" && b.kind === "f") return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  if (a.kind === "i" && b.kind === "i") return a.index - b.index;
  const x = serializePE(a);
  const y = serializePE(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Parses a FieldsV1 key; undefined when malformed. */
export function deserializePE(s: string): PathElement | undefined {
  const body = s.slice(2);
  switch (s.slice(0, 2)) {
    case "f:":
      return { kind: "f", name: body };
    case "i:":
      return /^\d+$/.test(body) ? { kind: "i", index: Number(body) } : undefined;
    case "v:":
    case "k:": {
      let v: unknown;
      try {
        v = JSON.parse(body);
      } catch {
        return undefined;
      }
      if (s.startsWith("v:")) return { kind: "v", value: v as JsonValue };
      if (!isObject(v)) return undefined;
      const fields = Object.keys(v)
        .sort()
        .map((k): [string, JsonValue] => [k, (v as JsonObject)[k]!]);
      return { kind: "k", fields };
    }
    default:
      return undefined;
  }
}

/** A set of paths: `members` end here, `children` continue. Keys are serialized elements. */
export class FieldSet {
  readonly members = new Map<string, PathElement>();
  readonly children = new Map<string, { pe: PathElement; set: FieldSet }>();

  /** Adds a path. */
  insert(path: readonly PathElement[]): void {
    if (path.length === 0) return;
    let cur: FieldSet = this;
    for (let i = 0; i < path.length - 1; i++) {
      const pe = path[i]!;
      const k = serializePE(pe);
      let c = cur.children.get(k);
      if (!c) cur.children.set(k, (c = { pe, set: new FieldSet() }));
      cur = c.set;
    }
    const last = path[path.length - 1]!;
    cur.members.set(serializePE(last), last);
  }

  has(path: readonly PathElement[]): boolean {
    let cur: FieldSet | undefined = this;
    for (let i = 0; i < path.length - 1 && cur; i++) cur = cur.children.get(serializePE(path[i]!))?.set;
    return cur !== undefined && path.length > 0 && cur.members.has(serializePE(path[path.length - 1]!));
  }

  /** The path or something below it is in the set. */
  hasPrefix(path: readonly PathElement[]): boolean {
    if (this.has(path)) return true;
    let cur: FieldSet | undefined = this;
    for (const pe of path) cur = cur?.children.get(serializePE(pe))?.set;
    return cur !== undefined && !cur.empty();
  }

  empty(): boolean {
    if (this.members.size > 0) return false;
    for (const c of this.children.values()) if (!c.set.empty()) return false;
    return true;
  }

  /** Every member path, in smd order. */
  /** The paths in smd's `Set.Iterate` order: at each level the members (sorted), then the children's paths. */
  iteratePaths(prefix: PathElement[] = []): PathElement[][] {
    const out: PathElement[][] = [];
    for (const pe of [...this.members.values()].sort(comparePE)) out.push([...prefix, pe]);
    for (const c of [...this.children.values()].sort((a, b) => comparePE(a.pe, b.pe))) out.push(...c.set.iteratePaths([...prefix, c.pe]));
    return out;
  }

  paths(prefix: PathElement[] = []): PathElement[][] {
    const out: PathElement[][] = [];
    const entries: { pe: PathElement; member: boolean; child?: FieldSet }[] = [];
    const keys = new Set([...this.members.keys(), ...this.children.keys()]);
    for (const k of keys) {
      const c = this.children.get(k);
      const m = this.members.get(k);
      entries.push({ pe: (m ?? c!.pe), member: m !== undefined, ...(c ? { child: c.set } : {}) });
    }
    entries.sort((a, b) => comparePE(a.pe, b.pe));
    for (const e of entries) {
      const p = [...prefix, e.pe];
      if (e.member) out.push(p);
      if (e.child) out.push(...e.child.paths(p));
    }
    return out;
  }

  // The set operations walk both trees (no path lists); children left empty are dropped, as a set built
  // from paths never holds them.
  union(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const set of [this, o]) {
      for (const [k, pe] of set.members) out.members.set(k, pe);
      for (const [k, c] of set.children) {
        const mine = out.children.get(k);
        const merged = mine ? mine.set.union(c.set) : c.set.union(EMPTY);
        if (!merged.isBare()) out.children.set(k, { pe: mine?.pe ?? c.pe, set: merged });
      }
    }
    return out;
  }

  difference(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!o.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const other = o.children.get(k);
      const sub = c.set.difference(other ? other.set : EMPTY);
      if (!sub.isBare()) out.children.set(k, { pe: c.pe, set: sub });
    }
    return out;
  }

  intersection(o: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (o.members.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      const other = o.children.get(k);
      if (!other) continue;
      const sub = c.set.intersection(other.set);
      if (!sub.isBare()) out.children.set(k, { pe: c.pe, set: sub });
    }
    return out;
  }

  /** Some member path of `o` is a member path of this set (`difference(o)` would take something away). */
  sharesMember(o: FieldSet): boolean {
    for (const k of o.members.keys()) if (this.members.has(k)) return true;
    for (const [k, c] of o.children) {
      const mine = this.children.get(k);
      if (mine?.set.sharesMember(c.set)) return true;
    }
    return false;
  }

  /** No members and no children at all. */
  private isBare(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  /** The FieldsV1 object (members and children merged in smd order; `.` marks a member with children). */
  toFieldsV1(): JsonObject {
    return decodedFrom.get(this) ?? this.emit(false);
  }

  private emit(includeSelf: boolean): JsonObject {
    const out: JsonObject = {};
    if (includeSelf && (this.members.size > 0 || this.children.size > 0)) out["."] = {};
    const keys = [...new Set([...this.members.keys(), ...this.children.keys()])];
    const peOf = (k: string) => this.members.get(k) ?? this.children.get(k)!.pe;
    keys.sort((a, b) => comparePE(peOf(a), peOf(b)));
    for (const k of keys) {
      const c = this.children.get(k);
      out[k] = c ? c.set.emit(this.members.has(k)) : {};
    }
    return out;
  }

  /** A copy without the top-level fields named in `names`. */
  withoutTopFields(names: readonly string[]): FieldSet {
    const drop = new Set(names.map((n) => `f:${n}`));
    const out = new FieldSet();
    for (const [k, pe] of this.members) if (!drop.has(k)) out.members.set(k, pe);
    for (const [k, c] of this.children) {
      if (drop.has(k)) continue;
      const sub = c.set.union(EMPTY);
      if (!sub.isBare()) out.children.set(k, { pe: c.pe, set: sub });
    }
    return out;
  }

  /**
   * Parses FieldsV1 (building the trie directly); throws on malformed keys (the API server then ignores the entry
   * set). FieldsV1 exactly as {@link toFieldsV1} writes it (every key in its serialized form and in smd order, `.`
   * first and only beside other keys, every leaf and `.` an empty object) is remembered as the set's encoding,
   * so a set that an update leaves as it is (the spec fields of other managers on a status write) is not
   * encoded again.
   */
  static fromFieldsV1(v: JsonValue | undefined): FieldSet {
    const out = new FieldSet();
    let canonical = true;
    const empty = (x: JsonValue | undefined) => isObject(x) && Object.keys(x).length === 0;
    // `set` is the node of `node`; a `.` in it makes the node's own element (`self`, at `key` of `parent`) a member.
    const walk = (node: JsonObject, set: FieldSet, parent: FieldSet | undefined, key: string, self: PathElement | undefined): void => {
      let prev: PathElement | undefined;
      let first = true;
      for (const [k, child] of Object.entries(node)) {
        if (k === ".") {
          if (parent && self) parent.members.set(key, self);
          else canonical = false;
          if (!empty(child) || !first) canonical = false;
          first = false;
          continue;
        }
        first = false;
        const pe = deserializePE(k);
        if (!pe) throw new Error(`invalid FieldsV1 key ${k}`);
        const ck = serializePE(pe);
        if (canonical && (ck !== k || (prev !== undefined && comparePE(prev, pe) >= 0))) canonical = false;
        prev = pe;
        if (isObject(child) && Object.keys(child).length > 0) {
          if (Object.keys(child).length === 1 && Object.hasOwn(child, ".")) canonical = false;
          const existing = set.children.get(ck);
          const sub = existing?.set ?? new FieldSet();
          walk(child, sub, set, ck, pe);
          if (!existing && !sub.isBare()) set.children.set(ck, { pe, set: sub });
        } else {
          if (!empty(child)) canonical = false;
          set.members.set(ck, pe);
        }
      }
    };
    if (v !== undefined && v !== null) {
      if (!isObject(v)) throw new Error("FieldsV1 must be an object");
      walk(v, out, undefined, "", undefined);
      if (canonical) decodedFrom.set(out, v);
    }
    return out;
  }
}

const EMPTY = new FieldSet();
/** The FieldsV1 a set was decoded from, when it is what encoding the set gives (key order aside). */
const decodedFrom = new WeakMap<FieldSet, JsonObject>();
