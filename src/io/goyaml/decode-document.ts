/**
 * One YAML document → JSON exactly as sigs.k8s.io/yaml `YAMLToJSON` (go-yaml v2 `Unmarshal`, then the
 * JSON conversion) does it, with `YAMLToJSONStrict`'s duplicate-key errors alongside. Only the first
 * document of the text is read (as go-yaml's Unmarshal does); its events are available for positions.
 * Most documents take the line path ({@link decodeSimpleBlock}) or the one-pass event path
 * ({@link decodeDirect}); the others (duplicates, aliases, merge keys,
 * errors, ...) are composed into go-yaml's value and converted as sigs.k8s.io/yaml does.
 */
import type { JsonValue } from "../../value/json-value.js";
import { type GoScalar, resolvePlain, resolveTagged } from "../go-yaml-resolve.js";
import { firstControlCharacter } from "./chars.js";
import { ComposeError, compose } from "./compose.js";
import { decodeDirect } from "./direct-json.js";
import { type ReaderWall, readerWall } from "./reader-wall.js";
import { type BlockOutline, decodeSimpleBlock, outlineSimpleBlock } from "./simple-block.js";
import { locateInOutline, locateOffset } from "../locate.js";
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
  /** Offset of the document's root node (0 when there is none). */
  rootOffset: number;
  /** Whether the value is known to nest no deeper than encoding/json's 10000 levels (else check {@link events}). */
  shallow: boolean;
  /**
   * Events of the document's root node (empty when there is none or it failed to parse), parsed again on
   * first call when the document took the one-pass path.
   */
  events(): YamlEvent[];
  /**
   * The offset of the node at a field path (`spec.containers[0].image`), or of the deepest part of it that
   * exists (../locate.ts); 0 when the document has no events.
   */
  offsetOf(path: string): number;
}

/**
 * Events of the first document's root node; throws {@link YamlSyntaxError} / {@link ComposeError}.
 * `reader`: the text holds a character go-yaml's reader refuses (see {@link readerWall}).
 */
export function documentEvents(text: string, reader?: ReaderWall): YamlEvent[] | undefined {
  const p = new Parser(text, reader);
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

/** Events kept from the full path. */
function kept(events: YamlEvent[]): () => YamlEvent[] {
  return () => events;
}

/** Events parsed again, once, when first asked for. */
function later(text: string): () => YamlEvent[] {
  let events: YamlEvent[] | undefined;
  return () => {
    if (events === undefined) {
      try {
        events = documentEvents(text) ?? [];
      } catch {
        events = [];
      }
    }
    return events;
  };
}

const NO_EVENTS = kept([]);
const NO_OFFSETS = (): number => 0;

/** {@link GoYamlDocument.offsetOf} over the document's events. */
function eventOffsets(text: string, events: () => YamlEvent[]): (path: string) => number {
  return (path) => {
    const evs = events();
    return evs.length > 0 ? locateOffset(text, evs, 0, path) : 0;
  };
}

/**
 * {@link GoYamlDocument.offsetOf} of a document the line path read: over its outline, read again by that
 * path once when first asked for (a fraction of a parse into events), else over the events.
 */
function outlineOffsets(text: string, events: () => YamlEvent[]): (path: string) => number {
  let outline: BlockOutline | undefined | null = null;
  let fallback: ((path: string) => number) | undefined;
  return (path) => {
    if (outline === null) outline = outlineSimpleBlock(text);
    if (outline !== undefined) return locateInOutline(outline, path);
    fallback ??= eventOffsets(text, events);
    return fallback(path);
  };
}

/** `bom`: a byte-order mark (dropped from `text`) came before it, which go-yaml's reader counts. */
export function decodeGoYamlDocument(text: string, bom = false): GoYamlDocument {
  const bad = firstControlCharacter(text);
  // go-yaml reports such a character when its reader gets to it, after a syntax error before it
  if (bad >= 0) return decodeComposed(text, readerWall(text, bad, bom ? 3 : 0));
  const simple = decodeSimpleBlock(text);
  const direct = simple ?? decodeDirect(text);
  if (direct !== undefined) {
    if (direct.value === undefined) return { strictErrors: [], rootOffset: 0, shallow: true, events: NO_EVENTS, offsetOf: NO_OFFSETS };
    const events = later(text);
    const offsetOf = simple !== undefined ? outlineOffsets(text, events) : eventOffsets(text, events);
    return { value: direct.value, strictErrors: [], rootOffset: direct.rootOffset, shallow: true, events, offsetOf };
  }
  return decodeComposed(text);
}

/** The full path: go-yaml's value (duplicates, aliases, merges) converted to JSON, or the problem. */
function decodeComposed(text: string, reader?: ReaderWall): GoYamlDocument {
  const failed = (message: string, offset: number, events: YamlEvent[]): GoYamlDocument => ({
    strictErrors: [],
    problem: { message, offset },
    rootOffset: events[0]?.start.index ?? 0,
    shallow: false,
    events: kept(events),
    offsetOf: eventOffsets(text, kept(events)),
  });
  let events: YamlEvent[] | undefined;
  try {
    events = documentEvents(text, reader);
  } catch (e) {
    if (e instanceof YamlSyntaxError) return failed(e.goMessage(), e.problemMark.index, []);
    if (e instanceof ComposeError) return failed(`yaml: ${e.message}`, e.mark.index, []);
    throw e;
  }
  if (events === undefined) return { strictErrors: [], rootOffset: 0, shallow: true, events: NO_EVENTS, offsetOf: NO_OFFSETS };
  try {
    const c = compose(events);
    const value = goToJson(c.value);
    const all = kept(events);
    const r: GoYamlDocument = {
      value,
      strictErrors: c.strictErrors,
      rootOffset: events[0]?.start.index ?? 0,
      shallow: false,
      events: all,
      offsetOf: eventOffsets(text, all),
    };
    if (lastConversionCollided()) r.keyCollision = true;
    if (c.firstDuplicate) r.firstDuplicateOffset = c.firstDuplicate.index;
    return r;
  } catch (e) {
    if (e instanceof ComposeError) return failed(`yaml: ${e.message}`, e.mark.index, events);
    if (e instanceof ToJsonError) {
      const r = failed(e.message, refusedFloatAt(events, e.message), events);
      if (lastConversionCollided()) r.keyCollision = true;
      return r;
    }
    throw e;
  }
}
