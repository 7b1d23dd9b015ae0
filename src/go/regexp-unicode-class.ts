/**
 * Go's (1.25 on) `regexp/syntax` lookup of Unicode class names in `\pX`, `\p{Name}` and `\P{^Name}`:
 * the name is canonicalised (`canonicalName`: spaces, underscores and hyphens dropped, first letter
 * upper case, the rest lower case) and looked up among the special names `Any`, `Assigned`, `Ascii`,
 * `Lc`, the categories and scripts whose table key is already canonical, then `unicode.CategoryAliases`
 * (canonicalised: `Letter`, `cased letter`, `Uppercase_Letter`, `punct`, …). So `\pz`, `\p{lu}`,
 * `\p{Letter}` and `\p{ASCII}` compile and `\p{Old_Italic}` does not.
 *
 * re2js looks the name up exactly as written among the same tables (it knows `Any`, `Ascii`, `Assigned`
 * and `Lc`, but neither canonicalises nor knows the aliases), so {@link rewriteUnicodeClassNames} gives
 * it each name in the one spelling it knows; names Go rejects are left as written (or, when re2js would
 * find them, made unknown), so re2js rejects them with Go's text. {@link restoreErrorText} maps an error
 * about the rewritten pattern back to the source.
 *
 * @module
 */
import { re2jsModule } from "./re2js-module.js";

let categoryAliasMap: ReadonlyMap<string, string> | undefined;

/**
 * Go's `unicode.CategoryAliases`, keys canonicalised, values as re2js spells the category; built on first
 * use (only a pattern with a `\p{...}` class name needs it, and building it at load cost every run ~0.1 ms).
 */
function categoryAliases(): ReadonlyMap<string, string> {
  categoryAliasMap ??= new Map(
    Object.entries({
      Cased_Letter: "LC",
      Close_Punctuation: "Pe",
      Combining_Mark: "M",
      Connector_Punctuation: "Pc",
      Control: "Cc",
      Currency_Symbol: "Sc",
      Dash_Punctuation: "Pd",
      Decimal_Number: "Nd",
      Enclosing_Mark: "Me",
      Final_Punctuation: "Pf",
      Format: "Cf",
      Initial_Punctuation: "Pi",
      Letter: "L",
      Letter_Number: "Nl",
      Line_Separator: "Zl",
      Lowercase_Letter: "Ll",
      Mark: "M",
      Math_Symbol: "Sm",
      Modifier_Letter: "Lm",
      Modifier_Symbol: "Sk",
      Nonspacing_Mark: "Mn",
      Number: "N",
      Open_Punctuation: "Ps",
      Other: "C",
      Other_Letter: "Lo",
      Other_Number: "No",
      Other_Punctuation: "Po",
      Other_Symbol: "So",
      Paragraph_Separator: "Zp",
      Private_Use: "Co",
      Punctuation: "P",
      Separator: "Z",
      Space_Separator: "Zs",
      Spacing_Mark: "Mc",
      Surrogate: "Cs",
      Symbol: "S",
      Titlecase_Letter: "Lt",
      Unassigned: "Cn",
      Uppercase_Letter: "Lu",
      cntrl: "Cc",
      digit: "Nd",
      punct: "P",
    }).map(([alias, actual]) => [canonicalName(alias), canonicalName(actual)]),
  );
  return categoryAliasMap;
}

/** Go's `canonicalName` (byte-wise, ASCII case mapping only). */
export function canonicalName(name: string): string {
  let out = "";
  let first = true;
  for (const ch of name) {
    if (ch === "_" || ch === "-" || ch === " ") continue;
    if (first) {
      out += ch >= "a" && ch <= "z" ? ch.toUpperCase() : ch;
      first = false;
    } else out += ch >= "A" && ch <= "Z" ? ch.toLowerCase() : ch;
  }
  return out;
}

const known = new Map<string, boolean>();

/** True when re2js knows the class name `name` exactly as written (its lookup is Go's, minus canonicalising). */
function re2jsKnows(name: string): boolean {
  let k = known.get(name);
  if (k === undefined) {
    try {
      re2jsModule().RE2JS.compile(`\\p{${name}}`);
      k = true;
    } catch {
      k = false;
    }
    known.set(name, k);
  }
  return k;
}

/** The spelling of `name` that re2js resolves to the table Go's `unicodeTable` returns; undefined when Go rejects it. */
function re2jsName(name: string): string | undefined {
  const c = canonicalName(name);
  if (re2jsKnows(c)) return c;
  const actual = categoryAliases().get(c);
  return actual !== undefined && re2jsKnows(actual) ? actual : undefined;
}

/** One replaced span: `[from, from + oldLength)` of the source became `[to, to + newLength)` of the rewrite. */
interface Edit {
  readonly from: number;
  readonly to: number;
  readonly oldLength: number;
  readonly newLength: number;
}

/** A pattern with its class names spelt for re2js, and what was replaced. */
export interface RewrittenPattern {
  readonly pattern: string;
  readonly edits: readonly Edit[];
}

/**
 * Rewrites every `\p` / `\P` class name Go accepts into the spelling re2js knows (`\p{letter}` →
 * `\p{L}`, `\pz` → `\pZ`, `\P{^ascii}` → `\P{^Ascii}`), skipping escaped backslashes and `\Q…\E`.
 * Returns undefined when nothing changes (the common case: no `\p` at all).
 */
export function rewriteUnicodeClassNames(p: string): RewrittenPattern | undefined {
  if (!p.includes("\\p") && !p.includes("\\P")) return undefined;
  let out = "";
  const edits: Edit[] = [];
  let i = 0;
  let copied = 0;
  while (i < p.length) {
    if (p[i] !== "\\") {
      i++;
      continue;
    }
    const c = p[i + 1];
    if (c === "Q") {
      const end = p.indexOf("\\E", i + 2);
      i = end < 0 ? p.length : end + 2;
      continue;
    }
    if (c !== "p" && c !== "P") {
      i += 2;
      continue;
    }
    // the name: one rune, or up to the first `}` (Go takes the first `}` of the rest of the pattern)
    let start = i + 2;
    let end: number;
    if (p[start] === "{") {
      start++;
      end = p.indexOf("}", start);
      if (end < 0) break;
    } else {
      const cp = p.codePointAt(start);
      if (cp === undefined) break;
      end = start + (cp > 0xffff ? 2 : 1);
    }
    let name = p.slice(start, end);
    let nameStart = start;
    if (name.startsWith("^")) {
      name = name.slice(1);
      nameStart++;
    }
    // a table key that is not canonical (`Old_Italic`, `SignWriting`) is found by re2js but not by Go:
    // `^^` makes re2js reject it too, and the error's `\p{…}` maps back to the source's
    const spelt = re2jsName(name) ?? (re2jsKnows(name) ? `^^${name}` : undefined);
    if (spelt !== undefined && spelt !== name) {
      out += p.slice(copied, nameStart);
      edits.push({ from: nameStart, to: out.length, oldLength: name.length, newLength: spelt.length });
      out += spelt;
      copied = end;
    }
    i = end;
  }
  if (edits.length === 0) return undefined;
  return { pattern: out + p.slice(copied), edits };
}

/** Maps an offset of the rewrite back to the source (an offset inside a replaced name maps to its end). */
function sourceOffset(r: RewrittenPattern, at: number): number {
  let delta = 0;
  for (const e of r.edits) {
    if (at < e.to) break;
    if (at < e.to + e.newLength) return e.from + e.oldLength;
    delta += e.oldLength - e.newLength;
  }
  return at + delta;
}

/**
 * Go's error text for the source pattern, given the error text re2js gave for its rewrite: the quoted
 * expression (`` …: `expr` ``) is a span of the rewrite, mapped back to the same span of the source.
 */
export function restoreErrorText(error: string, source: string, r: RewrittenPattern): string {
  const open = error.indexOf(": `");
  if (open < 0 || !error.endsWith("`")) return error;
  const quoted = error.slice(open + 3, -1);
  const at = r.pattern.indexOf(quoted);
  if (at < 0) return error;
  const from = sourceOffset(r, at);
  const to = quoted.length === 0 ? from : sourceOffset(r, at + quoted.length);
  return `${error.slice(0, open + 3)}${source.slice(from, to)}\``;
}
