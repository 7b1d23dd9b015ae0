/**
 * The commonest manifests decoded straight from the text, with no tokens or events: block mappings and
 * sequences (indentless ones too) of plain and quoted scalars (folded over several lines too), literal
 * and folded block scalars, one-line flow collections, whole-line and end-of-line comments. Plain scalars
 * are matched by sticky regular expressions, lines and comments ended with `indexOf` and short charCode
 * loops; each scalar is resolved by go-yaml's rules and converted by sigs.k8s.io/yaml's, the same
 * functions {@link decodeDirect} uses, so the value is the one the full path makes, to the type and the
 * key order.
 *
 * It gives up (returns `undefined`) on anything outside that shape or whose answer needs the full path's
 * bookkeeping: tabs, carriage returns and other line breaks, byte-order marks, document markers and
 * directives, anchors, aliases, tags, flow collections over several lines (or with `:` / `#` / `?` in a
 * plain scalar, or single-pair mappings), `?` / `:` complex keys, block scalars with an indentation
 * indicator (`|2`), quoted scalars over several lines as keys or in flow collections (or with an escaped
 * line break), escapes go-yaml refuses, a JSON key met twice in one mapping, merge keys, keys JSON cannot
 * hold, floats encoding/json refuses, any line whose indentation is not exactly where a block collection
 * expects it (go-yaml's errors look like that), and deep nesting. The caller then takes the one-pass
 * event path.
 */
import { ONE_CHAR_ESCAPES, escapeCodeLength, invalidEscapeCode } from "./escapes.js";
import { type JsonObject, type JsonValue, setKey } from "../../value/json-value.js";
import { plainIsString, resolvePlain } from "../go-yaml-resolve.js";
import type { DirectDecoded } from "./direct-json.js";
import { jsonMapKey, scalarJson } from "./to-json.js";

/** Characters that make the text leave this path: tab, CR, NEL, LS, PS (line breaks or blanks) and the BOM. */
const UNUSUAL = /[\t\r\x85\u2028\u2029\ufeff]/;
/**
 * A one-line plain scalar in block context after its first character was checked: words (no space, `:` only
 * when a non-blank follows) joined by spaces, a word after spaces not starting a comment.
 */
const PLAIN = /(?:[^ \n:]|:(?=[^ \n]))+(?: +(?!#)(?:[^ \n:]|:(?=[^ \n]))+)*/y;
/**
 * A plain scalar inside a one-line flow collection after its first character was checked: words joined by
 * spaces, without the flow indicators, `:`, `?` or `#` (those are left to the event path).
 */
const FLOW_PLAIN = /[^ \n,[\]{}?:#]+(?: +[^ \n,[\]{}?:#]+)*/y;

/**
 * A whole `key: value` line of plain scalars (as {@link PLAIN} reads them, neither starting with an
 * indicator), the value ended by spaces and the line break: key and value captured.
 */
const KEY_VALUE =
  /((?:[^ \n:#'"[\]{}&*!|>%@`?,-]|-(?=[^ \n]))(?:[^ \n:]|:(?=[^ \n]))*(?: +(?!#)(?:[^ \n:]|:(?=[^ \n]))+)*): +((?:[^ \n:#'"[\]{}&*!|>%@`?,-]|-(?=[^ \n]))(?:[^ \n:]|:(?=[^ \n]))*(?: +(?!#)(?:[^ \n:]|:(?=[^ \n]))+)*) *\n/y;

/** `-?:,[]{}#&*!|>'"%@\`` */
const INDICATOR = new Uint8Array(128);
for (const c of "-?:,[]{}#&*!|>'\"%@`") INDICATOR[c.charCodeAt(0)] = 1;

const SP = 0x20;
const NL = 0x0a;
const DASH = 0x2d;
const COLON = 0x3a;
const HASH = 0x23;
const DOT = 0x2e;
const SQ = 0x27;
const DQ = 0x22;
const PIPE = 0x7c;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const COMMA = 0x2c;
const BACKSLASH = 0x5c;
const GT = 0x3e;

/** Nesting this path goes to (the event path handles deeper documents up to go-yaml's limits). */
const MAX_NESTING = 100;
/** go-yaml looks for a simple key's `:` within 1024 characters of its start; this path stays well inside. */
const MAX_KEY_SPAN = 1000;

/**
 * Longest line this path reads. Its regular expressions keep a backtracking entry per repetition, so a
 * 20 MiB scalar on one line cost ~80 MiB of regexp stack (peak RSS of `validate` on such a document: 95 →
 * 176 MiB); a longer line goes to the event path, which reads it in constant memory.
 */
const MAX_LINE = 64 * 1024;

const NO_OUTLINE: BlockOutline = { at: 0 };
/** Stands for an outline's array when not recording (frozen: nothing is ever added to it). */
const NO_ITEMS: never[] = Object.freeze([]) as never[];

/** Thrown (never escapes) when the text leaves this path. */
const GIVE_UP = { giveUp: true };

/** The first document of `text` as JSON, or `undefined` when another path must decide. Never throws. */
export function decodeSimpleBlock(text: string): DirectDecoded | undefined {
  if (UNUSUAL.test(text) || (text.length > MAX_LINE && hasLongLine(text))) return undefined;
  try {
    return new BlockReader(text, false).document();
  } catch {
    // outside this path's shape, or a value go-yaml refuses: the event path decides
    return undefined;
  }
}

/**
 * Where the nodes of a document read by {@link decodeSimpleBlock} start, for source positions: `at` is the
 * offset go-yaml's parser gives the node's event (a scalar's first character or quote, a block scalar's
 * indicator, a flow collection's bracket, a block mapping's first key, a block sequence's first `-`, and
 * for an empty value the end of the `:` or `-` before it). A mapping has its keys as the parser's scalar
 * events hold them (the text, unquoted and unescaped) with their offsets and values, in order; a sequence
 * its items.
 */
export interface BlockOutline {
  at: number;
  /** A mapping's keys, their offsets and their values' outlines. */
  keys?: string[];
  keyAt?: number[];
  /** A mapping's values or a sequence's items. */
  kids?: BlockOutline[];
  /** A sequence (else a mapping when `kids` is set). */
  seq?: boolean;
}

/**
 * The outline of the first document of `text`, read as {@link decodeSimpleBlock} reads it (undefined when
 * that path does not take the text). Never throws.
 */
export function outlineSimpleBlock(text: string): BlockOutline | undefined {
  if (UNUSUAL.test(text) || (text.length > MAX_LINE && hasLongLine(text))) return undefined;
  try {
    const r = new BlockReader(text, true);
    return r.document() === undefined ? undefined : r.out;
  } catch {
    return undefined;
  }
}

/** Whether a line of `text` is longer than {@link MAX_LINE}. */
function hasLongLine(text: string): boolean {
  let from = 0;
  for (;;) {
    const nl = text.indexOf("\n", from);
    if ((nl < 0 ? text.length : nl) - from > MAX_LINE) return true;
    if (nl < 0) return false;
    from = nl + 1;
  }
}

class BlockReader {
  private pos = 0;
  /** Offset of the current line's first character. */
  private lineStart = 0;
  /** Column of the current content (its line's indentation, or further right after `- `); -1 at the end. */
  private col = -1;
  private depth = 0;
  /** Whether the last {@link scalar} was quoted. */
  private quoted = false;
  /** Whether the last {@link scalar} was quoted over several lines. */
  private multiLine = false;
  /** Where {@link lineEnd} found more on the line. */
  private at = 0;
  /** Recording: the outline of the node the last node-reading method read ({@link outlineSimpleBlock}). */
  out: BlockOutline = NO_OUTLINE;

  constructor(
    private readonly s: string,
    /** Whether node outlines are recorded (only when positions are asked for). */
    private readonly rec: boolean,
  ) {}

  document(): DirectDecoded | undefined {
    this.nextContent();
    if (this.col < 0) return undefined;
    const rootOffset = this.pos;
    const value = this.node(-1);
    if (this.col >= 0) throw GIVE_UP;
    return { value, rootOffset };
  }

  /** From a line start, skips blank and comment lines to the next content; `col` -1 at the end of the text. */
  private nextContent(): void {
    const s = this.s;
    let ls = this.pos;
    for (;;) {
      let p = ls;
      let c = s.charCodeAt(p);
      while (c === SP) c = s.charCodeAt(++p);
      if (c === NL) {
        ls = p + 1;
        continue;
      }
      if (c === HASH) {
        const nl = s.indexOf("\n", p);
        if (nl >= 0) {
          ls = nl + 1;
          continue;
        }
        p = s.length; // a last comment line without a line break
      }
      if (p >= s.length) {
        this.pos = s.length;
        this.col = -1;
        return;
      }
      this.pos = p;
      this.lineStart = ls;
      this.col = p - ls;
      if (p === ls && (c === DASH || c === DOT) && (s.startsWith("---", p) || s.startsWith("...", p))) throw GIVE_UP; // document markers
      return;
    }
  }

  /**
   * Past the line's end when only spaces and a comment (after a space) are left on it from `from`, else -1
   * with {@link at} set to the first non-space.
   */
  private lineEnd(from: number): number {
    const s = this.s;
    let p = from;
    let c = s.charCodeAt(p);
    while (c === SP) c = s.charCodeAt(++p);
    if (c === NL) return p + 1;
    if (c === HASH && p > from) {
      const nl = s.indexOf("\n", p);
      return nl < 0 ? s.length : nl + 1;
    }
    if (p >= s.length) return p;
    this.at = p;
    return -1;
  }

  /** Ends the line after a scalar value, moves to the next content, which must not be indented past `parent`. */
  private endLine(parent: number): void {
    const e = this.lineEnd(this.pos);
    if (e < 0) throw GIVE_UP;
    this.pos = e;
    this.nextContent();
    // further right: one of go-yaml's errors (or what this path leaves to the event path)
    if (this.col > parent) throw GIVE_UP;
  }

  /** Whether a `-` entry indicator is at `pos`. */
  private dashHere(): boolean {
    const s = this.s;
    const p = this.pos;
    if (s.charCodeAt(p) !== DASH) return false;
    const d = s.charCodeAt(p + 1);
    return d === SP || d === NL || p + 1 >= s.length;
  }

  /** Whether `:` and a blank (a key's end) follow, after spaces; moves past the `:` when so. */
  private colonHere(): boolean {
    const s = this.s;
    let p = this.pos;
    while (s.charCodeAt(p) === SP) p++;
    if (s.charCodeAt(p) !== COLON) return false;
    const d = s.charCodeAt(p + 1);
    if (!(d === SP || d === NL || p + 1 >= s.length)) return false;
    this.pos = p + 1;
    return true;
  }

  /** A block node whose content starts at `pos` / `col` (right of `parent`, the enclosing collection's column). */
  private node(parent: number): JsonValue {
    const s = this.s;
    const c = s.charCodeAt(this.pos);
    if (c === DASH && this.dashHere()) return this.sequence(this.col, false);
    if (c === PIPE || c === GT) return this.blockScalar(parent);
    if (c === LBRACKET || c === LBRACE) {
      const v = this.flow();
      this.endLine(parent);
      return v;
    }
    const start = this.pos;
    const text = this.scalar(parent);
    const quoted = this.quoted;
    if (this.colonHere()) {
      if (this.multiLine) throw GIVE_UP; // a key over several lines
      return this.mapping(this.col, this.keyOf(text, quoted, start), text, start);
    }
    const v = quoted ? text : plainValue(this.plainLines(text, parent));
    this.endLine(parent);
    if (this.rec) this.out = { at: start };
    return v;
  }

  /** A block mapping at column `c`, its first key read (`pos` after its `:`; `firstText` at `firstAt`). */
  private mapping(c: number, firstKey: string, firstText: string, firstAt: number): JsonObject {
    if (++this.depth > MAX_NESTING) throw GIVE_UP;
    const obj: JsonObject = {};
    const rec = this.rec;
    // (the outline's arrays only when recording: unused ones would cost every decode)
    const keys: string[] = rec ? [] : NO_ITEMS;
    const keyAt: number[] = rec ? [] : NO_ITEMS;
    const kids: BlockOutline[] = rec ? [] : NO_ITEMS;
    let key = firstKey;
    let value = this.mappingValue(c);
    if (rec) {
      keys.push(firstText);
      keyAt.push(firstAt);
      kids.push(this.out);
    }
    for (;;) {
      setKey(obj, key, value);
      if (this.col !== c) break;
      const start = this.pos;
      const kv = KEY_VALUE;
      kv.lastIndex = start;
      const m = kv.exec(this.s);
      if (m !== null) {
        // the commonest line, `key: value` (plain, one line so far), in one match
        this.pos = start + m[1]!.length + 1;
        key = this.keyOf(m[1]!, false, start);
        if (Object.hasOwn(obj, key)) throw GIVE_UP;
        if (rec) {
          let at = this.pos;
          while (this.s.charCodeAt(at) === SP) at++;
          keys.push(m[1]!);
          keyAt.push(start);
          kids.push({ at });
        }
        this.pos = kv.lastIndex - 1;
        value = plainValue(this.plainLines(m[2]!, c));
        this.endLine(c);
        continue;
      }
      if (this.dashHere()) throw GIVE_UP;
      const text = this.scalar();
      if (!this.colonHere()) throw GIVE_UP;
      key = this.keyOf(text, this.quoted, start);
      if (Object.hasOwn(obj, key)) throw GIVE_UP; // a duplicate key (or two keys one JSON key): the full path reports it
      value = this.mappingValue(c);
      if (rec) {
        keys.push(text);
        keyAt.push(start);
        kids.push(this.out);
      }
    }
    if (this.col > c) throw GIVE_UP;
    this.depth--;
    if (rec) this.out = { at: firstAt, keys, keyAt, kids };
    return obj;
  }

  /** The value after a key's `:` in a mapping at column `c`. */
  private mappingValue(c: number): JsonValue {
    const s = this.s;
    const colonEnd = this.pos;
    const e = this.lineEnd(this.pos);
    if (e >= 0) {
      // nothing more on the key's line: the value is on the next lines, an indentless sequence, or null
      this.pos = e;
      this.nextContent();
      if (this.col > c) return this.node(c);
      if (this.col === c && this.dashHere()) return this.sequence(c, true);
      // go-yaml's empty scalar is at the end of the `:`
      if (this.rec) this.out = { at: colonEnd };
      return null;
    }
    const p = this.at;
    this.pos = p;
    this.col = p - this.lineStart;
    const ch = s.charCodeAt(p);
    if (ch === PIPE || ch === GT) return this.blockScalar(c);
    let v: JsonValue;
    if (ch === LBRACKET || ch === LBRACE) v = this.flow();
    else {
      if (ch === DASH && this.dashHere()) throw GIVE_UP; // go-yaml: block sequence entries are not allowed here
      const text = this.scalar(c);
      if (this.colonHere()) throw GIVE_UP; // go-yaml: mapping values are not allowed in this context
      v = this.quoted ? text : plainValue(this.plainLines(text, c));
      if (this.rec) this.out = { at: p };
    }
    this.endLine(c);
    return v;
  }

  /** A block sequence at column `c` (`pos` at its first `-`); `indentless`: a mapping value at the mapping's column. */
  private sequence(c: number, indentless: boolean): JsonValue[] {
    if (++this.depth > MAX_NESTING) throw GIVE_UP;
    const arr: JsonValue[] = [];
    const rec = this.rec;
    const at = this.pos;
    const kids: BlockOutline[] = rec ? [] : NO_ITEMS;
    for (;;) {
      const dash = this.pos;
      const e = this.lineEnd(this.pos + 1);
      if (e >= 0) {
        this.pos = e;
        this.nextContent();
        if (this.col > c) arr.push(this.node(c));
        else {
          arr.push(null);
          // go-yaml's empty scalar is at the end of the `-`
          if (rec) this.out = { at: dash + 1 };
        }
      } else {
        const p = this.at;
        this.pos = p;
        this.col = p - this.lineStart;
        arr.push(this.node(c));
      }
      if (rec) kids.push(this.out);
      if (this.col === c && this.dashHere()) continue;
      if (this.col > c || (this.col === c && !indentless)) throw GIVE_UP;
      break;
    }
    this.depth--;
    if (rec) this.out = { at, kids, seq: true };
    return arr;
  }

  private skipSpaces(): void {
    const s = this.s;
    let p = this.pos;
    while (s.charCodeAt(p) === SP) p++;
    this.pos = p;
  }

  /**
   * A flow sequence or mapping written on one line at `pos` (`[]`, `[a, "b", [c]]`, `{a: 1, "b": [2]}`):
   * entries separated by commas, no trailing comma, no empty entry, no single-pair mapping in a sequence,
   * every mapping entry with a key and a value.
   */
  private flow(): JsonValue {
    if (++this.depth > MAX_NESTING) throw GIVE_UP;
    const s = this.s;
    const seq = s.charCodeAt(this.pos) === LBRACKET;
    const close = seq ? RBRACKET : RBRACE;
    const arr: JsonValue[] = [];
    const obj: JsonObject = {};
    const rec = this.rec;
    const at = this.pos;
    // (the outline's arrays only when recording: unused ones would cost every decode)
    const keys: string[] = rec ? [] : NO_ITEMS;
    const keyAt: number[] = rec ? [] : NO_ITEMS;
    const kids: BlockOutline[] = rec ? [] : NO_ITEMS;
    this.pos++;
    this.skipSpaces();
    if (s.charCodeAt(this.pos) !== close) {
      for (;;) {
        if (seq) {
          arr.push(this.flowNode());
          if (rec) kids.push(this.out);
        } else {
          const start = this.pos;
          const k = s.charCodeAt(start);
          if (k === LBRACKET || k === LBRACE) throw GIVE_UP; // a collection as a key
          const text = this.flowScalar();
          const quoted = this.quoted;
          this.skipSpaces();
          // after a quoted key `:` needs no blank (JSON style); after a plain one go-yaml would read on
          if (s.charCodeAt(this.pos) !== COLON || (!quoted && s.charCodeAt(this.pos + 1) !== SP)) throw GIVE_UP;
          this.pos++;
          const key = this.keyOf(text, quoted, start);
          if (Object.hasOwn(obj, key)) throw GIVE_UP;
          this.skipSpaces();
          const v = s.charCodeAt(this.pos);
          if (v === COMMA || v === RBRACE) throw GIVE_UP; // a key without a value
          setKey(obj, key, this.flowNode());
          if (rec) {
            keys.push(text);
            keyAt.push(start);
            kids.push(this.out);
          }
        }
        this.skipSpaces();
        const c = s.charCodeAt(this.pos);
        if (c === close) break;
        if (c !== COMMA) throw GIVE_UP;
        this.pos++;
        this.skipSpaces();
        if (s.charCodeAt(this.pos) === close) throw GIVE_UP; // a trailing comma
      }
    }
    this.pos++;
    this.depth--;
    if (rec) this.out = seq ? { at, kids, seq: true } : { at, keys, keyAt, kids };
    return seq ? arr : obj;
  }

  /** A scalar or collection inside a flow collection. */
  private flowNode(): JsonValue {
    const c = this.s.charCodeAt(this.pos);
    if (c === LBRACKET || c === LBRACE) return this.flow();
    if (this.rec) this.out = { at: this.pos };
    const text = this.flowScalar();
    return this.quoted ? text : plainValue(text);
  }

  /** A quoted scalar, or a plain one in flow context, at `pos`. */
  private flowScalar(): string {
    const s = this.s;
    const p = this.pos;
    const c = s.charCodeAt(p);
    if (c === SQ || c === DQ) return this.scalar();
    if (c < 0x80 && INDICATOR[c] === 1 && !(c === DASH && isAlnum(s.charCodeAt(p + 1)))) throw GIVE_UP;
    const re = FLOW_PLAIN;
    re.lastIndex = p;
    if (!re.test(s)) throw GIVE_UP;
    this.pos = re.lastIndex;
    this.quoted = false;
    return s.slice(p, re.lastIndex);
  }

  /**
   * A one-line plain or quoted scalar at `pos`, moving past it; sets {@link quoted} and {@link multiLine}.
   * With `parent` (a value in a block collection at that column) a quoted scalar may go on over lines
   * indented past it.
   */
  private scalar(parent?: number): string {
    const s = this.s;
    const p = this.pos;
    const c = s.charCodeAt(p);
    this.multiLine = false;
    if (c === SQ || c === DQ) {
      let close = s.indexOf(c === SQ ? "'" : '"', p + 1);
      let doubled = false;
      if (c === SQ) {
        while (close >= 0 && s.charCodeAt(close + 1) === SQ) {
          doubled = true;
          close = s.indexOf("'", close + 2);
        }
      } else {
        // a quote after an odd number of backslashes is escaped
        while (close >= 0 && s.charCodeAt(close - 1) === BACKSLASH) {
          let b = close - 1;
          while (s.charCodeAt(b - 1) === BACKSLASH) b--;
          if ((close - b) % 2 === 0) break;
          close = s.indexOf('"', close + 1);
        }
      }
      if (close < 0) throw GIVE_UP;
      const nl = s.indexOf("\n", p);
      if (nl >= 0 && nl < close) {
        if (parent === undefined) throw GIVE_UP; // over several lines where this path does not take them
        this.pos = close + 1;
        this.quoted = true;
        this.multiLine = true;
        return this.quotedLines(s.slice(p + 1, close), c === DQ, parent);
      }
      let text = s.slice(p + 1, close);
      if (c === DQ) {
        if (text.includes("\\")) text = unescapeDouble(text);
      } else if (doubled) text = text.replaceAll("''", "'");
      this.pos = close + 1;
      this.quoted = true;
      return text;
    }
    if (c < 0x80 && INDICATOR[c] === 1 && !(c === DASH && !this.dashHere())) throw GIVE_UP;
    if (c === SP || c === NL || p >= s.length) throw GIVE_UP;
    const re = PLAIN;
    re.lastIndex = p;
    if (!re.test(s)) throw GIVE_UP;
    this.pos = re.lastIndex;
    this.quoted = false;
    return s.slice(p, re.lastIndex);
  }

  /**
   * The text of a quoted scalar over several lines (`raw`, between its quotes), folded as go-yaml's scanner
   * folds it: blanks around a line break go, one line break becomes a space, more become all but one of
   * them; escapes (double quotes) or doubled quotes (single) are read per line. Lines go on past `parent`;
   * an escaped line break, an escape before the blanks ending a line, or a document marker leave this path.
   */
  private quotedLines(raw: string, double: boolean, parent: number): string {
    const lines = raw.split("\n");
    const last = lines.length - 1;
    let out = "";
    let empty = 0;
    for (let i = 0; i <= last; i++) {
      const line = lines[i]!;
      let a = 0;
      let b = line.length;
      if (i > 0) while (a < b && line.charCodeAt(a) === SP) a++;
      if (i < last) while (b > a && line.charCodeAt(b - 1) === SP) b--;
      if (i > 0) {
        if (a === b && i < last) {
          empty++;
          continue;
        }
        if (a <= parent) throw GIVE_UP; // not indented past the collection
        // a document marker at a line start (a root scalar): go-yaml's "found unexpected document indicator"
        if (a === 0 && (line.startsWith("---") || line.startsWith("..."))) throw GIVE_UP;
        out += empty === 0 ? " " : "\n".repeat(empty);
        empty = 0;
      }
      const seg = line.slice(a, b);
      if (!double) {
        out += seg.includes("''") ? seg.replaceAll("''", "'") : seg;
        continue;
      }
      if (i < last && seg.charCodeAt(seg.length - 1) === BACKSLASH) throw GIVE_UP;
      out += seg.includes("\\") ? unescapeDouble(seg) : seg;
    }
    return out;
  }

  /**
   * A plain scalar value read on from `pos` (after its first line's text) over the next lines indented past
   * `parent`, folded as go-yaml's scanner folds it: one line break becomes a space, more become all but one
   * of them, blanks around them go. It ends before a comment, a document marker, a line not indented past
   * `parent`, or text other than a plain scalar's (`: `: {@link endLine} then gives up).
   */
  private plainLines(text: string, parent: number): string {
    const s = this.s;
    const n = s.length;
    let p = this.pos;
    let c = s.charCodeAt(p);
    while (c === SP) c = s.charCodeAt(++p);
    let out = text;
    while (c === NL) {
      // p is at a line break after scalar text: count the breaks up to the next non-blank line
      let breaks = 0;
      let ls: number;
      let q = p;
      do {
        breaks++;
        ls = q + 1;
        q = ls;
        c = s.charCodeAt(q);
        while (c === SP) c = s.charCodeAt(++q);
      } while (c === NL);
      if (q >= n || q - ls <= parent || c === HASH) break;
      if (q === ls && (c === DASH || c === DOT) && (s.startsWith("---", q) || s.startsWith("...", q))) break;
      const re = PLAIN;
      re.lastIndex = q;
      if (!re.test(s)) throw GIVE_UP; // `: ` starting the line
      out += (breaks === 1 ? " " : "\n".repeat(breaks - 1)) + s.slice(q, re.lastIndex);
      p = re.lastIndex;
      this.pos = p;
      this.lineStart = ls;
      c = s.charCodeAt(p);
      while (c === SP) c = s.charCodeAt(++p);
    }
    return out;
  }

  /** The JSON key of a mapping key read from `start` (`pos` after its `:`). */
  private keyOf(text: string, quoted: boolean, start: number): string {
    if (this.pos - start > MAX_KEY_SPAN || text === "<<") throw GIVE_UP; // merge keys (or "<<" quoted: same JSON, rare)
    if (quoted || plainIsString(text)) return text;
    const k = jsonMapKey(resolvePlain(text));
    if (k === undefined) throw GIVE_UP;
    return k;
  }

  /**
   * A literal or folded block scalar (`|`, `>`, chomped with `-` or `+`) at `pos` in a collection at
   * column `parent`, read as go-yaml's scanner does: the indentation is the first non-empty line's, lines
   * are kept as written after it (folded: a line break between two lines that do not start with a blank
   * becomes a space, or goes when empty lines follow it), the line breaks at the end chomped.
   */
  private blockScalar(parent: number): string {
    const s = this.s;
    const n = s.length;
    if (this.rec) this.out = { at: this.pos };
    const folded = s.charCodeAt(this.pos) === GT;
    let p = this.pos + 1;
    let chomp = 0;
    const ind = s.charCodeAt(p);
    if (ind === DASH) {
      chomp = -1;
      p++;
    } else if (ind === 0x2b /* + */) {
      chomp = 1;
      p++;
    }
    p = this.lineEnd(p);
    if (p < 0) throw GIVE_UP; // an indentation indicator, or something else after the header
    // leading empty lines
    let leading = 0;
    let maxEmpty = 0;
    let m = 0;
    for (;;) {
      m = 0;
      while (s.charCodeAt(p + m) === SP) m++;
      if (p + m < n && s.charCodeAt(p + m) === NL) {
        if (m > maxEmpty) maxEmpty = m;
        leading++;
        p += m + 1;
        continue;
      }
      break;
    }
    const indent = m;
    // no content, content not indented past the collection, or empty lines indented deeper: the event path
    if (p + m >= n || indent <= parent || indent < 1 || maxEmpty > indent) throw GIVE_UP;
    let out = leading > 0 ? "\n".repeat(leading) : "";
    const pad = " ".repeat(indent);
    let from = p + indent;
    let trailing = 0;
    let broke = false;
    let blank = s.charCodeAt(from) === SP;
    for (;;) {
      let eol = s.indexOf("\n", from);
      if (eol < 0) eol = n;
      out += s.slice(from, eol);
      if (eol >= n) {
        p = n;
        broke = false;
        trailing = 0;
        break;
      }
      p = eol + 1;
      broke = true;
      trailing = 0;
      for (;;) {
        if (s.startsWith(pad, p)) {
          // the usual line: the indentation, then text or the line's end (one call, no loop over it)
          const d = s.charCodeAt(p + indent);
          if (d === NL) {
            trailing++;
            p += indent + 1;
            continue;
          }
          if (d !== SP && p + indent < n) {
            m = indent;
            break;
          }
        }
        m = 0;
        while (s.charCodeAt(p + m) === SP) m++;
        if (p + m < n && s.charCodeAt(p + m) === NL && m <= indent) {
          trailing++;
          p += m + 1;
          continue;
        }
        break;
      }
      if (p + m >= n) {
        if (m > 0) throw GIVE_UP; // spaces at the very end
        break;
      }
      if (m < indent) break;
      // the next content line (possibly only spaces past the indentation)
      from = p + indent;
      const nextBlank = s.charCodeAt(from) === SP;
      if (folded && !blank && !nextBlank) out += trailing > 0 ? "\n".repeat(trailing) : " ";
      else out += trailing > 0 ? "\n".repeat(trailing + 1) : "\n";
      blank = nextBlank;
    }
    if (chomp !== -1 && broke) out += "\n";
    if (chomp === 1 && trailing > 0) out += "\n".repeat(trailing);
    this.pos = p;
    this.nextContent();
    if (this.col > parent) throw GIVE_UP;
    return out;
  }
}

const HEX = /^[0-9A-Fa-f]*$/;

/**
 * The escapes of a one-line double-quoted scalar's text, as go-yaml's scanner reads them; an escape it
 * refuses (unknown, short or invalid code) leaves this path, so the event path reports it.
 */
function unescapeDouble(t: string): string {
  let out = "";
  let from = 0;
  for (let i = t.indexOf("\\"); i >= 0; i = t.indexOf("\\", from)) {
    out += t.slice(from, i);
    const e = t[i + 1]!;
    const one = Object.hasOwn(ONE_CHAR_ESCAPES, e) ? ONE_CHAR_ESCAPES[e] : undefined;
    if (one !== undefined) {
      out += one;
      from = i + 2;
      continue;
    }
    const len = escapeCodeLength(e);
    const hex = t.slice(i + 2, i + 2 + len);
    if (len === 0 || hex.length !== len || !HEX.test(hex)) throw GIVE_UP;
    const v = Number.parseInt(hex, 16);
    if (invalidEscapeCode(v)) throw GIVE_UP;
    out += String.fromCodePoint(v);
    from = i + 2 + len;
  }
  return out + t.slice(from);
}

function isAlnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** A plain scalar's JSON value by go-yaml's resolution and sigs.k8s.io/yaml's conversion. */
function plainValue(text: string): JsonValue {
  if (plainIsString(text)) return text;
  const r = resolvePlain(text);
  if (r.t === "float" && !Number.isFinite(r.v)) throw GIVE_UP; // encoding/json refuses it
  return scalarJson(r.t === "merge" ? { t: "str", v: "<<" } : r);
}
