/**
 * go-yaml v3 `Marshal` of a `yaml.Node` read from JSON text with its styles cleared, as gnostic's
 * `compiler.Marshal` writes vendor extensions, enums and defaults (`Any.yaml`): keys in document order,
 * indentation 4 (a sequence inside a mapping is indented too, a mapping inside a sequence continues after
 * `- `), numbers as their JSON text, strings plain unless v3's resolver would read them as another type
 * (then double-quoted) or the emitter forbids it (then single- or double-quoted, as in v2: one scalar
 * analysis in go/yaml.ts), long lines never folded (the encoder sets no line width).
 */
import { Float64, isObject, type JsonValue } from "../value/json-value.js";
import { goJsonFloat } from "./json.js";
import { goIntSyntax, Out, stringStyle, TIMESTAMP, writeScalar, YAML_STYLE_FLOAT } from "./yaml.js";

const INDENT = 4;

const V3_RESOLVE_MAP = new Set([
  "true", "True", "TRUE", "false", "False", "FALSE", "", "~", "null", "Null", "NULL",
  ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
]);

/** go-yaml v3 `resolve("", s)` gives `!!str`: the text may be written plain. */
function readsBackInV3(s: string): boolean {
  if (V3_RESOLVE_MAP.has(s)) return false;
  const c = s[0]!;
  // Only texts starting with a sign, digit, '.', or one of "yYnNtTfFoO~" are looked up (resolveTable).
  if (c === ".") return !(/^\.[0-9]/.test(s) && YAML_STYLE_FLOAT.test(s)) && !/^\.(?:inf|Inf|INF|nan|NaN|NAN)$/.test(s);
  if (!(c === "+" || c === "-" || (c >= "0" && c <= "9"))) return true;
  if (TIMESTAMP.test(s)) return false;
  const plain = s.replaceAll("_", "");
  if (goIntSyntax(plain) || YAML_STYLE_FLOAT.test(plain)) return false;
  return true;
}

function numberText(v: number | Float64): string {
  if (v instanceof Float64) return goJsonFloat(v.value);
  return Number.isInteger(v) ? String(v) : goJsonFloat(v);
}

function isEmpty(v: JsonValue): boolean {
  return (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);
}

const isBlock = (v: JsonValue): v is JsonValue[] | { [k: string]: JsonValue } => (Array.isArray(v) || isObject(v)) && !isEmpty(v);

/**
 * The indentation of a node below one at `indent` (emitterc.go's increase_indent as go-yaml v3 changed it):
 * the first node of a sequence item skips the `- `, everything else aligns to the next multiple of 4.
 */
const below = (indent: number, inSequenceItem: boolean): number => (inSequenceItem ? indent + 2 : INDENT * Math.floor((indent + INDENT) / INDENT));

/** A scalar or empty collection on the current line; a literal block's lines at `indent`. */
function writeInline(o: Out, v: JsonValue, indent: number): void {
  if (isEmpty(v)) o.put(Array.isArray(v) ? "[]" : "{}");
  else if (v === null) o.put("null");
  else if (typeof v === "boolean") o.put(String(v));
  else if (typeof v === "bigint") o.put(v.toString());
  else if (typeof v === "number" || v instanceof Float64) o.put(numberText(v));
  else if (typeof v === "string") writeScalar(o, v, stringStyle(v, false, readsBackInV3), indent, false, INDENT);
}

/** A block mapping with its keys at `indent`; the first key on the current line when `first`. */
function writeMapping(o: NodeOut, m: { [k: string]: JsonValue }, indent: number, first: boolean): void {
  const keys = Object.keys(m);
  if (o.keyOrder) keys.sort(o.keyOrder);
  keys.forEach((k, i) => {
    if (i > 0 || !first) o.indent(indent);
    const v = m[k]!;
    const child = below(indent, false);
    if (/[\n\r\u0085\u2028\u2029]/.test(k) || Buffer.byteLength(k) > 128) {
      // Not a simple key (check_simple_key): `? key`, then `:` on its own line, a collection starting after it.
      o.put("? ");
      writeScalar(o, k, stringStyle(k, false, readsBackInV3), child, false, INDENT);
      o.indent(indent);
      o.put(":");
      if (isBlock(v)) {
        o.put(" ".repeat(Math.max(1, child - o.column)));
        if (Array.isArray(v)) writeSequence(o, v, child, true);
        else writeMapping(o, v as { [k: string]: JsonValue }, child, true);
      } else {
        o.put(" ");
        writeInline(o, v, child);
      }
      return;
    }
    writeScalar(o, k, stringStyle(k, true, readsBackInV3), indent, false, INDENT);
    o.put(":");
    if (Array.isArray(v) && isBlock(v)) writeSequence(o, v, child, false);
    else if (isBlock(v)) writeMapping(o, v as { [k: string]: JsonValue }, child, false);
    else {
      o.put(" ");
      writeInline(o, v, child);
    }
  });
}

/** A block sequence with its dashes at `indent`; the first on the current line when `first`. */
function writeSequence(o: NodeOut, list: JsonValue[], indent: number, first: boolean): void {
  list.forEach((v, i) => {
    if (i > 0 || !first) o.indent(indent);
    o.put("- ");
    const child = below(indent, true);
    if (Array.isArray(v) && isBlock(v)) writeSequence(o, v, child, true);
    else if (isBlock(v)) writeMapping(o, v as { [k: string]: JsonValue }, child, true);
    else writeInline(o, v, child);
  });
}

class NodeOut extends Out {
  constructor(readonly keyOrder?: (a: string, b: string) => number) {
    super();
  }
}

/**
 * The YAML text gnostic stores for a JSON value: keys in the object's order, or sorted by `keyOrder` (the
 * order of the JSON text the node was read from, when a JavaScript object cannot hold it, as for integer keys).
 */
export function goYamlV3NodeMarshal(v: JsonValue, keyOrder?: (a: string, b: string) => number): string {
  const o = new NodeOut(keyOrder);
  if (Array.isArray(v) && isBlock(v)) writeSequence(o, v, 0, true);
  else if (isBlock(v)) writeMapping(o, v as { [k: string]: JsonValue }, 0, true);
  else writeInline(o, v, INDENT);
  return o.column === 0 && o.text.endsWith("\n") ? o.text : `${o.text}\n`;
}
