/**
 * Splits a YAML stream into documents the way kubectl does (apimachinery `util/yaml.YAMLReader`): a line
 * starting with `---` ends the current document; only spaces and a comment may follow the `---`, anything
 * else is the error `invalid Yaml document separator: <rest>`. Each chunk is then decoded on its own, so
 * go-yaml line numbers inside error messages are relative to the chunk, as the API server would report them
 * for that document sent as a request body.
 */
export interface YamlChunk {
  /** Offset of the chunk's first character in the whole text. */
  offset: number;
  text: string;
  /** Set when the separator line that ends this chunk is malformed. */
  separatorError?: { message: string; offset: number };
}

export function splitYamlDocuments(text: string): YamlChunk[] {
  return [...yamlChunks(text)];
}

/** {@link splitYamlDocuments} one chunk at a time. */
export function* yamlChunks(text: string): Generator<YamlChunk> {
  yield* yamlChunksOfPieces([text]);
}

/** A chunk of a YAML stream read in pieces: {@link YamlChunk} plus the number of lines before it. */
export interface StreamedYamlChunk extends YamlChunk {
  /** Lines before the chunk (0 for the first): its first line is line `line + 1`. */
  line: number;
}

/**
 * {@link yamlChunks} of a text given in pieces (as read from a file or a pipe): only the current document's
 * text is held, so a stream of many documents is split with memory bounded by its largest document.
 */
export function* yamlChunksOfPieces(pieces: Iterable<string>): Generator<StreamedYamlChunk> {
  // buf: the text from `base` on (newlines before it: `baseLines`); lines before `pos` are scanned
  // (`posLines` newlines in buf[0, pos)); the current chunk starts at `chunkStart` (`chunkLines` newlines
  // before it in buf)
  let buf = "";
  let base = 0;
  let baseLines = 0;
  let pos = 0;
  let posLines = 0;
  let chunkStart = 0;
  let chunkLines = 0;
  function* scan(final: boolean): Generator<StreamedYamlChunk> {
    const n = buf.length;
    while (pos < n) {
      let end = buf.indexOf("\n", pos);
      if (end === -1) {
        if (!final) return;
        end = n;
      }
      if (buf.startsWith("---", pos)) {
        const rest = buf.slice(pos + 3, end).trim();
        const chunk: StreamedYamlChunk = { offset: base + chunkStart, text: buf.slice(chunkStart, pos), line: baseLines + chunkLines };
        if (rest.length > 0 && rest[0] !== "#") {
          chunk.separatorError = { message: `invalid Yaml document separator: ${rest}`, offset: base + pos };
          yield chunk;
        } else if (pos > chunkStart) yield chunk;
        chunkStart = end + 1;
        chunkLines = posLines + 1;
      }
      pos = end + 1;
      if (end < n) posLines++;
    }
  }
  for (const piece of pieces) {
    if (piece === "") continue;
    buf += piece;
    yield* scan(false);
    if (chunkStart > 0) {
      // let go of the text before the current chunk
      buf = buf.slice(chunkStart);
      base += chunkStart;
      baseLines += chunkLines;
      pos -= chunkStart;
      posLines -= chunkLines;
      chunkStart = 0;
      chunkLines = 0;
    }
  }
  yield* scan(true);
  if (chunkStart < buf.length) yield { offset: base + chunkStart, text: buf.slice(chunkStart), line: baseLines + chunkLines };
}
