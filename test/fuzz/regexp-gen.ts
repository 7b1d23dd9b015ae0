/**
 * Seeded random Go regular expressions around the edges of the simple subset of src/go/regexp-simple.ts
 * (every construct it accepts, and the nearby ones it must decline or Go rejects), and subjects to match
 * them against. Used by scripts/fuzz-regexp.ts (live against Go) and its recorded fixture.
 */
import type { Rng } from "./rng.js";

const LITERALS = ["a", "b", "c", "x", "z", "A", "Z", "0", "1", "9", "_", "-", " ", ",", ":", "/", "@", "=", "#", "%", "'", '"', "<", ">", "!", "~", "`", "&"];
const STRAY = ["{", "}", "]", "{1}", "{,", "{1", "{a}", "{ 1}"];
const NON_ASCII = ["é", "\u212a", "\u017f", "ß", "😀", "\u00a0", "\u0660", "\ufffd", "\u2028"];
const SPECIAL_ESCAPES = [
  "\\Qa.b\\E",
  "\\Q*\\E",
  "\\Qab",
  "\\E",
  "\\pL",
  "\\PL",
  "\\p{Greek}",
  "\\p{L}",
  "\\pN",
  "\\p{Foo}",
  "\\pZ",
  "\\pz",
  "\\p{letter}",
  "\\p{Lu}",
  "\\p{ lu }",
  "\\P{^ascii}",
  "\\p{Assigned}",
  "\\p{lc}",
  "\\p{Old_Italic}",
  "\\p{cased_letter}",
  "\\z",
  "\\A",
  "\\b",
  "\\B",
  "\\C",
  "\\0",
  "\\00",
  "\\012",
  "\\101",
  "\\8",
  "\\1",
  "\\x41",
  "\\x7f",
  "\\x80",
  "\\xff",
  "\\x{41}",
  "\\x{e9}",
  "\\x{10FFFF}",
  "\\x{110000}",
  "\\x{}",
  "\\x4",
  "\\xg0",
  "\\x{41",
  "\\a",
  "\\f",
  "\\t",
  "\\n",
  "\\r",
  "\\v",
  "\\e",
  "\\",
];
const REPEAT_COUNTS = ["0", "1", "2", "3", "1000", "1001", "01", "00", "", "999", "10"];
const FLAGS = ["(?i)", "(?s)", "(?m)", "(?U)", "(?-i)", "(?i-s)", "(?x)", "(?)", "(?is)"];
const GROUP_OPENERS = ["(", "(", "(", "(?:", "(?:", "(?i:", "(?s:", "(?P<n>", "(?<n>", "(?=", "(?!", "(?P=n)", "(?#"];
const CLASS_MEMBERS = ["a", "b", "z", "A", "0", "9", "-", "_", ".", "^", "$", "*", "|", "(", ")", "{", "[", " ", "é", "😀", "\u212a"];
const CLASS_ESCAPES = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\-", "\\]", "\\[", "\\\\", "\\^", "\\n", "\\t", "\\x41", "\\x{e9}", "\\pL", "\\PN", "\\b", "\\z", "\\Q]\\E", "\\.", "\\a"];
const POSIX = ["[:alpha:]", "[:^alpha:]", "[:digit:]", "[:space:]", "[:word:]", "[:upper:]", "[:foo:]", "[:alpha:", "[=a=]"];
const RANGES = ["a-z", "0-9", "A-Z", "z-a", "a-a", "\\d-z", "a-\\d", "!-/", "\\x00-\\x7f", "a-é", "\\x{80}-\\x{10FFFF}", "--/", "a-\\]"];

/** An ASCII character from 0x20 to 0x7e (any letter, digit or punctuation). */
function printable(rng: Rng): string {
  return String.fromCharCode(rng.int(0x20, 0x7e));
}

/** Chance of a construct outside the simple subset (or invalid) at each choice: 0 tame … 1 wild. */
interface Gen {
  readonly rng: Rng;
  readonly wild: number;
}

function genClass(g: Gen): string {
  const { rng } = g;
  let s = "[";
  if (rng.chance(0.3)) s += "^";
  if (rng.chance(0.08 * g.wild)) return s + (rng.chance(0.5) ? "]" : "]a]");
  if (rng.chance(0.1)) s += rng.chance(g.wild) ? "]" : "-";
  const n = rng.int(1, 4);
  for (let i = 0; i < n; i++) {
    const k = rng.int(0, 9);
    if (k <= 3) s += rng.pick(CLASS_MEMBERS);
    else if (k <= 5) s += rng.chance(g.wild) ? rng.pick(RANGES) : rng.pick(RANGES.slice(0, 3));
    else if (k <= 7) s += rng.chance(g.wild) ? rng.pick(CLASS_ESCAPES) : rng.pick(CLASS_ESCAPES.slice(0, 10));
    else if (k === 8) s += rng.chance(g.wild) ? rng.pick(POSIX) : "a";
    else s += `\\${printable(rng)}`;
  }
  if (rng.chance(0.1)) s += "-";
  if (rng.chance(0.03 * g.wild)) return s; // unterminated
  return `${s}]`;
}

function genRepeat(g: Gen): string {
  const { rng } = g;
  const k = rng.int(0, 9);
  let r: string;
  if (k <= 3) r = "";
  else if (k <= 6) r = rng.pick(["*", "+", "?"]);
  else {
    const counts = rng.chance(g.wild) ? REPEAT_COUNTS : REPEAT_COUNTS.slice(0, 5);
    const n = rng.pick(counts);
    const form = rng.int(0, 2);
    r = form === 0 ? `{${n}}` : form === 1 ? `{${n},}` : `{${n},${rng.pick(counts)}}`;
  }
  if (r !== "" && rng.chance(0.25)) r += "?";
  // nested repeats: `a**`, `a{2}{3}`, `a*?+`
  if (r !== "" && rng.chance(0.08 * g.wild)) r += rng.pick(["*", "+", "?", "{3}", "{2,}"]);
  return r;
}

function genAtom(g: Gen, depth: number): string {
  const { rng } = g;
  // tame atoms: the simple subset's constructs
  const k = rng.chance(g.wild) ? rng.int(0, 19) : rng.pick([0, 0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 18]);
  if (k <= 5) return rng.pick(LITERALS);
  if (k === 6) return ".";
  if (k === 7) return rng.chance(g.wild) ? `\\${printable(rng)}` : rng.pick(["\\.", "\\-", "\\*", "\\/", "\\x41", "\\n", "\\t", "\\$"]);
  if (k === 8) return rng.pick(SPECIAL_ESCAPES);
  if (k <= 10) return genClass(g);
  if (k <= 13 && depth < 4) {
    const open = rng.chance(g.wild) ? rng.pick(GROUP_OPENERS) : rng.pick(GROUP_OPENERS.slice(0, 5));
    const body = rng.chance(0.1) ? "" : genAlt(g, depth + 1);
    return rng.chance(0.03 * g.wild) ? open + body : `${open + body})`;
  }
  if (k === 14) return rng.pick(["^", "$"]);
  if (k === 15) return rng.pick(NON_ASCII);
  if (k === 16) return rng.pick(FLAGS);
  if (k === 17) return rng.pick(STRAY);
  if (k === 18) return rng.pick(["\\d", "\\w", "\\s", "\\D", "\\W", "\\S"]);
  return rng.pick(["*", "+", "?", ")", "|", ""]);
}

function genCat(g: Gen, depth: number): string {
  const n = g.rng.int(depth === 0 ? 1 : 0, depth === 0 ? 5 : 3);
  let s = "";
  for (let i = 0; i < n; i++) s += genAtom(g, depth) + genRepeat(g);
  return s;
}

function genAlt(g: Gen, depth: number): string {
  let s = genCat(g, depth);
  while (g.rng.chance(0.25)) s += `|${genCat(g, depth)}`;
  return s;
}

/** A random pattern: often anchored, often in the simple subset, sometimes just outside it or invalid. */
export function genRegexpPattern(rng: Rng): string {
  const wild = rng.pick([0, 0, 0.02, 0.05, 0.1, 0.3, 1]);
  let p = genAlt({ rng, wild }, 0);
  if (rng.chance(0.3)) p = `^${p}`;
  if (rng.chance(0.3)) p = `${p}$`;
  if (rng.chance(0.05 * wild)) p = rng.pick(FLAGS) + p;
  return p;
}

const SUBJECT_RUNES = ["a", "b", "c", "x", "A", "Z", "0", "9", "_", "-", ".", " ", "\n", "\r", "\t", "\v", "\f", "é", "\u212a", "k", "K", "\u017f", "s", "S", "😀", "\ud800", "\udc00", "\ufffd", "\u0660", "\u00a0", "\u2028", "\u0000", "\x7f", "\x80"];

/** Characters of the pattern itself (literals it names), so that subjects match now and then. */
function patternRunes(p: string): string[] {
  return [...p].filter((c) => c !== "\\");
}

/** Random subjects for `pattern`: empty, short mixes of interesting runes and of the pattern's own, long strings. */
export function genRegexpSubjects(rng: Rng, pattern: string, count: number, longLength = 300): string[] {
  const own = patternRunes(pattern);
  const out: string[] = [""];
  for (let i = 1; i < count; i++) {
    // about half the subjects are near the pattern's language: a sample of it, maybe mutated or embedded
    const sample = rng.chance(0.5) ? sampleMatch(rng, pattern, 4 * longLength) : undefined;
    if (sample !== undefined) {
      let s = rng.chance(0.4) ? mutate(rng, sample) : sample;
      if (rng.chance(0.2)) s = rng.pick(SUBJECT_RUNES) + s + rng.pick(SUBJECT_RUNES);
      out.push(s);
      continue;
    }
    if (rng.chance(0.05)) {
      // a long mix of samples, near misses and random runes (many DFA states, long runs)
      let s = "";
      while (s.length < longLength) {
        const x = rng.chance(0.5) ? sampleMatch(rng, pattern, longLength) : undefined;
        s += x === undefined ? rng.pick([...SUBJECT_RUNES, ...own]) : rng.chance(0.3) ? mutate(rng, x) : x;
      }
      out.push(s);
      continue;
    }
    if (rng.chance(0.05)) {
      const unit = rng.pick([...SUBJECT_RUNES, ...own, "ab", "aab"]) ?? "a";
      out.push(unit.repeat(Math.ceil(longLength / unit.length)) + (rng.chance(0.5) ? rng.pick(SUBJECT_RUNES) : ""));
      continue;
    }
    const len = rng.int(1, 8);
    let s = "";
    for (let j = 0; j < len; j++) s += own.length > 0 && rng.chance(0.6) ? rng.pick(own) : rng.pick(SUBJECT_RUNES);
    out.push(s);
  }
  return out;
}

const ANY_RUNES = ["a", "z", "Q", "5", "_", "-", " ", ".", "é", "😀", "\t", "\r", "\u212a"];

/**
 * A string that probably matches `pattern` (a random walk over the simple syntax: one branch of each
 * alternation, 0–3 extra copies of each repeat, a member of each class); undefined for syntax it does not
 * know. Only raises the share of matching subjects: Go decides every answer.
 */
export function sampleMatch(rng: Rng, pattern: string, maxLength = 1500): string | undefined {
  let i = 0;
  const p = pattern;
  const fail = (): never => {
    throw new Error("unknown syntax");
  };
  const readEscape = (): string => {
    const c = p[i + 1] ?? fail();
    i += 2;
    if (c === "x") {
      const h = p.slice(i, i + 2);
      i += 2;
      return String.fromCharCode(Number.parseInt(h, 16) || 65);
    }
    const table: Record<string, string> = { d: "7", D: "x", w: "w", W: "!", s: " ", S: "S", n: "\n", t: "\t", r: "\r", f: "\f", v: "\v" };
    return table[c] ?? (/[A-Za-z0-9]/.test(c) ? fail() : c);
  };
  const cls = (): string => {
    i++; // [
    const neg = p[i] === "^";
    if (neg) i++;
    const members: string[] = [];
    let first = true;
    while (i < p.length && (p[i] !== "]" || first)) {
      first = false;
      if (p[i] === "\\") members.push(readEscape());
      else members.push(p[i++] as string);
    }
    if (p[i] !== "]") fail();
    i++;
    if (neg) return rng.pick(ANY_RUNES);
    return members.length > 0 ? rng.pick(members) : "";
  };
  const atom = (): string => {
    const c = p[i] as string;
    if (c === "(") {
      i++;
      if (p.startsWith("?:", i)) i += 2;
      const s = alt();
      if (p[i] !== ")") fail();
      i++;
      return s;
    }
    if (c === "[") return cls();
    if (c === "\\") return readEscape();
    i++;
    if (c === ".") return rng.pick(ANY_RUNES.filter((r) => r !== "\n"));
    if (c === "^" || c === "$") return "";
    return c;
  };
  const piece = (): string => {
    const start = i;
    let s = atom();
    const end = i;
    const copies = (n: number): string => {
      let out = s;
      for (let k = 1; k < n; k++) {
        i = start;
        out += atom();
        if (out.length > maxLength) fail();
      }
      i = end;
      return n === 0 ? "" : out;
    };
    const c = p[i];
    let min = 1;
    let max = 1;
    if (c === "*" || c === "+" || c === "?") {
      i++;
      min = c === "+" ? 1 : 0;
      max = c === "?" ? 1 : min + 3;
    } else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(p.slice(i)) ?? fail();
      i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" || m[3] === undefined ? min + 3 : Number(m[3]);
    }
    if (p[i] === "?" && i !== end) i++;
    const after = i;
    const n = Math.min(rng.int(min, Math.max(min, max)), 1200);
    s = copies(n);
    i = after;
    return s;
  };
  const cat = (): string => {
    let s = "";
    while (i < p.length && p[i] !== "|" && p[i] !== ")") s += piece();
    return s;
  };
  const alt = (): string => {
    const branches = [cat()];
    while (p[i] === "|") {
      i++;
      branches.push(cat());
    }
    return rng.pick(branches);
  };
  try {
    const s = alt();
    return i === p.length && s.length <= maxLength ? s : undefined;
  } catch {
    return undefined;
  }
}

/** `s` with one rune inserted, removed or replaced. */
export function mutate(rng: Rng, s: string): string {
  const at = rng.int(0, s.length);
  const k = rng.int(0, 2);
  const r = rng.pick(SUBJECT_RUNES);
  if (k === 0 || s.length === 0) return s.slice(0, at) + r + s.slice(at);
  if (k === 1) return s.slice(0, at) + s.slice(at + 1);
  return s.slice(0, at) + r + s.slice(at + 1);
}
