/**
 * The Unicode data Go's `regexp/syntax` reads, over the tables of src/go/regexp-unicode-tables.ts
 * (generated from Go's `unicode` package; in the CLI bundle part of the file ./regexp-go.ts becomes): `unicode.SimpleFold`, and the table a `\p{Name}` class
 * names (Go's `unicodeTable`, with its `canonicalName` spelling rules). Runes are code points.
 *
 * @module
 */
import * as tables from "./regexp-unicode-tables.js";

const unicodeTables = (): typeof tables => tables;

/** unicode.MaxRune */
export const MAX_RUNE = 0x10ffff;

/** A class: sorted, merged ranges as pairs `[lo0, hi0, lo1, hi1, …]`. */
export type Ranges = readonly number[];

/** Decodes a table of src/go/regexp-unicode-tables.ts. */
function decodeRanges(s: string): number[] {
  const out: number[] = [];
  let prev = 0;
  let i = 0;
  while (i < s.length) {
    let j = i;
    while (j < s.length && s[j] !== " " && s[j] !== "," && s[j] !== ";") j++;
    const lo = prev + Number.parseInt(s.slice(i, j), 36);
    let hi = lo;
    if (s[j] === " ") {
      i = j + 1;
      j = i;
      while (j < s.length && s[j] !== ",") j++;
      hi = lo + Number.parseInt(s.slice(i, j), 36);
    }
    out.push(lo, hi);
    prev = hi;
    i = j + 1;
  }
  return out;
}

let foldMap: Map<number, number> | undefined;

function folds(): Map<number, number> {
  if (foldMap) return foldMap;
  const m = new Map<number, number>();
  let prev = 0;
  for (const item of unicodeTables().FOLD.split(",")) {
    const sp = item.indexOf(" ");
    const r = prev + Number.parseInt(item.slice(0, sp), 36);
    m.set(r, r + Number.parseInt(item.slice(sp + 1), 36));
    prev = r;
  }
  foldMap = m;
  return m;
}

/**
 * SimpleFold of the ASCII runes and of the two other runes of their orbits (`k` → KELVIN SIGN → `K`,
 * `s` → LONG S → `S`), without decoding FOLD: a case-insensitive ASCII pattern (`(?i)[a-z_]`) folds
 * only these. Equal to the table's answers (src/go/regexp-unicode.test.ts).
 */
function asciiOrbitFold(r: number): number {
  if (r >= 0x61 && r <= 0x7a) return r === 0x6b ? 0x212a : r === 0x73 ? 0x17f : r - 0x20;
  if (r >= 0x41 && r <= 0x5a) return r + 0x20;
  if (r === 0x17f) return 0x53;
  if (r === 0x212a) return 0x4b;
  return r;
}

/** Go's `unicode.SimpleFold(r)`: the next rune of r's case-folding orbit (r itself when it has none). */
export function simpleFold(r: number): number {
  if (r < 0x80 || r === 0x17f || r === 0x212a) return asciiOrbitFold(r);
  return folds().get(r) ?? r;
}

/** {@link simpleFold} by the FOLD table alone (for tests). */
export function simpleFoldByTable(r: number): number {
  return folds().get(r) ?? r;
}

/** Runes involved in folding lie in [MIN_FOLD, MAX_FOLD] (Go's `minFold`, `maxFold`). */
export const MIN_FOLD = 0x0041;
export const MAX_FOLD = 0x1e943;

const decoded = new Map<string, number[]>();

function cached(key: string, enc: string): number[] {
  let r = decoded.get(key);
  if (!r) {
    r = decodeRanges(enc);
    decoded.set(key, r);
  }
  return r;
}

const ANY: Ranges = [0, MAX_RUNE];
const ASCII: Ranges = [0, 0x7f];
const ASCII_FOLD: Ranges = [0, 0x7f, 0x17f, 0x17f, 0x212a, 0x212a];

/** Go's `canonicalName`: first letter upper case, the rest lower case, without `_`, `-` and spaces. */
function canonicalName(name: string): string {
  let out = "";
  let first = true;
  for (let i = 0; i < name.length; i++) {
    let c = name.charCodeAt(i);
    if (c === 0x5f || c === 0x2d || c === 0x20) continue;
    if (first) {
      if (c >= 0x61 && c <= 0x7a) c -= 32;
      first = false;
    } else if (c >= 0x41 && c <= 0x5a) c += 32;
    out += String.fromCharCode(c);
  }
  return out;
}

let aliases: Map<string, string> | undefined;

function categoryTable(actual: string): { tab: Ranges; fold: Ranges | undefined; sign: number } {
  const { CATEGORIES, FOLD_CATEGORY } = unicodeTables();
  const f = FOLD_CATEGORY[actual];
  return { tab: cached(`C${actual}`, CATEGORIES[actual] as string), fold: f === undefined ? undefined : cached(`FC${actual}`, f), sign: 1 };
}

/**
 * Go's `unicodeTable(name)`: the runes of `\p{name}`, the runes that fold to them (undefined: none),
 * and the sign (-1: the class is the table's complement); undefined for an unknown name.
 */
export function unicodeTable(name: string): { tab: Ranges; fold: Ranges | undefined; sign: number } | undefined {
  const n = canonicalName(name);
  const { CATEGORIES, CATEGORY_ALIASES, FOLD_SCRIPT, SCRIPTS } = unicodeTables();
  switch (n) {
    case "Any":
      return { tab: ANY, fold: ANY, sign: 1 };
    case "Assigned":
      return { tab: cached("CCn", CATEGORIES["Cn"] as string), fold: cached("CCn", CATEGORIES["Cn"] as string), sign: -1 };
    case "Ascii":
      return { tab: ASCII, fold: ASCII_FOLD, sign: 1 };
    case "Lc":
      return categoryTable("LC");
  }
  if (Object.hasOwn(CATEGORIES, n)) return categoryTable(n);
  if (Object.hasOwn(SCRIPTS, n)) {
    const f = FOLD_SCRIPT[n];
    return { tab: cached(`S${n}`, SCRIPTS[n] as string), fold: f === undefined ? undefined : cached(`FS${n}`, f), sign: 1 };
  }
  if (!aliases) {
    aliases = new Map();
    for (const [k, v] of Object.entries(CATEGORY_ALIASES)) aliases.set(canonicalName(k), v);
  }
  const actual = aliases.get(n);
  return actual === undefined ? undefined : categoryTable(actual);
}
