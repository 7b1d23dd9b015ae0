/**
 * One YAML document → JSON exactly as sigs.k8s.io/yaml `YAMLToJSON` (go-yaml v2 `Unmarshal`, then the
 * JSON conversion) does it, with `YAMLToJSONStrict`'s duplicate-key errors alongside. Only the first
 * document of the text is read (as go-yaml's Unmarshal does); its events are returned for positions.
 */
import type { JsonValue } from "../../value/json-value.js";
import { type GoScalar, resolvePlain, resolveTagged } from "../go-yaml-resolve.js";
import { firstControlCharacter } from "./chars.js";
import { ComposeError, compose } from "./compose.js";
import { EV, Parser, type YamlEvent } from "./parser.js";
import { ToJsonError, goToJson, lastConversionCollided } from "./to-json.js";
import { YamlSyntaxError } from "./tokens.js";

export interface GoYamlDocument {
  /** The JSON value; `undefined` when the text holds no document (only comments / whitespace). */
  value?: JsonValue;
  /** Strict-decoding errors without the `yaml: unmarshal errors:` head. */
  strictErrors: string[];
  /** Offset of the value of the first duplicate key. */
  firstDuplicateOffset?: number;
  /** The fatal problem (syntax, decoding or JSON conversion) in go-yaml's / sigs.k8s.io/yaml's words. */
  problem?: { message: string; offset: number };
  /**
   * Distinct YAML keys of one mapping became the same JSON key (`1` and `"1"`): Go keeps the one its
   * random map order visits last, crdkit the one written last (Go's most likely outcome).
   */
  keyCollision?: boolean;
  /** Events of the document's root node (empty when there is none or it failed to parse). */
  events: YamlEvent[];
}

/** Events of the first document's root node; throws {@link YamlSyntaxError} / {@link ComposeError}. */
export function documentEvents(text: string): YamlEvent[] | undefined {
  const p = new Parser(text);
  p.next(); // stream start
  const start = p.next();
  if (start.type !== EV.DocumentStart) return undefined;
  const events: YamlEvent[] = [];
  const anchors = new Set<string>();
  let depth = 0;
  do {
    const e = p.next();
    events.push(e);
    if (e.anchor !== undefined) {
      if (e.type === EV.Alias) {
        if (!anchors.has(e.anchor)) throw new ComposeError(`unknown anchor '${e.anchor}' referenced`, e.start);
      } else anchors.add(e.anchor);
    }
    if (e.type === EV.SequenceStart || e.type === EV.MappingStart) depth++;
    else if (e.type === EV.SequenceEnd || e.type === EV.MappingEnd) depth--;
  } while (depth > 0);
  p.next(); // document end: go-yaml reads it, which may still find a syntax error
  return events;
}

/** Where the float encoding/json refused is written (`json: unsupported value: NaN`), else the root. */
function refusedFloatAt(events: readonly YamlEvent[], message: string): number {
  const m = /^json: unsupported value: (NaN|\+Inf|-Inf)$/.exec(message);
  if (m) {
    const want = m[1] === "NaN" ? Number.NaN : m[1] === "+Inf" ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    for (const e of events) {
      if (e.type !== EV.Scalar || e.value === undefined) continue;
      const r = e.tag === undefined ? (e.implicit ? resolvePlain(e.value) : undefined) : resolveTaggedOrUndefined(e.tag, e.value);
      if (r?.t === "float" && Object.is(r.v, want)) return e.start.index;
    }
  }
  return events[0]?.start.index ?? 0;
}

function resolveTaggedOrUndefined(tag: string, s: string): GoScalar | undefined {
  try {
    return resolveTagged(tag, s);
  } catch {
    return undefined;
  }
}

export function decodeGoYamlDocument(text: string): GoYamlDocument {
  const bad = firstControlCharacter(text);
  if (bad >= 0) return { strictErrors: [], problem: { message: "yaml: control characters are not allowed", offset: bad }, events: [] };
  let events: YamlEvent[] | undefined;
  try {
    events = documentEvents(text);
  } catch (e) {
    if (e instanceof YamlSyntaxError) return { strictErrors: [], problem: { message: e.goMessage(), offset: e.problemMark.index }, events: [] };
    if (e instanceof ComposeError) return { strictErrors: [], problem: { message: `yaml: ${e.message}`, offset: e.mark.index }, events: [] };
    throw e;
  }
  if (events === undefined) return { strictErrors: [], events: [] };
  let c: ReturnType<typeof compose> | undefined;
  try {
    c = compose(events);
    const value = goToJson(c.value);
    const r: GoYamlDocument = { value, strictErrors: c.strictErrors, events };
    if (lastConversionCollided()) r.keyCollision = true;
    if (c.firstDuplicate) r.firstDuplicateOffset = c.firstDuplicate.index;
    return r;
  } catch (e) {
    if (e instanceof ComposeError) return { strictErrors: [], problem: { message: `yaml: ${e.message}`, offset: e.mark.index }, events };
    if (e instanceof ToJsonError) {
      const r: GoYamlDocument = { strictErrors: [], problem: { message: e.message, offset: refusedFloatAt(events, e.message) }, events };
      if (lastConversionCollided()) r.keyCollision = true;
      return r;
    }
    throw e;
  }
}
