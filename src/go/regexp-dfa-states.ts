/**
 * The state cache of a lazy DFA over a program's instruction lists (src/go/regexp-matcher.ts,
 * src/go/regexp-leftmost.ts):
 * each state is a list of instructions plus a flag, numbered on first sight, with a transition table of
 * `width` slots per state. Bounded in memory (about 8 MB at most): when full it
 * starts afresh, as RE2's does.
 *
 * @module
 */

const MAX_STATES = 4096;
const MAX_ENTRIES = 1 << 20;
const MAX_SLOTS = 1 << 20;
/** A transition not computed yet. */
export const UNKNOWN = -1;

export class DfaStates {
  /** Each state's instruction list. */
  readonly lists: Int32Array[] = [];
  /** Each state's flag. */
  readonly flags: boolean[] = [];
  /** Transitions: `width` slots per state, {@link UNKNOWN} or the next state. */
  next = new Int32Array(0);
  /** Counts resets: a transition computed across one names states that are gone, and is not stored. */
  generation = 0;
  private readonly ids = new Map<number, number[]>();
  private entries = 0;

  constructor(readonly width: number) {}

  /** The state of `list` (kept as given: sort it first for a set) and `flag`; -1 when even an empty cache cannot hold it. */
  intern(list: Int32Array, flag: boolean): number {
    const n = list.length;
    let h = flag ? n + 0x5bd1e995 : n;
    for (let i = 0; i < n; i++) h = Math.imul(h ^ (list[i] as number), 0x9e3779b1) ^ (h >>> 15);
    const bucket = this.ids.get(h);
    if (bucket !== undefined) {
      for (const id of bucket) if (this.flags[id] === flag && same(this.lists[id] as Int32Array, list)) return id;
    }
    const { width } = this;
    if (this.lists.length >= MAX_STATES || this.entries + n > MAX_ENTRIES || (this.lists.length + 1) * width > MAX_SLOTS) {
      if (n > MAX_ENTRIES || width > MAX_SLOTS) return -1;
      this.next.fill(UNKNOWN, 0, this.lists.length * width);
      this.ids.clear();
      this.lists.length = 0;
      this.flags.length = 0;
      this.entries = 0;
      this.generation++;
      return this.intern(list, flag);
    }
    const id = this.lists.length;
    this.lists.push(list.slice());
    this.flags.push(flag);
    this.entries += n;
    if (bucket) bucket.push(id);
    else this.ids.set(h, [id]);
    if (this.next.length < (id + 1) * width) {
      const grown = new Int32Array(Math.min(Math.max(this.next.length * 2, (id + 1) * width), MAX_SLOTS)).fill(UNKNOWN);
      grown.set(this.next);
      this.next = grown;
    }
    return id;
  }
}

function same(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
