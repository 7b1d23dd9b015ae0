/**
 * Random manifest documents for the YAML/JSON decoding fuzzer (scripts/fuzz-yaml.ts): block and flow
 * collections, compact JSON inside YAML, every scalar style, YAML 1.1 scalars (bools, octal, floats,
 * timestamps, null spellings), anchors, aliases and merge keys, duplicate keys, tags, comments, a BOM, and
 * a share of mutated (often broken) documents so that syntax errors are compared too.
 */
import type { Rng } from "./rng.js";

const WORDS = ["a", "b", "spec", "name", "image", "x", "key with space", "k8s", "é", "日本", "true", "null", "1", "0x1F"];
const PLAIN = [
  "hello", "yes", "No", "on", "OFF", "y", "n", "~", "null", "Null", "NULL", "true", "False", "0", "-0", "012", "0o17", "0x1F",
  "1_000", "+12", "1.5", "1.", ".5", "1e3", "1.0e+3", "-1.5E-3", ".inf", "-.Inf", ".nan", "1:20", "190:20:30",
  "2001-12-14t21:59:43.10-05:00", "2002-12-14", "[::]:80", "a:b", "http://x/y?z=1#f", "9223372036854775807",
  "9223372036854775808", "-9223372036854775809", "18446744073709551616", "0.1.2", "1e400", "v1.2.3", "<<", "=", "a#b",
  "fe80::1%eth0", "10.0.0.0/8", "@x", "`x", "%x", "!x", "*x", "&x", "-x", "?x", ":x", "x:",
];
const DQ_ESCAPES = ["\\n", "\\t", "\\\\", '\\"', "\\/", "\\'", "\\u00e9", "\\x41", "\\U0001F600", "\\0", "\\a", "\\e", "\\ ", "\\N", "\\_", "\\L", "\\P", "\\ud800", "\\z"];

function key(r: Rng): string {
  const w = r.pick(WORDS);
  if (/[ :#]|^(true|null|1|0x1F)$/.test(w) && r.chance(0.6)) return JSON.stringify(w);
  return w;
}

function plainScalar(r: Rng): string {
  return r.pick(PLAIN);
}

function quoted(r: Rng): string {
  if (r.chance(0.5)) {
    let s = "";
    const n = r.int(0, 4);
    for (let i = 0; i < n; i++) s += r.chance(0.4) ? r.pick(DQ_ESCAPES) : r.pick(["a", "b c", ":", "#", "[", "]", "{", "}", ",", "'", "é", "::]:"]);
    return `"${s}"`;
  }
  let s = "";
  const n = r.int(0, 4);
  for (let i = 0; i < n; i++) s += r.pick(["a", "''", "b c", ":", "#", "\\", '"', "[x]", ":,"]);
  return `'${s}'`;
}

function scalar(r: Rng): string {
  const x = r.next();
  if (x < 0.55) return plainScalar(r);
  if (x < 0.85) return quoted(r);
  if (x < 0.92) return r.pick(["!!str 12", "!!int 7", "!!float 1", "!!bool yes", "!!null ''", "!!binary aGk=", "!!int x", "!custom v", "!!str"]);
  return r.pick(["", "''", '""']);
}

/** Compact JSON (as kubectl apply bodies and many CRDs embed it). */
function json(r: Rng, depth: number): string {
  const x = r.next();
  if (depth > 2 || x < 0.4) {
    return r.pick(['"[::]:80"', '"a:]"', '"x:}"', '"y:,"', "1", "-2.5", "true", "null", '"é\\u00e9"', '"a\\"b"', '"\\/"', "1e2", '""']);
  }
  if (x < 0.7) {
    const n = r.int(0, 3);
    return `[${Array.from({ length: n }, () => json(r, depth + 1)).join(r.pick([",", ", "]))}]`;
  }
  const n = r.int(0, 3);
  const entries = Array.from({ length: n }, () => `${JSON.stringify(r.pick(WORDS))}${r.pick([":", ": "])}${json(r, depth + 1)}`);
  return `{${entries.join(r.pick([",", ", "]))}}`;
}

/** A flow collection in YAML style (plain scalars, maybe `key: value` pairs inside sequences). */
function flow(r: Rng, depth: number): string {
  if (r.chance(0.4)) return json(r, depth);
  const item = (): string => (depth < 2 && r.chance(0.25) ? flow(r, depth + 1) : scalar(r).replace(/^!!\w+ ?/, ""));
  if (r.chance(0.5)) {
    const n = r.int(0, 3);
    return `[${Array.from({ length: n }, () => (r.chance(0.15) ? `${key(r)}: ${item()}` : item())).join(", ")}${r.chance(0.1) ? "," : ""}]`;
  }
  const n = r.int(0, 3);
  return `{${Array.from({ length: n }, () => `${key(r)}: ${item()}`).join(", ")}${r.chance(0.1) ? "," : ""}}`;
}

class Doc {
  lines: string[] = [];
  anchors: string[] = [];
  constructor(readonly r: Rng) {}
}

function anchorPrefix(d: Doc): string {
  if (!d.r.chance(0.08)) return "";
  const name = `a${d.anchors.length}`;
  d.anchors.push(name);
  return `&${name} `;
}

/** Writes a value after `head` (`key:` or `-`) at indentation `ind`. */
function value(d: Doc, head: string, ind: number, depth: number): void {
  const r = d.r;
  const pad = " ".repeat(ind);
  const x = r.next();
  if (d.anchors.length > 0 && x < 0.05) {
    d.lines.push(`${pad}${head} *${r.pick(d.anchors)}`);
    return;
  }
  if (depth < 4 && x < 0.3) {
    const a = anchorPrefix(d);
    d.lines.push(`${pad}${head}${a ? ` ${a.trimEnd()}` : ""}`);
    block(d, ind + r.pick([2, 2, 4, 1]), depth + 1, r.chance(0.5));
    return;
  }
  if (x < 0.45) {
    d.lines.push(`${pad}${head} ${anchorPrefix(d)}${flow(r, 0)}`);
    return;
  }
  if (x < 0.52) {
    const ind2 = ind + 2;
    d.lines.push(`${pad}${head} ${r.pick(["|", ">", "|-", ">+", "|2", ">-"])}`);
    const n = r.int(0, 3);
    for (let i = 0; i < n; i++) d.lines.push(r.chance(0.2) ? "" : `${" ".repeat(ind2 + (r.chance(0.2) ? 1 : 0))}${r.pick(["text", "a: b", "# not a comment", "[x]", "  more"])}`);
    return;
  }
  const comment = r.chance(0.1) ? ` ${r.pick(["# c", "#c"])}` : "";
  d.lines.push(`${pad}${head} ${anchorPrefix(d)}${scalar(r)}${comment}`);
}

function block(d: Doc, ind: number, depth: number, mapping: boolean): void {
  const r = d.r;
  const n = r.int(1, 4);
  const pad = " ".repeat(ind);
  for (let i = 0; i < n; i++) {
    if (r.chance(0.05)) d.lines.push(r.chance(0.5) ? "" : `${pad}# comment`);
    if (mapping) {
      if (d.anchors.length > 0 && r.chance(0.08)) {
        d.lines.push(`${pad}<<: ${r.chance(0.7) ? `*${r.pick(d.anchors)}` : `[*${r.pick(d.anchors)}]`}`);
        continue;
      }
      const k = r.chance(0.05) && i > 0 ? d.lines[d.lines.length - 1]!.trim().split(":")[0]! : key(r);
      value(d, `${k}:`, ind, depth);
    } else {
      value(d, "-", ind, depth);
    }
  }
}

/** Small edits that often break a document: the error texts are compared too. */
function mutate(r: Rng, text: string): string {
  let t = text;
  const n = r.int(1, 2);
  for (let i = 0; i < n; i++) {
    const at = r.int(0, Math.max(0, t.length - 1));
    const op = r.int(0, 3);
    if (op === 0) t = t.slice(0, at) + t.slice(at + 1);
    else if (op === 1) t = t.slice(0, at) + r.pick([":", "[", "]", "{", "}", ",", "-", "\t", "'", '"', "#", "&", "*", "|", "\n", " ", "?", "%"]) + t.slice(at);
    else if (op === 2) t = t.slice(0, at) + r.pick(["\n  ", "\n- ", ": ", " #", "\n"]) + t.slice(at);
    else t = t.replace(/\n {2}/, "\n ");
  }
  return t;
}

/** One random document (text as a file would hold it). */
export function genYamlDocument(r: Rng): string {
  const d = new Doc(r);
  const x = r.next();
  let text: string;
  if (x < 0.15) text = json(r, 0);
  else if (x < 0.2) text = flow(r, 0);
  else {
    block(d, 0, 0, r.chance(0.85));
    text = `${d.lines.join("\n")}\n`;
  }
  if (r.chance(0.03)) text = `\ufeff${text}`;
  if (r.chance(0.05)) text = `--- \n${text}`;
  if (r.chance(0.25)) text = mutate(r, text);
  return text;
}
