/**
 * Decoding a file (or stdin) into documents the way kubectl reads manifests and the API server decodes
 * each of them: a stream whose first non-blank character is `{` is read as JSON (falling back to YAML
 * when the first value is not valid JSON), anything else as YAML documents separated by `---` lines.
 * Empty and `null` documents are skipped, as kubectl does.
 */
import type { JsonValue } from "../value/json-value.js";
import { JSON_MAX_DEPTH, decodeJsonStream } from "./json-decode.js";
import { locateOffset } from "./locate.js";
import { type Position, SourceText } from "./source-text.js";
import { documentEvents } from "./goyaml/decode-document.js";
import { EV, type YamlEvent } from "./goyaml/parser.js";
import { decodeYamlDocument } from "./yaml-decode.js";
import { type StreamedYamlChunk, type YamlChunk, yamlChunks, yamlChunksOfPieces } from "./yaml-split.js";

export interface DecodedDocument {
  /** 0-based index of the document in its file (counting documents that failed to decode). */
  index: number;
  /** Offset of the document in the file text. */
  offset: number;
  /** The decoded value; absent when {@link problem} is set. */
  value?: JsonValue;
  /**
   * Strict-decoding errors the API server would raise for this document as a request body (duplicate
   * keys): `yaml: unmarshal errors:\n  line 3: key "a" already set in map` or `duplicate field "spec.a"`.
   * In Strict mode they fail the request, in Warn mode they are warnings.
   */
  strictErrors: string[];
  /** Where the first strict-decoding problem (duplicate key) is, when known. */
  strictErrorPosition?: Position;
  /** A fatal decode problem (syntax error, unsupported value, ...) with its position. */
  problem?: { message: string; position: Position };
  /** Position of a field path inside this document (`<nil>` → the document start). Computed on demand. */
  locate(path: string): Position;
}

export interface DecodeOptions {
  /** Force a format instead of sniffing it. */
  format?: "yaml" | "json";
  /**
   * Read a YAML text whole, as the API server reads a request body (sigs.k8s.io/yaml over the whole text:
   * its first document, line numbers counted from the start), instead of splitting it at `---` lines as
   * kubectl does with files.
   */
  whole?: boolean;
}

/** Decodes every document of a file. Never throws for bad input. */
export function decodeDocuments(text: string, opts: DecodeOptions = {}): DecodedDocument[] {
  const docs = decodeDocumentStream(text, opts);
  return Array.isArray(docs) ? docs : [...docs];
}

/**
 * {@link decodeDocuments}, decoding a YAML stream one document at a time as it is iterated (a document
 * can be let go before the next one is decoded). JSON streams are decoded at once.
 */
export function decodeDocumentStream(text: string, opts: DecodeOptions = {}): Iterable<DecodedDocument> {
  // a UTF-8 byte-order mark is dropped (as go-yaml and Go's JSON decoding in kubectl do); positions are
  // counted without it, as editors show them
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  const src = new SourceText(body);
  const trimmed = body.trimStart();
  const json = opts.format === "json" || (opts.format === undefined && trimmed.startsWith("{"));
  if (json) {
    const r = decodeJsonStream(body);
    if (!r.problem || r.documents.length > 1 || opts.format === "json") return jsonDocuments(body, src, r);
    const yamlDocs = [...yamlDocuments(body, src, opts.whole, bom)];
    if (yamlDocs.every((d) => !d.problem)) return yamlDocs;
    return jsonDocuments(body, src, r);
  }
  return yamlDocuments(body, src, opts.whole, bom);
}

function jsonDocuments(body: string, src: SourceText, r: ReturnType<typeof decodeJsonStream>): DecodedDocument[] {
  const out: DecodedDocument[] = [];
  r.documents.forEach((d, i) => {
    if (d.value === null) return;
    const end = r.documents[i + 1]?.offset ?? r.problem?.offset ?? body.length;
    let events: YamlEvent[] | undefined;
    out.push({
      index: i,
      offset: d.offset,
      value: d.value,
      strictErrors: d.duplicateFields,
      locate(path: string): Position {
        if (events === undefined) {
          try {
            events = documentEvents(body.slice(d.offset, end)) ?? [];
          } catch {
            events = [];
          }
        }
        if (events.length === 0) return src.position(d.offset);
        return src.position(d.offset + locateOffset(body.slice(d.offset, end), events, 0, path));
      },
    });
  });
  if (r.problem) {
    const pos = src.position(r.problem.offset);
    out.push({
      index: r.documents.length,
      offset: r.problem.offset,
      strictErrors: [],
      problem: { message: r.problem.message, position: pos },
      locate: () => pos,
    });
  }
  return out;
}

/**
 * The API server decodes the JSON that sigs.k8s.io/yaml makes of a YAML document with encoding/json's
 * 10000-level limit: a document nested deeper fails there, at the collection that opens level 10001.
 */
function tooDeepForJson(events: readonly YamlEvent[]): { message: string; offset: number } | undefined {
  let depth = 0;
  for (const e of events) {
    if (e.type === EV.MappingStart || e.type === EV.SequenceStart) {
      if (++depth > JSON_MAX_DEPTH) {
        return { message: `invalid character '${e.type === EV.MappingStart ? "{" : "["}' exceeded max depth`, offset: e.start.index };
      }
    } else if (e.type === EV.MappingEnd || e.type === EV.SequenceEnd) depth--;
  }
  return undefined;
}

function yamlDocuments(body: string, src: SourceText, whole = false, bom = false): Generator<DecodedDocument> {
  const chunks = whole ? [{ offset: 0, text: body, separatorError: undefined }] : yamlChunks(body);
  return chunkDocuments(chunks, (chunk, offset) => src.position(chunk.offset + offset), whole, bom);
}

/**
 * {@link decodeDocumentStream} of a text given in pieces (a file or a pipe read a piece at a time): a YAML
 * stream is split and decoded one document at a time, holding only the current document's text, so memory
 * does not grow with the number of documents. A JSON stream (first non-blank character `{`) is read whole.
 */
export function* decodeDocumentPieces(pieces: Iterable<string>): Generator<DecodedDocument> {
  const it = pieces[Symbol.iterator]();
  let head = "";
  for (let r = it.next(); ; r = it.next()) {
    if (r.done) return yield* decodeDocumentStream(head);
    head += r.value;
    if (head.trimStart() !== "") break;
  }
  if (head.trimStart().startsWith("{")) {
    for (let r = it.next(); !r.done; r = it.next()) head += r.value;
    return yield* decodeDocumentStream(head);
  }
  const bom = head.charCodeAt(0) === 0xfeff;
  if (bom) head = head.slice(1);
  function* all(): Generator<string> {
    yield head;
    head = "";
    for (let r = it.next(); !r.done; r = it.next()) yield r.value;
  }
  const sources = new WeakMap<YamlChunk, SourceText>();
  yield* chunkDocuments(yamlChunksOfPieces(all()), (chunk, offset) => {
    let src = sources.get(chunk);
    if (src === undefined) sources.set(chunk, (src = new SourceText(chunk.text)));
    const p = src.position(offset);
    return { line: (chunk as StreamedYamlChunk).line + p.line, column: p.column };
  }, false, bom);
}

/**
 * The documents of YAML chunks; `position` maps an offset in a chunk's text to a position in the file;
 * `whole`: the one chunk is a whole request body (no line end added); `bom`: the text began with a
 * byte-order mark, dropped before its first chunk (go-yaml's reader counts its bytes).
 */
function* chunkDocuments(
  chunks: Iterable<YamlChunk>,
  position: (chunk: YamlChunk, offset: number) => Position,
  whole = false,
  bom = false,
): Generator<DecodedDocument> {
  let index = 0;
  for (const chunk of chunks) {
    // kubectl's line reader ends every line of a document with "\n", the last one too
    const r = decodeYamlDocument(whole || chunk.text.endsWith("\n") ? chunk.text : `${chunk.text}\n`, bom && chunk.offset === 0);
    if (!r.problem && !r.shallow) {
      const deep = tooDeepForJson(r.events());
      if (deep) r.problem = deep;
    }
    if (r.problem) {
      const pos = position(chunk, r.problem.offset);
      yield { index, offset: chunk.offset, strictErrors: [], problem: { message: r.problem.message, position: pos }, locate: () => pos };
      index++;
    } else if (r.value !== undefined && r.value !== null) {
      const offsetOf = r.offsetOf;
      const d: DecodedDocument = {
        index,
        offset: chunk.offset + r.rootOffset,
        value: r.value,
        strictErrors: r.duplicateKeys.length > 0 ? [`yaml: unmarshal errors:\n  ${r.duplicateKeys.join("\n  ")}`] : [],
        locate: (path: string) => {
          // the document's root needs no events (a result's own position: most documents ask only this)
          if (path === "<nil>" || path === "") return position(chunk, r.rootOffset);
          return position(chunk, offsetOf(path));
        },
      };
      if (r.firstDuplicateOffset !== undefined) d.strictErrorPosition = position(chunk, r.firstDuplicateOffset);
      yield d;
      index++;
    }
    if (chunk.separatorError) {
      const pos = position(chunk, chunk.separatorError.offset - chunk.offset);
      yield {
        index,
        offset: chunk.separatorError.offset,
        strictErrors: [],
        problem: { message: chunk.separatorError.message, position: pos },
        locate: () => pos,
      };
      index++;
    }
  }
}
