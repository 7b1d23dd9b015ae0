/**
 * Typed operations of server-side apply over JSON values (structured-merge-diff `typed`): the field set
 * of a value, the comparison of two values (added / modified / removed paths), the apply merge
 * (granular maps merge by key, associative lists by key or value keeping smd's item order, atomic parts
 * replaced) and the removal of a set of paths.
 */
import { deepClone, deepEqual, isObject, setKey, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { FieldSet, serializePE, type PathElement } from "./fieldset.js";
import { fieldType, resolve, type TypeNode } from "./type-schema.js";

type ListNode = Extract<TypeNode, { kind: "list" }>;

/** The path element of a list item: its keys (map lists), its value (sets), else its index. */
export function listItemPE(t: ListNode, item: JsonValue, index: number): PathElement {
  if (t.rel === "map" && isObject(item) && t.keys.length > 0) {
    const fields: [string, JsonValue][] = [];
    // A key the item omits takes its schema default (smd's getAssociativeKeyDefault).
    for (const k of [...t.keys].sort()) {
      if (Object.hasOwn(item, k)) fields.push([k, item[k]!]);
      else if (t.keyDefaults !== undefined && Object.hasOwn(t.keyDefaults, k)) fields.push([k, t.keyDefaults[k]!]);
    }
    if (fields.length > 0) return { kind: "k", fields };
  }
  if (t.rel === "set" && !isObject(item) && !Array.isArray(item)) return { kind: "v", value: item };
  return { kind: "i", index };
}

/** A node is compared/merged as a whole. */
function isLeaf(t: TypeNode): boolean {
  return t.kind === "scalar" || t.kind === "deduced" || (t.kind === "map" && t.atomic) || (t.kind === "list" && t.rel === "atomic");
}

/** smd `ToFieldSet`: leaves, list items, empty or null map values and undeclared map keys. */
export function toFieldSet(v: JsonValue, t: TypeNode): FieldSet {
  const set = new FieldSet();
  const walk = (val: JsonValue, type: TypeNode, path: PathElement[]): void => {
    const rt = resolve(type, val);
    if (isLeaf(rt) || (rt.kind === "map" && !isObject(val)) || (rt.kind === "list" && !Array.isArray(val))) {
      if (path.length > 0) set.insert(path);
      return;
    }
    if (rt.kind === "list" && Array.isArray(val)) {
      const seen = new Set<string>();
      const dups = new Set<string>();
      const pes = val.map((item, i) => listItemPE(rt, item, i));
      for (const pe of pes) {
        const k = serializePE(pe);
        if (seen.has(k)) {
          if (!dups.has(k)) set.insert([...path, pe]);
          dups.add(k);
        } else seen.add(k);
      }
      val.forEach((item, i) => {
        const pe = pes[i]!;
        if (dups.has(serializePE(pe))) return;
        walk(item, rt.elem, [...path, pe]);
        set.insert([...path, pe]);
      });
      return;
    }
    if (rt.kind === "map" && isObject(val)) {
      for (const [k, child] of Object.entries(val)) {
        const p: PathElement[] = [...path, { kind: "f", name: k }];
        walk(child, fieldType(rt, k), p);
        if (child === null || (isObject(child) && Object.keys(child).length === 0) || !rt.fields.has(k)) set.insert(p);
      }
    }
  };
  walk(v, t, []);
  return set;
}

/** The paths that differ between two values. */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/** smd `Compare(lhs, rhs)`. */
export function compareValues(lhs: JsonValue | undefined, rhs: JsonValue | undefined, t: TypeNode): Comparison {
  const cmp: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
  const leaf = (l: JsonValue | undefined, r: JsonValue | undefined, path: PathElement[]): void => {
    if (path.length === 0) return;
    if (l === undefined) cmp.added.insert(path);
    else if (r === undefined) cmp.removed.insert(path);
    else if (!deepEqual(l, r)) cmp.modified.insert(path);
  };
  const walk = (l: JsonValue | undefined, r: JsonValue | undefined, type: TypeNode, path: PathElement[]): void => {
    const rt = resolve(type, r ?? l);
    const lt = resolve(type, l ?? r);
    if (rt.kind !== lt.kind || isLeaf(rt)) {
        leaf(l, r, path);
        return;
      }
    if (rt.kind === "map") {
      const lm = isObject(l) ? l : undefined;
      const rm = isObject(r) ? r : undefined;
      // A typed (declared) map or list that is null is an empty one (smd's mapValue/listValue); deduced
      // parts decide by the value's shape.
      const nullOk = type.kind !== "deduced";
      if ((l !== undefined && !lm && !(nullOk && l === null)) || (r !== undefined && !rm && !(nullOk && r === null))) {
        leaf(l, r, path);
        return;
      }
      const emptyL = !lm || Object.keys(lm).length === 0;
      const emptyR = !rm || Object.keys(rm).length === 0;
      if (emptyL && emptyR) {
        leaf(l, r, path);
        return;
      }
      const keys = new Set([...Object.keys(lm ?? {}), ...Object.keys(rm ?? {})]);
      for (const k of keys) {
        const lv = lm && Object.hasOwn(lm, k) ? lm[k] : undefined;
        const rv = rm && Object.hasOwn(rm, k) ? rm[k] : undefined;
        walk(lv, rv, fieldType(rt, k), [...path, { kind: "f", name: k }]);
      }
    } else if (rt.kind === "list") {
      const ll = Array.isArray(l) ? l : undefined;
      const rl = Array.isArray(r) ? r : undefined;
      const nullOk = type.kind !== "deduced";
      if ((l !== undefined && !ll && !(nullOk && l === null)) || (r !== undefined && !rl && !(nullOk && r === null))) {
        leaf(l, r, path);
        return;
      }
      if ((!ll || ll.length === 0) && (!rl || rl.length === 0)) {
        leaf(l, r, path);
        return;
      }
      const index = (list: JsonValue[] | undefined) => {
        const m = new Map<string, { pe: PathElement; items: JsonValue[] }>();
        (list ?? []).forEach((item, i) => {
          const pe = listItemPE(rt, item, i);
          const k = serializePE(pe);
          const e = m.get(k);
          if (e) e.items.push(item);
          else m.set(k, { pe, items: [item] });
        });
        return m;
      };
      const lx = index(ll);
      const rx = index(rl);
      for (const k of new Set([...lx.keys(), ...rx.keys()])) {
        const a = lx.get(k);
        const b = rx.get(k);
        const pe = (a ?? b)!.pe;
        const p = [...path, pe];
        const la = a?.items ?? [];
        const rb = b?.items ?? [];
        if (la.length <= 1 && rb.length <= 1) walk(la[0], rb[0], rt.elem, p);
        else if (la.length >= 2 && rb.length >= 2) {
          if (!deepEqual(la, rb)) cmp.modified.insert(p);
        } else if (la.length >= 2) cmp.removed.insert(p);
        else cmp.added.insert(p);
      }
    }
    if (path.length > 0) {
      if (l === undefined) cmp.added.insert(path);
      else if (r === undefined) cmp.removed.insert(path);
    }
  };
  walk(lhs, rhs, t, []);
  return cmp;
}

/** smd `Merge(lhs, rhs)`: the applied configuration `rhs` over the live value `lhs`. */
export function mergeValues(lhs: JsonValue | undefined, rhs: JsonValue | undefined, t: TypeNode): JsonValue | undefined {
  if (rhs === undefined) return lhs === undefined ? undefined : deepClone(lhs);
  if (lhs === undefined) return deepClone(rhs);
  const rt = resolve(t, rhs);
  if (isLeaf(rt) || rt.kind !== resolve(t, lhs).kind) return deepClone(rhs);
  // smd reads a null map or list as an empty one, and merges two sides as a leaf only when both are empty: an
  // applied null over live content keeps that content (what the apply no longer owns is removed after).
  if (rt.kind === "map") {
    if (rhs === null && isObject(lhs) && Object.keys(lhs).length > 0) return deepClone(lhs);
    if (!isObject(lhs) || !isObject(rhs)) return deepClone(rhs);
    const out: JsonObject = deepClone(lhs);
    for (const [k, v] of Object.entries(rhs)) {
      setKey(out, k, mergeValues(Object.hasOwn(lhs, k) ? lhs[k] : undefined, v, fieldType(rt, k)) ?? null);
    }
    return out;
  }
  if (rt.kind === "list") {
    if (rhs === null && Array.isArray(lhs) && lhs.length > 0) return mergeLists(lhs, [], rt);
    if (!Array.isArray(lhs) || !Array.isArray(rhs)) return deepClone(rhs);
    return mergeLists(lhs, rhs, rt);
  }
  return deepClone(rhs);
}

/** smd's associative list merge: live items keep their places, applied items are placed in applied order. */
function mergeLists(lhs: JsonValue[], rhs: JsonValue[], t: ListNode): JsonValue[] {
  const key = (item: JsonValue, i: number) => serializePE(listItemPE(t, item, i));
  const lKeys: string[] = [];
  const lVals = new Map<string, JsonValue>();
  lhs.forEach((v, i) => {
    const k = key(v, i);
    if (!lVals.has(k)) {
      lKeys.push(k);
      lVals.set(k, v);
    }
  });
  const rKeys: string[] = [];
  const rVals = new Map<string, JsonValue>();
  rhs.forEach((v, i) => {
    const k = key(v, i);
    if (!rVals.has(k)) {
      rKeys.push(k);
      rVals.set(k, v);
    }
  });
  const shared = rKeys.filter((k) => lVals.has(k));
  let nextShared: string | undefined = shared.shift();
  const done = new Set<string>();
  const out: JsonValue[] = [];
  const emit = (k: string) => {
    const v = mergeValues(lVals.get(k), rVals.get(k), t.elem);
    if (v !== undefined) out.push(v);
  };
  let li = 0;
  let ri = 0;
  while (li < lKeys.length || ri < rKeys.length) {
    if (li < lKeys.length && ri < rKeys.length) {
      const lk = lKeys[li]!;
      if (lk === rKeys[ri]) {
        done.add(lk);
        emit(lk);
        li++;
        ri++;
        nextShared = shared.shift();
        continue;
      }
      if (rVals.has(lk) && nextShared !== undefined && nextShared !== lk) {
        li++;
        continue;
      }
    }
    if (li < lKeys.length) {
      const lk = lKeys[li]!;
      if (!rVals.has(lk)) {
        emit(lk);
        li++;
        continue;
      }
      if (done.has(lk)) li++;
    }
    if (ri < rKeys.length) {
      const rk = rKeys[ri]!;
      done.add(rk);
      emit(rk);
      ri++;
      if (nextShared === rk) nextShared = shared.shift();
    }
  }
  return out;
}

/**
 * smd `EnsureNamedFieldsAreMembers`: a copy of `set` in which every declared field of a struct (a schema
 * property, an ObjectMeta field) that has paths below it is a member too. The pruning of an apply removes such a
 * field whole, not only the paths below it. Below a list item only a keyed item's fields are typed (smd resolves
 * no type for an item named by its value or index).
 */
export function withNamedFieldsAsMembers(set: FieldSet, t: TypeNode | undefined): FieldSet {
  const out = new FieldSet();
  const walk = (from: FieldSet, type: TypeNode | undefined, into: FieldSet): void => {
    for (const [k, pe] of from.members) into.members.set(k, pe);
    for (const [k, c] of from.children) {
      let childType: TypeNode | undefined;
      if (isFieldPE(c.pe) && type?.kind === "map") {
        childType = fieldType(type, c.pe.name);
        if (type.fields.has(c.pe.name)) into.members.set(k, c.pe);
      } else if (c.pe.kind === "k" && type?.kind === "list") childType = type.elem;
      const sub = new FieldSet();
      walk(c.set, childType, sub);
      into.children.set(k, { pe: c.pe, set: sub });
    }
  };
  walk(set, t, out);
  return out;
}

function isFieldPE(pe: PathElement): pe is Extract<PathElement, { kind: "f" }> {
  return pe.kind === "f";
}

/**
 * smd `RemoveItems`: drops every member path of `set` from a copy of `v`. A map or list that had items and has none
 * left is null, as smd's removing walker writes it (an apply of `spec: {}` that gives up the defaulted fields it owned
 * leaves `spec: null`, which validation then refuses as the real server does); one that was empty stays as it is.
 */
export function removeItems(v: JsonValue, set: FieldSet, t: TypeNode): JsonValue {
  const rt = resolve(t, v);
  if (rt.kind === "map" && isObject(v) && !rt.atomic) {
    const out: JsonObject = {};
    let kept = 0;
    for (const [k, child] of Object.entries(v)) {
      const pk = `f:${k}`;
      if (set.members.has(pk)) continue;
      const sub = set.children.get(pk);
      setKey(out, k, sub ? removeItems(child, sub.set, fieldType(rt, k)) : child);
      kept++;
    }
    return kept === 0 && Object.keys(v).length > 0 ? null : out;
  }
  if (rt.kind === "list" && Array.isArray(v) && rt.rel !== "atomic") {
    const out: JsonValue[] = [];
    v.forEach((item, i) => {
      const pk = serializePE(listItemPE(rt, item, i));
      if (set.members.has(pk)) return;
      const sub = set.children.get(pk);
      out.push(sub ? removeItems(item, sub.set, rt.elem) : item);
    });
    return out.length === 0 && v.length > 0 ? null : out;
  }
  return v;
}
