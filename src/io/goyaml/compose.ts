/**
 * go-yaml v2's decoding of one document into `interface{}` over the parser's events: scalar resolution
 * (YAML 1.1), anchors and aliases (an alias is decoded again wherever it is used, so its duplicate keys are
 * reported again; `anchor 'x' value contains itself`; the excessive-aliasing guard), merge keys `<<`
 * (a map, an alias of a map, or a sequence of those, earlier ones winning), invalid map keys, and the
 * strict decoder's `line N: key "x" already set in map`. Iterative over an explicit stack. Errors follow
 * go-yaml's decoding order: a merge key's value is checked to be a map (or a sequence of maps, checked and
 * decoded item by item from the last one) before it is decoded.
 */
import { type GoScalar, YamlValueError, resolvePlain, resolveTagged } from "../go-yaml-resolve.js";
import { GoMap, type GoVal, goKeyId, goSharp, goSharpScalar } from "./go-value.js";
import { EV, type YamlEvent } from "./parser.js";
import type { Mark } from "./tokens.js";

/** A decoding failure (go-yaml `failf`): the message without the `yaml: ` head, and the node's mark. */
export class ComposeError extends Error {
  constructor(
    message: string,
    readonly mark: Mark,
  ) {
    super(message);
  }
}

/** One `key: value` of a mapping, kept so that the mapping can be decoded again (alias, merge). */
interface Op {
  id: string;
  key: GoScalar;
  val: GoVal;
  /** Strict errors of decoding the value. */
  valErrs: string[];
  /** 1-based line of the value node. */
  line: number;
  mark: Mark;
}

interface Done {
  kind: "scalar" | "map" | "seq";
  val: GoVal;
  /** Strict errors of decoding this node once. */
  errs: string[];
  ops?: Op[];
  items?: Done[];
  /** Nodes go-yaml visits decoding it once. */
  size: number;
  merge?: boolean;
  alias?: boolean;
  /** An alias of an anchor still open (inside its own node) somewhere in this node: decoding it fails. */
  selfRef?: SelfRef;
  /**
   * An item of a merge key's sequence whose decoding failed: go-yaml decodes those items last to first,
   * after checking each one is a map, so the failure is reported when {@link place} reaches it.
   */
  fail?: ComposeError;
  mark: Mark;
}

interface SelfRef {
  name: string;
  mark: Mark;
}

function containsItself(r: SelfRef): never {
  throw new ComposeError(`anchor '${r.name}' value contains itself`, r.mark);
}

interface Frame {
  map: boolean;
  anchor: string | undefined;
  mark: Mark;
  size: number;
  ops: Op[];
  items: Done[];
  key: Done | undefined;
  selfRef?: SelfRef;
  /** A sequence that is the value of a merge key. */
  mergeValue: boolean;
}

export interface Composed {
  value: GoVal;
  /** Strict errors (`line N: key "x" already set in map`), in go-yaml's order. */
  strictErrors: string[];
  /** The value mark of the first duplicate key. */
  firstDuplicate?: Mark;
}

const MERGE_TAG = "tag:yaml.org,2002:merge";
const NO_ERRS: string[] = [];

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= 400000) return 0.99;
  if (decodeCount >= 4000000) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - 400000) / 3600000);
}

/** go-yaml's value of a scalar event (resolved by its tag, or by YAML 1.1 rules when plain); throws {@link ComposeError}. */
export function resolveScalar(e: YamlEvent): GoScalar {
  const s = e.value ?? "";
  try {
    let r: GoScalar;
    if (e.tag === undefined) r = e.implicit ? resolvePlain(s) : { t: "str", v: s };
    else r = resolveTagged(e.tag, s);
    return r.t === "merge" ? { t: "str", v: "<<" } : r;
  } catch (err) {
    if (err instanceof YamlValueError) throw new ComposeError(err.message.replace(/^yaml: /, ""), e.start);
    throw err;
  }
}

/**
 * An anchored node in the rest of a failed merge-sequence item: a scalar as it decodes, a collection
 * failing as the item did (not composed: rare enough to answer approximately).
 */
function skippedAnchor(e: YamlEvent, item: Done): Done {
  if (e.type !== EV.Scalar) return { ...item, kind: e.type === EV.MappingStart ? "map" : "seq", mark: e.start };
  try {
    return { kind: "scalar", val: resolveScalar(e), errs: NO_ERRS, size: 1, mark: e.start };
  } catch (err) {
    if (!(err instanceof ComposeError)) throw err;
    return { kind: "scalar", val: { t: "null" }, errs: NO_ERRS, size: 1, mark: e.start, fail: err };
  }
}

/** Decodes the events of one document's root node (`events` hold exactly that node). */
export function compose(events: readonly YamlEvent[]): Composed {
  const anchors = new Map<string, Done | "map" | "seq">();
  const stack: Frame[] = [];
  let root: Done | undefined;
  let decodeCount = 1; // the document node
  let aliasCount = 0;
  let firstDup: Mark | undefined;

  const applyOps = (target: GoMap, ops: readonly Op[], errs: string[]) => {
    for (const op of ops) {
      for (const x of op.valErrs) errs.push(x);
      if (target.has(op.id)) {
        errs.push(`line ${op.line}: key ${goSharpScalar(op.key)} already set in map`);
        if (firstDup === undefined) firstDup = op.mark;
      }
      target.set(op.id, op.key, op.val);
    }
  };

  const wantMap = (mark: Mark): never => {
    throw new ComposeError("map merge requires map or sequence of maps as the value", mark);
  };

  const place = (d: Done) => {
    const top = stack[stack.length - 1];
    if (!top) {
      if (d.selfRef) containsItself(d.selfRef);
      root = d;
      return;
    }
    top.size += d.size;
    if (!top.map) {
      // a sequence may be a merge value, whose items' kinds go-yaml checks before decoding them: an alias
      // of an open anchor waits there; anything else is decoded where it stands
      if (d.selfRef && !top.mergeValue) containsItself(d.selfRef);
      top.items.push(d);
      top.selfRef ??= d.selfRef;
      return;
    }
    if (top.key === undefined) {
      if (d.selfRef) containsItself(d.selfRef);
      if (!d.merge && d.kind !== "scalar") throw new ComposeError(`invalid map key: ${goSharp(d.val)}`, d.mark);
      top.key = d;
      return;
    }
    const key = top.key;
    top.key = undefined;
    if (key.merge) {
      // go-yaml checks the kind of an alias's node before decoding it
      if (d.kind === "map") {
        if (d.selfRef) containsItself(d.selfRef);
        top.ops.push(...d.ops!);
      } else if (d.kind === "seq" && !d.alias) {
        const items = d.items!;
        for (let i = items.length - 1; i >= 0; i--) {
          const it = items[i]!;
          if (it.kind !== "map") wantMap(d.mark);
          if (it.fail) throw it.fail;
          if (it.selfRef) containsItself(it.selfRef);
          top.ops.push(...it.ops!);
        }
      } else wantMap(d.mark);
      return;
    }
    if (d.selfRef) containsItself(d.selfRef);
    const k = key.val as GoScalar;
    top.ops.push({ id: goKeyId(k), key: k, val: d.val, valErrs: d.errs, line: d.mark.line + 1, mark: d.mark });
  };

  /** The innermost open sequence that is a merge key's value (-1: none). */
  const mergeSequence = (): number => {
    for (let i = stack.length - 1; i >= 0; i--) if (stack[i]!.mergeValue && !stack[i]!.map) return i;
    return -1;
  };
  // a failed item of a merge key's sequence: its open collections still to pass over, and the item
  let skip = 0;
  let failed: Done | undefined;

  const step = (e: YamlEvent) => {
    switch (e.type) {
      case EV.Scalar: {
        decodeCount++;
        const top = stack[stack.length - 1];
        // go-yaml refuses a scalar merge value before decoding it; a scalar item of a merge sequence is
        // refused too, unless a later item fails first (its value matters only to an alias of it)
        if (top?.map && top.key?.merge) wantMap(e.start);
        let s: GoScalar;
        let fail: ComposeError | undefined;
        try {
          s = resolveScalar(e);
        } catch (err) {
          if (!(err instanceof ComposeError)) throw err;
          // an alias of it fails too (a later item of a merge sequence can still reach it)
          if (e.anchor !== undefined) anchors.set(e.anchor, { kind: "scalar", val: { t: "null" }, errs: NO_ERRS, size: 1, mark: e.start, fail: err });
          if (!top?.mergeValue || top.map) throw err;
          s = { t: "null" };
          fail = err;
        }
        const d: Done = { kind: "scalar", val: s, errs: NO_ERRS, size: 1, mark: e.start };
        if (fail) d.fail = fail;
        if (e.value === "<<" && (e.implicit || e.tag === MERGE_TAG)) d.merge = true;
        if (e.anchor !== undefined) anchors.set(e.anchor, d);
        place(d);
        break;
      }
      case EV.SequenceStart:
      case EV.MappingStart:
        decodeCount++;
        if (e.anchor !== undefined) anchors.set(e.anchor, e.type === EV.MappingStart ? "map" : "seq");
        {
          const top = stack[stack.length - 1];
          const mergeValue = top?.map === true && top.key?.merge === true;
          stack.push({ map: e.type === EV.MappingStart, anchor: e.anchor, mark: e.start, size: 1, ops: [], items: [], key: undefined, mergeValue });
        }
        break;
      case EV.SequenceEnd:
      case EV.MappingEnd: {
        const f = stack.pop()!;
        let d: Done;
        if (f.map) {
          const m = new GoMap();
          const errs: string[] = [];
          applyOps(m, f.ops, errs);
          d = { kind: "map", val: m, errs, ops: f.ops, size: f.size, mark: f.mark };
          if (f.selfRef) d.selfRef = f.selfRef;
        } else {
          const errs: string[] = [];
          for (const it of f.items) for (const x of it.errs) errs.push(x);
          d = { kind: "seq", val: f.items.map((it) => it.val), errs, items: f.items, size: f.size, mark: f.mark };
          if (f.selfRef) d.selfRef = f.selfRef;
        }
        if (f.anchor !== undefined) anchors.set(f.anchor, d);
        place(d);
        break;
      }
      case EV.Alias: {
        const name = e.anchor!;
        const a = anchors.get(name);
        if (a === undefined) throw new ComposeError(`unknown anchor '${name}' referenced`, e.start);
        if (a !== "map" && a !== "seq" && a.fail) {
          // an item of a merge sequence: its kind is checked first, its failure waits for its turn
          const top = stack[stack.length - 1];
          if (top?.map && top.key?.merge && a.kind !== "map") wantMap(e.start);
          if (!top?.mergeValue || top.map) throw a.fail;
          place({ ...a, size: 1, alias: true, mark: e.start });
          break;
        }
        if (a === "map" || a === "seq") {
          place({ kind: a, val: [], errs: [], ops: [], items: [], size: 1, alias: true, selfRef: { name, mark: e.start }, mark: e.start });
          break;
        }
        decodeCount += 1 + a.size;
        aliasCount += a.size;
        if (aliasCount > 100 && decodeCount > 1000 && aliasCount / decodeCount > allowedAliasRatio(decodeCount)) {
          throw new ComposeError("document contains excessive aliasing", e.start);
        }
        const d: Done = { ...a, size: a.size + 1, mark: e.start, alias: true };
        delete d.merge;
        if (a.kind === "map") {
          // decoded again: its duplicate keys are reported again
          const m = new GoMap();
          const errs: string[] = [];
          applyOps(m, a.ops!, errs);
          d.errs = errs;
        }
        place(d);
        break;
      }
    }
  };

  for (const e of events) {
    if (skip > 0) {
      // anchors in the rest of a failed item: later items may alias them (go-yaml decodes those nodes there)
      if (e.anchor !== undefined && e.type !== EV.Alias) anchors.set(e.anchor, skippedAnchor(e, failed!));
      if (e.type === EV.SequenceStart || e.type === EV.MappingStart) skip++;
      else if (e.type === EV.SequenceEnd || e.type === EV.MappingEnd) skip--;
      if (skip === 0) place(failed!);
      continue;
    }
    try {
      step(e);
    } catch (err) {
      // inside an item of a merge key's sequence, the failure waits for go-yaml's order (see Done.fail)
      const m = err instanceof ComposeError ? mergeSequence() : -1;
      if (m < 0 || stack.length === m + 1) throw err;
      const f = stack[m + 1]!;
      const fail = err as ComposeError;
      failed = { kind: f.map ? "map" : "seq", val: [], errs: [], ops: [], items: [], size: 1, mark: f.mark, fail };
      // an anchored node the failure is in fails again wherever a later item aliases it
      for (let i = m + 1; i < stack.length; i++) {
        const g = stack[i]!;
        if (g.anchor !== undefined) anchors.set(g.anchor, { ...failed, kind: g.map ? "map" : "seq", mark: g.mark });
      }
      skip = stack.length - (m + 1);
      stack.length = m + 1;
    }
  }
  if (root?.selfRef) containsItself(root.selfRef);
  const r: Composed = { value: root ? root.val : { t: "null" }, strictErrors: root ? root.errs : [] };
  if (firstDup !== undefined) r.firstDuplicate = firstDup;
  return r;
}
