/**
 * Maps a Kubernetes field path (`spec.containers[0].image`, `metadata.labels[app]`, `.spec.replicas`) to a
 * source offset by walking the parser events of a document. Used lazily, only for documents with errors.
 */
import { EV, type YamlEvent } from "./goyaml/parser.js";
import type { BlockOutline } from "./goyaml/simple-block.js";

type Event = YamlEvent;

interface Segment {
  name: string;
  /** `[x]` (index or map key) rather than `.x`. */
  bracket: boolean;
}

/** Splits a rendered field.Path into segments. `<nil>` and `""` are the root. */
export function parseFieldPath(path: string): Segment[] {
  const out: Segment[] = [];
  if (path === "<nil>") return out;
  let i = path.startsWith(".") ? 1 : 0;
  let cur = "";
  const flush = () => {
    if (cur !== "") out.push({ name: cur, bracket: false });
    cur = "";
  };
  while (i < path.length) {
    const c = path[i]!;
    if (c === ".") {
      flush();
      i++;
    } else if (c === "[") {
      flush();
      const end = path.indexOf("]", i);
      if (end === -1) {
        cur = path.slice(i);
        break;
      }
      out.push({ name: path.slice(i + 1, end), bracket: true });
      i = end + 1;
    } else {
      cur += c;
      i++;
    }
  }
  flush();
  return out;
}

function isEnd(e: Event): boolean {
  return e.type === EV.MappingEnd || e.type === EV.SequenceEnd;
}

function skip(events: Event[], i: number): number {
  let depth = 0;
  for (;;) {
    const t = events[i]!.type;
    if (t === EV.MappingStart || t === EV.SequenceStart) depth++;
    else if (t === EV.MappingEnd || t === EV.SequenceEnd) depth--;
    i++;
    if (depth <= 0 || i >= events.length) return i;
  }
}

function startOf(ev: Event | undefined, fallback: number): number {
  if (!ev || isEnd(ev)) return fallback;
  return ev.start.index;
}

/**
 * Offset of the node at `path` in the document whose root node is `events[rootIndex]`; when the path
 * does not exist entirely, the offset of the deepest existing part (the key of the last matched entry).
 */
export function locateOffset(_text: string, events: Event[], rootIndex: number, path: string): number {
  const segs = parseFieldPath(path);
  let node = rootIndex;
  let best = startOf(events[node], 0);
  let s = 0;
  while (s < segs.length) {
    const ev = events[node];
    if (!ev) break;
    if (ev.type === EV.SequenceStart) {
      const idx = Number(segs[s]!.name);
      if (!segs[s]!.bracket || !Number.isInteger(idx)) break;
      let j = node + 1;
      let k = 0;
      while (j < events.length && !isEnd(events[j]!) && k < idx) {
        j = skip(events, j);
        k++;
      }
      if (j >= events.length || isEnd(events[j]!)) break;
      node = j;
      best = startOf(events[node], best);
      s++;
      continue;
    }
    if (ev.type !== EV.MappingStart) break;
    let found = -1;
    let consumed = 0;
    let j = node + 1;
    while (j < events.length && !isEnd(events[j]!) && found === -1) {
      const keyEv = events[j]!;
      const valIdx = skip(events, j);
      if (keyEv.type === EV.Scalar) {
        const key = keyEv.value ?? "";
        // Keys may themselves contain dots: try the longest run of dotted segments first.
        let name = segs[s]!.name;
        if (key === name) {
          found = valIdx;
          consumed = 1;
        } else if (!segs[s]!.bracket && key.startsWith(name + ".")) {
          for (let t = s + 1; t < segs.length && !segs[t]!.bracket; t++) {
            name += "." + segs[t]!.name;
            if (key === name) {
              found = valIdx;
              consumed = t - s + 1;
              break;
            }
          }
        }
        if (found !== -1) {
          best = startOf(keyEv, best);
          const v = startOf(events[valIdx], -1);
          if (v >= 0) best = v;
        }
      }
      if (found === -1) j = valIdx < events.length ? skip(events, valIdx) : valIdx;
    }
    if (found === -1) break;
    node = found;
    s += consumed;
  }
  return best;
}

/**
 * {@link locateOffset} over the outline of a document the line path read (./goyaml/simple-block.ts): the
 * same walk and the same answer as over the parser's events of that document, without parsing it again.
 */
export function locateInOutline(root: BlockOutline, path: string): number {
  const segs = parseFieldPath(path);
  let node = root;
  let best = root.at;
  let s = 0;
  while (s < segs.length) {
    const kids = node.kids;
    if (kids === undefined) break; // a scalar
    const seg = segs[s]!;
    if (node.seq === true) {
      const idx = Number(seg.name);
      if (!seg.bracket || !Number.isInteger(idx)) break;
      // (the event walk skips `idx` items: none for a negative index)
      const i = Math.max(idx, 0);
      if (i >= kids.length) break;
      node = kids[i]!;
      best = node.at;
      s++;
      continue;
    }
    const keys = node.keys!;
    let found = -1;
    let consumed = 0;
    for (let j = 0; j < keys.length && found === -1; j++) {
      const key = keys[j]!;
      let name = seg.name;
      if (key === name) {
        found = j;
        consumed = 1;
      } else if (!seg.bracket && key.startsWith(name + ".")) {
        // keys may themselves contain dots: the longest run of dotted segments first
        for (let t = s + 1; t < segs.length && !segs[t]!.bracket; t++) {
          name += "." + segs[t]!.name;
          if (key === name) {
            found = j;
            consumed = t - s + 1;
            break;
          }
        }
      }
    }
    if (found === -1) break;
    node = kids[found]!;
    best = node.at;
    s += consumed;
  }
  return best;
}
