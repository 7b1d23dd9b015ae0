/**
 * sigs.k8s.io/yaml `JSONToYAML` (go-yaml v2 `Unmarshal` of the JSON text, then `Marshal`), as the API
 * server's YAML serializer writes objects: keys in go-yaml's natural order, block style (sequences in
 * mappings not indented, empty collections as `{}` / `[]`), numbers typed as go-yaml reads JSON (integers
 * stay integers, other numbers are float64 printed with `%g`), strings plain when they read back as the same
 * string, else single- or double-quoted, multi-line strings as literal blocks, long lines folded past
 * column 80 (emitterc.go's best_width).
 */
import { Float64, isObject, type JsonValue } from "../value/json-value.js";
import { goJsonFloat } from "./json.js";

const BEST_WIDTH = 80;

// ---- go-yaml v2 resolve(): would this plain text read back as something other than a string?

const RESOLVE_MAP = new Set([
  "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
  "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
  "", "~", "null", "Null", "NULL",
  ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", "<<",
]);
export const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
/** go-yaml's parseTimestamp formats (`2006-1-2T15:4:5.999999999Z07:00`, `… 15:4:5.999999999`, `2006-1-2`). */
export const TIMESTAMP = /^\d{4}-\d{1,2}-\d{1,2}(?:(?:[Tt]\d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?(?:Z|[+-]\d{1,2}:\d{2}))|(?: \d{1,2}:\d{1,2}:\d{1,2}(?:\.\d+)?))?$/;

/** Go's `strconv.ParseInt(s, 0, 64)` / `ParseUint` syntax (base prefixes, octal with a leading 0). */
export function goIntSyntax(s: string): boolean {
  return /^[-+]?(?:0[xX][0-9a-fA-F]+|0[oO]?[0-7]*|0[bB][01]+|[1-9][0-9]*)$/.test(s);
}

function resolvesToString(s: string): boolean {
  if (s === "") return false;
  const c = s[0]!;
  // Only texts starting with a sign, digit, '.', or one of "yYnNtTfFoO~" can resolve to another type.
  if (!/[-+0-9.yYnNtTfFoO~]/.test(c)) return true;
  if (RESOLVE_MAP.has(s)) return false;
  if (c === ".") return Number.isNaN(Number.parseFloat(s)) || !/^\.[0-9]/.test(s) || !YAML_STYLE_FLOAT.test(s);
  if (!(c === "+" || c === "-" || (c >= "0" && c <= "9"))) return true;
  if (TIMESTAMP.test(s)) return false;
  const plain = s.replaceAll("_", "");
  if (goIntSyntax(plain) || YAML_STYLE_FLOAT.test(plain)) return false;
  if (/^-?0b[01]+$/.test(plain)) return false;
  return true;
}

// ---- emitter analysis (yaml_emitter_analyze_scalar) and style choice (stringv, select_scalar_style)

const isBreak = (c: string) => c === "\n" || c === "\r" || c === "\u0085" || c === "\u2028" || c === "\u2029";

/** emitterc's is_printable (with unicode output on): no control characters, no characters beyond the BMP. */
function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0)!;
  if (cp === 0x0a) return true;
  if (cp >= 0x20 && cp <= 0x7e) return true;
  if (cp >= 0xa0 && cp <= 0xd7ff) return true;
  if (cp >= 0xe000 && cp <= 0xfffd) return cp !== 0xfeff;
  return false;
}

interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

function analyze(value: string): Analysis {
  if (value === "") return { multiline: false, blockPlain: true, singleQuoted: true, block: false };
  const chars = [...value];
  let blockIndicators = value.startsWith("---") || value.startsWith("...");
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWhitespace = true;
  let previousSpace = false;
  let previousBreak = false;
  chars.forEach((c, i) => {
    const next = chars[i + 1];
    const followedByWhitespace = next === undefined || next === " " || next === "\t" || isBreak(next);
    if (i === 0) {
      if ("#,[]{}&*!|>'\"%@`".includes(c)) blockIndicators = true;
      else if ((c === "?" || c === ":" || c === "-") && followedByWhitespace) blockIndicators = true;
    } else if (c === ":" && followedByWhitespace) blockIndicators = true;
    else if (c === "#" && precededByWhitespace) blockIndicators = true;
    if (!isPrintable(c)) special = true;
    if (c === " ") {
      if (i === 0) leadingSpace = true;
      if (i === chars.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(c)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === chars.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = c === " " || c === "\t" || isBreak(c);
  });
  const a: Analysis = { multiline: lineBreaks, blockPlain: true, singleQuoted: true, block: true };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.blockPlain = false;
  if (trailingSpace) a.block = false;
  if (breakSpace) {
    a.blockPlain = false;
    a.singleQuoted = false;
  }
  if (spaceBreak || special) {
    a.blockPlain = false;
    a.singleQuoted = false;
    a.block = false;
  }
  if (lineBreaks || blockIndicators) a.blockPlain = false;
  return a;
}

export type Style = "plain" | "single" | "double" | "literal";

/** go-yaml v2's stringv: plain only when the text reads back as the string and is no base-60 float. */
const plainInV2 = (s: string) => resolvesToString(s) && !(/^[-+0-9]/.test(s) && s.includes(":") && BASE60_FLOAT.test(s));

/** The style go-yaml's encoder and emitter choose for a string; `readsBack` is the resolver of the go-yaml version. */
export function stringStyle(s: string, simpleKey: boolean, readsBack: (s: string) => boolean = plainInV2): Style {
  const canUsePlain = readsBack(s);
  let style: Style = s.includes("\n") ? "literal" : canUsePlain ? "plain" : "double";
  const a = analyze(s);
  if (simpleKey && a.multiline) style = "double";
  if (style === "plain" && (!a.blockPlain || (s === "" && simpleKey))) style = "single";
  if (style === "single" && !a.singleQuoted) style = "double";
  if (style === "literal" && (!a.block || simpleKey)) style = "double";
  return style;
}

// ---- writer

export class Out {
  text = "";
  column = 0;

  put(s: string): void {
    for (const c of s) {
      this.text += c;
      this.column = c === "\n" ? 0 : this.column + 1;
    }
  }

  /** emitterc's write_indent: a line break unless already at the start of a line, then `n` spaces. */
  indent(n: number): void {
    if (this.column !== 0 || !this.text.endsWith("\n")) this.put("\n");
    this.put(" ".repeat(n));
  }
}

const DOUBLE_ESCAPES: Record<string, string> = {
  "\0": "0", "\x07": "a", "\b": "b", "\t": "t", "\n": "n", "\v": "v", "\f": "f", "\r": "r", "\x1b": "e",
  '"': '"', "\\": "\\", "\u0085": "N", "\u00a0": "_", "\u2028": "L", "\u2029": "P",
};

export function writeScalar(o: Out, s: string, style: Style, indent: number, allowBreaks: boolean, bestIndent = 2): void {
  const chars = [...s];
  if (style === "plain" || style === "single") {
    const q = style === "single" ? "'" : "";
    o.put(q);
    let spaces = false;
    let breaks = false;
    chars.forEach((c, i) => {
      if (c === " ") {
        const fold = allowBreaks && !spaces && o.column > BEST_WIDTH && chars[i + 1] !== " " && (style === "plain" || (i > 0 && i < chars.length - 1));
        if (fold) o.indent(indent);
        else o.put(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === "\n") o.put("\n");
        o.put("\n");
        breaks = true;
      } else {
        if (breaks) o.put(" ".repeat(indent));
        if (c === "'" && style === "single") o.put("'");
        o.put(c);
        spaces = false;
        breaks = false;
      }
    });
    o.put(q);
    return;
  }
  if (style === "double") {
    o.put('"');
    let spaces = false;
    chars.forEach((c, i) => {
      if (!isPrintable(c) || c === "\ufeff" || isBreak(c) || c === '"' || c === "\\") {
        const esc = DOUBLE_ESCAPES[c];
        if (esc !== undefined) o.put(`\\${esc}`);
        else {
          const cp = c.codePointAt(0)!;
          const [p, w] = cp <= 0xff ? ["x", 2] : cp <= 0xffff ? ["u", 4] : ["U", 8];
          o.put(`\\${p}${cp.toString(16).toUpperCase().padStart(w, "0")}`);
        }
        spaces = false;
      } else if (c === " ") {
        if (allowBreaks && !spaces && o.column > BEST_WIDTH && i > 0 && i < chars.length - 1) {
          o.indent(indent);
          if (chars[i + 1] === " ") o.put("\\");
        } else o.put(c);
        spaces = true;
      } else {
        o.put(c);
        spaces = false;
      }
    });
    o.put('"');
    return;
  }
  // literal block
  o.put("|");
  if (chars[0] === " " || isBreak(chars[0]!)) o.put(String(bestIndent));
  const last = chars.length - 1;
  if (!isBreak(chars[last]!)) o.put("-");
  else if (last === 0 || isBreak(chars[last - 1]!)) o.put("+");
  o.put("\n");
  let breaks = true;
  for (const c of chars) {
    if (isBreak(c)) {
      o.put("\n");
      breaks = true;
    } else {
      if (breaks) o.put(" ".repeat(indent));
      o.put(c);
      breaks = false;
    }
  }
}

/** A scalar's text and style as go-yaml writes the value go-yaml read from its JSON text. */
function scalar(v: JsonValue): { text: string; style: Style } | undefined {
  if (v === null) return { text: "null", style: "plain" };
  if (typeof v === "boolean") return { text: String(v), style: "plain" };
  if (typeof v === "bigint") return { text: v.toString(), style: "plain" };
  if (typeof v === "number" || v instanceof Float64) {
    const n = typeof v === "number" ? v : v.value;
    const json = typeof v === "number" && Number.isInteger(v) ? String(v) : goJsonFloat(n);
    if (/^-?\d+$/.test(json)) return { text: json, style: "plain" };
    return { text: formatFloatG(Number(json)), style: "plain" };
  }
  if (typeof v === "string") return undefined;
  return undefined;
}

/** Go's `strconv.FormatFloat(f, 'g', -1, 64)` (`.inf`/`.nan` as go-yaml writes them). */
export function formatFloatG(f: number): string {
  if (Number.isNaN(f)) return ".nan";
  if (!Number.isFinite(f)) return f > 0 ? ".inf" : "-.inf";
  if (f === 0) return Object.is(f, -0) ? "-0" : "0";
  const [mant, expText] = f.toExponential().split("e") as [string, string];
  const exp = Number(expText);
  // The shortest form uses %e when the exponent is < -4 or >= 6 (strconv's eprec for shortest).
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
  return String(f);
}

/** go-yaml's `keyList.Less` for string keys: letters before other runes, digit runs compared as numbers. */
export function yamlKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  const isLetter = (c: string) => /\p{L}/u.test(c);
  const isDigit = (c: string | undefined) => c !== undefined && /\p{Nd}/u.test(c);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]!);
    const bl = isLetter(br[i]!);
    if (al && bl) return ar[i]! < br[i]!;
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ar[i] === "0" || br[i] === "0") {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== "0") {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + (ar[ai]!.charCodeAt(0) - 48);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + (br[bi]!.charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i]! < br[i]!;
  }
  return ar.length < br.length;
}

function isEmptyCollection(v: JsonValue): boolean {
  return (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

/** A scalar or empty collection right after `key:` or `-` (continuation lines at `indent`). */
function writeInline(o: Out, v: JsonValue, indent: number): void {
  o.put(" ");
  if (isEmptyCollection(v)) {
    o.put(Array.isArray(v) ? "[]" : "{}");
    return;
  }
  const sc = scalar(v);
  if (sc) {
    o.put(sc.text);
    return;
  }
  const str = v as string;
  writeScalar(o, str, stringStyle(str, false), indent, true);
}

const isCollection = (v: JsonValue): v is JsonValue[] | { [k: string]: JsonValue } => (Array.isArray(v) || isObject(v)) && !isEmptyCollection(v);

/** A block mapping at `indent`; the first key on the current line when `inline` (after `- `). */
function writeMapping(o: Out, m: { [k: string]: JsonValue }, indent: number, inline: boolean): void {
  const keys = Object.keys(m).sort((x, y) => (yamlKeyLess(x, y) ? -1 : yamlKeyLess(y, x) ? 1 : 0));
  keys.forEach((k, i) => {
    if (i > 0 || !inline) o.indent(indent);
    if ([...k].some(isBreak) || new TextEncoder().encode(k).length > 128) {
      // Not a simple key (check_simple_key): the `? key` / `: value` form.
      o.put("?");
      writeInline(o, k, indent + 2);
      o.indent(indent);
      o.put(":");
      const cv = m[k]!;
      // After `:` on its own line, a collection starts on that line.
      if (isCollection(cv)) {
        o.put(" ");
        if (Array.isArray(cv)) writeSequence(o, cv, indent + 2, true);
        else writeMapping(o, cv as { [k: string]: JsonValue }, indent + 2, true);
      } else writeInline(o, cv, indent + 2);
      return;
    }
    writeScalar(o, k, stringStyle(k, true), indent + 2, false);
    o.put(":");
    const v = m[k]!;
    if (Array.isArray(v) && isCollection(v)) writeSequence(o, v, indent, false);
    else if (isCollection(v)) writeMapping(o, v as { [k: string]: JsonValue }, indent + 2, false);
    else writeInline(o, v, indent + 2);
  });
}

/** A block sequence with its dashes at `indent`; the first on the current line when `inline`. */
function writeSequence(o: Out, list: JsonValue[], indent: number, inline: boolean): void {
  list.forEach((v, i) => {
    if (i > 0 || !inline) o.indent(indent);
    o.put("-");
    if (Array.isArray(v) && isCollection(v)) {
      o.put(" ");
      writeSequence(o, v, indent + 2, true);
    } else if (isCollection(v)) {
      o.put(" ");
      writeMapping(o, v as { [k: string]: JsonValue }, indent + 2, true);
    } else writeInline(o, v, indent + 2);
  });
}

/** The YAML text of a JSON value (one document). */
export function goYamlMarshal(v: JsonValue): string {
  const o = new Out();
  if (Array.isArray(v) && isCollection(v)) writeSequence(o, v, 0, true);
  else if (isCollection(v)) writeMapping(o, v as { [k: string]: JsonValue }, 0, true);
  else {
    writeInline(o, v, 0);
    o.text = o.text.slice(1);
  }
  // The document ends on a line break (a literal block may already have written it).
  return o.column === 0 && o.text.endsWith("\n") ? o.text : `${o.text}\n`;
}
