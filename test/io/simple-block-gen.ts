/**
 * Random YAML documents near the boundaries of the YAML reader's line path (src/io/goyaml/simple-block.ts):
 * block mappings and sequences with odd indentation (compact sequences, dedents, tabs), comments in and
 * after scalars, indicators inside plain and quoted scalars and keys, quoted and complex keys, empty
 * values, anchors, tags and merge keys, document markers, CR / CRLF line ends, BOMs, trailing spaces,
 * control characters, long lines, non-ASCII and surrogate pairs, block scalar headers, folded plain and
 * quoted scalars, escapes, flow collections, JSON documents, duplicate keys and numbers at int64 / float64
 * boundaries. Seeded: the same seed gives the same documents.
 */
import type { Rng } from "../fuzz/rng.js";

/** `n` spaces (none when `n` is negative). */
function sp(n: number): string {
  return " ".repeat(Math.max(0, n));
}

const WORDS = ["a", "b", "k", "name", "x y", "é", "日本", "😀", "a#b", "a:b", "a-b", "-a", "a - b", "http://x/y?z=1#f", "it's", 'say "hi"', "a ", "%x", "@x", "`x", "a,b", "[x", "x]", "{x}", "a?"];

/** Scalars whose go-yaml v2 type is a boundary case. */
const TYPED = [
  "yes", "No", "ON", "off", "y", "n", "true", "False", "TRUE", "tRue", "null", "Null", "~", "", "0", "-0", "+0", "00", "012", "08", "0o17", "0x1F", "0X1f", "-0x1", "0b101",
  "1_000", "1__0", "_1", "1e3", "1E3", "1e+3", "1.", ".5", "-.5", "+.5", "1.5e-3", ".inf", "-.Inf", "+.INF", ".nan", ".NaN", "1:20", "-1:30:00", "190:20:30.15",
  "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
  "9007199254740993", "1e308", "1e309", "-1e309", "4.9e-324", "1e-400", "0.1", "1.0", "100000000000000000000.0", "2002-12-14", "2001-12-14t21:59:43.10-05:00",
  "2001-12-14 21:59:43.10 -5", "2002-13-14", "0x", "0xG", "+", "-", ".", "..", "=", "<<", "!", "&", "*",
];

const SEPS = [": ", ": ", ": ", ":  ", " : ", ":\t", ":", ": \t", "\t: "];
const EOLS = ["\n", "\n", "\n", "\n", "\n", "\n", "\r\n", "\r", " \n", "  \n", "\t\n", " # c\n", "# c\n", "\t# c\n"];

/** Whether the document being made stays mostly inside the line path's shapes (fewer wild pieces). */
let tame = false;

function eol(r: Rng): string {
  return tame ? r.pick(["\n", "\n", "\n", " \n", " # c\n"]) : r.pick(EOLS);
}

function pickScalarText(r: Rng): string {
  const x = r.int(0, tame ? 7 : 9);
  if (x < 4) return r.pick(TYPED);
  if (x < 7) return r.pick(WORDS);
  if (x < 8) return `${r.pick(WORDS)} ${r.pick(WORDS)}`;
  if (x < 9) return "v".repeat(r.int(900, 1100));
  return r.pick(["a\u0085b", "a\u2028b", "\ufeffa", "a\u0000b", "a\u0007b", "a\u007fb", "a\u00a0b", "\ud83d\ude00x", "a\ud800b"]);
}

const ESC = ["\\n", "\\t", "\\\\", '\\"', "\\x41", "\\x4", "\\u00e9", "\\u00E9", "\\ud83d", "\\U0001F600", "\\U00110000", "\\/", "\\q", "\\ ", "\\0", "\\e", "\\N", "\\_", "\\L", "\\P", "\\", "\\\n"];

function quoted(r: Rng, indent: number): string {
  const dq = r.chance(0.6);
  let body = "";
  for (let k = r.int(0, 4); k > 0; k--) {
    const x = r.int(0, tame ? 7 : 9);
    if (x < 4) body += r.pick(WORDS);
    else if (x < 6 && dq) body += r.pick(ESC);
    else if (x < 7) body += dq ? "'" : "''";
    else if (x < 8) body += r.pick([" ", "  ", "# ", ": ", "- ", "#", ":"]);
    else body += r.pick(["\n", "\n\n", `\n${sp(Math.max(0, indent + r.int(-1, 3)))}`, "  \n  ", "\n---\n", "\n...\n", "\n--- ", "\n...", "\n---x", "\n\t"]);
  }
  const q = dq ? '"' : "'";
  return q + body + q;
}

function flow(r: Rng, depth: number): string {
  const seq = r.chance(0.5);
  const n = r.int(0, 3);
  const items: string[] = [];
  for (let i = 0; i < n; i++) {
    let v: string;
    const x = r.int(0, 9);
    if (x < 2 && depth < 3) v = flow(r, depth + 1);
    else if (x < 4) v = quoted(r, 0).replace(/\n/g, " ");
    else v = r.pick([...TYPED.slice(0, 40), "a b", "a:b", "a: b", "a#b", "a #b", "-1", "- a", "?a", "? a", ""]);
    if (!seq || r.chance(0.1)) v = `${r.pick(["k", '"k"', "'k'", "1", "a b", "~", "<<", "k2", "k"])}${r.pick([": ", ":", " : ", '":'])}${v}`;
    items.push(v);
  }
  const sep = r.pick([", ", ",", " , ", ",  "]);
  let body = items.join(sep);
  if (r.chance(0.05)) body += ",";
  if (r.chance(0.05)) body = body.replace(",", ",\n  ");
  const pad = r.pick(["", "", " "]);
  return seq ? `[${pad}${body}${pad}]` : `{${pad}${body}${pad}}`;
}

function blockScalar(r: Rng, indent: number): string {
  const head = r.pick(["|", ">", "|-", ">-", "|+", ">+", "|2", ">1-", "|-2", "|+1", "| # c", ">-#c", "|\t", "|  "]);
  const inner = indent + r.pick([1, 2, 2, 2, 4]);
  const lines: string[] = [];
  for (let k = r.int(0, 5); k > 0; k--) {
    const x = r.int(0, 9);
    if (x < 2) lines.push("");
    else if (x < 3) lines.push(sp(r.int(0, inner + 3)));
    else lines.push(sp(inner + r.pick([0, 0, 0, 0, 1, 2, -1])) + r.pick([...WORDS, "# not a comment", "- x", "k: v", "\tx", "x\t", "---", "..."]));
  }
  return `${head}\n${lines.join("\n")}`;
}

function value(r: Rng, indent: number, depth: number): string {
  const x = r.int(0, 19);
  const props = !tame && r.chance(0.05) ? `${r.pick(["&a ", "!!str ", "!x ", "*a", "&a", "!!int "])}` : "";
  if (x < 7) return props + pickScalarText(r);
  if (x < 10) return props + quoted(r, indent);
  if (x < 12) return props + flow(r, 0);
  if (x < 14) return props + blockScalar(r, indent);
  if (x < 15) return "";
  // a nested collection on the next lines
  const ind = indent + r.pick([0, 1, 2, 2, 2, 3, 4]);
  return `${r.pick(["", " # c", "  "])}\n${block(r, ind, depth + 1)}`.replace(/\n$/, "");
}

function key(r: Rng): string {
  const x = r.int(0, tame ? 14 : 19);
  if (x < 9) return r.pick(["a", "b", "c", "name", "k", "key with space", "é", "😀k", "a#b", "a-b", "-k", "http://x"]);
  if (x < 12) return r.pick(TYPED);
  if (x < 15) return r.pick(['"a"', "'b'", '"a: b"', "'# c'", '"x\\ty"', "''", '""', "'it''s'", '"\\u00e9"', '"a\n b"']);
  if (x < 17) return r.pick(["? a", "?", "<<", "? [a]", "[a]", "{a: b}", "&x k", "!!str 1", "*x"]);
  return "k".repeat(r.int(1020, 1030));
}

/** A block collection at `indent`. */
function block(r: Rng, indent: number, depth: number): string {
  const seq = r.chance(0.35);
  let out = "";
  const n = r.int(1, 4);
  for (let i = 0; i < n; i++) {
    let ind = indent;
    if (r.chance(tame ? 0.01 : 0.08)) ind += r.pick([-2, -1, 1, 2]);
    let pre = sp(Math.max(0, ind));
    if (!tame && r.chance(0.03)) pre = `${pre}\t`;
    if (r.chance(0.08)) out += `${sp(r.int(0, 8))}${r.pick(["# comment", "#", "#: x", "# - y"])}\n`;
    if (r.chance(tame ? 0.01 : 0.04)) out += r.pick(["\n", "  \n", "---\n", "...\n", "--- \n", "---x\n", "\t\n"]);
    if (depth > 4) {
      out += `${pre}${seq ? "- " : `${key(r)}: `}${pickScalarText(r)}${eol(r)}`;
      continue;
    }
    if (seq) {
      const dash = r.pick(["- ", "- ", "- ", "-  ", "-", "-\t"]);
      if (r.chance(0.15)) {
        // compact nested collection on the dash's line
        const sub = block(r, ind + dash.length, depth + 1).replace(/^ +/, "");
        out += `${pre}${dash}${sub}`;
        if (!sub.endsWith("\n")) out += "\n";
        continue;
      }
      out += `${pre}${dash}${value(r, ind, depth)}${eol(r)}`;
    } else {
      const k = key(r);
      const sep = tame ? ": " : r.pick(SEPS);
      if (r.chance(0.12)) {
        // compact sequence at the key's indentation (or a shallower / deeper one)
        const sub = block(r, ind + r.pick([0, 0, 0, 1, 2, -1]), depth + 1);
        out += `${pre}${k}:${r.pick(["", " ", " # c"])}\n${sub.startsWith(" ") || sub.startsWith("-") ? sub : `- ${sub}`}`;
        if (!out.endsWith("\n")) out += "\n";
        continue;
      }
      out += `${pre}${k}${sep}${value(r, ind, depth)}${eol(r)}`;
    }
  }
  return out;
}

/** A JSON-ish document (what `kubectl` gets from tools that write JSON). */
function jsonDoc(r: Rng): string {
  const v = (d: number): string => {
    const x = r.int(0, 9);
    if (x < 2 && d < 3) return `{${Array.from({ length: r.int(0, 3) }, (_, i) => `"k${i % 2}": ${v(d + 1)}`).join(r.pick([", ", ","]))}}`;
    if (x < 4 && d < 3) return `[${Array.from({ length: r.int(0, 3) }, () => v(d + 1)).join(r.pick([", ", ","]))}]`;
    return r.pick(['"s"', '"a\\u00e9"', '"\\/"', "1", "-0", "1.0", "1e400", "9223372036854775808", "true", "null", '"yes"', '"a: b"', '"\\ud83d\\ude00"']);
  };
  const body = v(0);
  return r.chance(0.3) ? body.replace(/, /g, ",\n  ") : body;
}

/** A scalar or flow collection as the whole document (markers at column 0 inside it are near). */
function rootScalar(r: Rng): string {
  const x = r.int(0, 5);
  if (x === 0) return pickScalarText(r);
  if (x === 1) {
    // a quoted scalar with a line at column 0 (a document marker there is go-yaml's error)
    const q = quoted(r, -1);
    return r.chance(0.5) ? q : `${q[0]}${r.pick(WORDS)}\n${r.pick(["---", "...", "--- x", "...x", "---x", "x", ""])}${q.slice(1)}`;
  }
  if (x === 2) return flow(r, 0);
  if (x === 3) return blockScalar(r, -1);
  // a plain scalar over several lines, its lines at column 0 or further right
  const lines = [pickScalarText(r)];
  for (let k = r.int(1, 3); k > 0; k--) lines.push(sp(r.int(0, 2)) + r.pick([...WORDS, "", "---", "...", "--- x", "...x", "# c", "- a", "k: v"]));
  return lines.join("\n");
}

/** One random document. */
export function genSimpleBlockDocument(r: Rng): string {
  tame = r.chance(0.6);
  let t: string;
  const x = r.int(0, 19);
  if (x === 0) t = jsonDoc(r);
  else if (x <= 3) t = `${rootScalar(r)}${eol(r)}`;
  else t = block(r, r.chance(0.1) ? r.int(1, 3) : 0, 0);
  if (tame) return t;
  if (r.chance(0.05)) t = `\ufeff${t}`;
  if (r.chance(0.05)) t = `${r.pick(["---\n", "--- ", "# head\n", "%YAML 1.1\n---\n", "\n\n", "   \n"])}${t}`;
  if (r.chance(0.08)) t = t.replace(/\n$/, "");
  if (r.chance(0.05)) t += r.pick(["...\n", "---\n", "--- x\n", "# tail", "\n\n", "  "]);
  if (r.chance(0.05)) t = t.replace(/\n/g, "\r\n");
  return t;
}

/** One to three small character edits of `t` (near-misses of the shapes above). */
export function editSimpleBlockDocument(r: Rng, t: string): string {
  const EDITS = [":", ": ", "-", "- ", "#", " #", "'", '"', "\t", "\n", "\n ", "\n- ", " ", "|", ">", "?", "&", "*", "!", "\\", "[", "{", ",", "\r", "é", "😀"];
  let s = t;
  for (let n = r.int(1, 3); n > 0; n--) {
    let at = r.int(0, s.length);
    if (at > 0 && /[\udc00-\udfff]/.test(s[at] ?? "")) at--; // not inside a surrogate pair (text from a file never has a lone one)
    const op = r.int(0, 2);
    if (op === 0) s = s.slice(0, at) + s.slice(at + 1);
    else s = s.slice(0, at) + r.pick(EDITS) + s.slice(at);
  }
  return s;
}

/** A plain scalar over one or more lines whose continuation lines sit at `ind` (blank and spaces-only lines between). */
function plainLinesText(r: Rng, ind: number): string {
  let t = r.pick([...WORDS.filter((w) => !/^[-?:,[\]{}#&*!|>'"%@`]/.test(w) && !w.endsWith(" ")), "1", "yes", "0x1F", "1e3", "~"]);
  for (let k = r.int(0, 3); k > 0; k--) {
    const gap = r.pick(["\n", "\n", "\n\n", `\n${sp(r.int(0, ind + 2))}\n`, " \n", "\n\n\n"]);
    t += `${gap}${sp(ind + r.int(0, 2))}${r.pick(["b", "c d", "x:y", "a#b", "- e", "'q'", "[f]", "{g}", "*h", "&i", "!j", "|k", ">l", "%m", "@n", "é", "😀", "...", "---"])}`;
  }
  return t;
}

/** A well-formed block node at `ind` below a collection at `parent` (every form the line path takes, and near misses). */
function shape(r: Rng, parent: number, ind: number, depth: number): string {
  const x = depth > 4 ? 9 : r.int(0, 11);
  const pre = sp(ind);
  if (x <= 2) {
    // a mapping; values inline, on the next lines, indentless sequences
    let out = "";
    for (let n = r.int(1, 3); n > 0; n--) {
      const k = r.pick(["a", "b", "c", "key", "'q k'", '"d: k"', "1", "é", "x y"]);
      const y = r.int(0, 9);
      if (y < 3) out += `${pre}${k}:\n${shape(r, ind, ind + r.pick([1, 2, 2, 4]), depth + 1)}`;
      else if (y < 5) out += `${pre}${k}:${r.pick(["", " # c", " "])}\n${shape(r, ind, ind, depth + 1).replace(/^( *)(?!- )/, "$1- ")}`;
      else out += `${pre}${k}: ${inlineValue(r, ind)}\n`;
    }
    return out;
  }
  if (x <= 5) {
    // a sequence; entries inline, compact collections, on the next lines
    let out = "";
    for (let n = r.int(1, 3); n > 0; n--) {
      const y = r.int(0, 9);
      if (y < 3) out += `${pre}-${shape(r, ind, ind + 2, depth + 1).slice(ind + 1)}`;
      else if (y < 4) out += `${pre}-${r.pick(["", " # c"])}\n${shape(r, ind, ind + r.pick([1, 2, 3]), depth + 1)}`;
      else out += `${pre}- ${inlineValue(r, ind)}\n`;
    }
    return out;
  }
  if (x <= 6) {
    const comment = `${sp(r.int(0, ind + 3))}# c\n`;
    return `${comment}${shape(r, parent, ind, depth + 1)}`;
  }
  return `${pre}${inlineValue(r, parent)}\n`;
}

/** A value written after `key: ` or `- ` in a collection at `parent`. */
function inlineValue(r: Rng, parent: number): string {
  const x = r.int(0, 9);
  if (x < 3) return plainLinesText(r, parent + 1);
  if (x < 4) return quoted(r, parent + 1);
  if (x < 5) return flow(r, 0);
  if (x < 6) return blockScalar(r, parent);
  if (x < 7) return `${r.pick(TYPED)}${r.pick(["", " # c", "  "])}`;
  return r.pick(WORDS.filter((w) => !/^[-?:,[\]{}#&*!|>'"%@`]/.test(w)));
}

/** A well-formed document of block collections, perhaps with one line moved or a comment or blank line put in. */
export function genLineShapeDocument(r: Rng): string {
  tame = true;
  const text = shape(r, -1, r.chance(0.1) ? 2 : 0, 0);
  if (!r.chance(0.4)) return text;
  const lines = text.split("\n");
  const k = r.int(0, Math.max(0, lines.length - 2));
  const y = r.int(0, 3);
  if (y === 0) lines[k] = ` ${lines[k]}`;
  else if (y === 1) lines[k] = lines[k]!.replace(/^ /, "");
  else if (y === 2) lines.splice(k, 0, `${sp(r.int(0, 6))}${r.pick(["# c", "", "#"])}`);
  else lines[k] = `${lines[k]}${r.pick([" # c", " ", ":", " :", " - x", " #"])}`;
  return lines.join("\n");
}
