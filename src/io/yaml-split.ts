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
  // pieces are cut after their last line end: a block of whole lines is scanned, the rest (a line not ended
  // yet) carried over to the next piece, so no text is searched or copied twice, however long a line is
  let carry = "";
  /** Text of the current chunk found in earlier blocks. */
  let parts: string[] = [];
  let chunkOffset = 0;
  let chunkLine = 0;
  /** Offset of the next block, and the lines before it. */
  let offset = 0;
  let lines = 0;
  function* scan(block: string): Generator<StreamedYamlChunk> {
    const n = block.length;
    let from = 0;
    let pos = 0;
    let line = lines;
    while (pos < n) {
      let end = block.indexOf("\n", pos);
      if (end === -1) end = n;
      if (block.startsWith("---", pos)) {
        const rest = block.slice(pos + 3, end).trim();
        parts.push(block.slice(from, pos));
        const chunk: StreamedYamlChunk = { offset: chunkOffset, text: parts.length === 1 ? parts[0]! : parts.join(""), line: chunkLine };
        parts = [];
        if (rest.length > 0 && rest[0] !== "#") {
          chunk.separatorError = { message: `invalid Yaml document separator: ${rest}`, offset: offset + pos };
          yield chunk;
        } else if (chunk.text.length > 0) yield chunk;
        from = end + 1;
        chunkOffset = offset + end + 1;
        chunkLine = line + 1;
      }
      pos = end + 1;
      if (end < n) line++;
    }
    if (from < n) parts.push(block.slice(from));
    offset += n;
    lines = line;
  }
  for (const piece of pieces) {
    const nl = piece.lastIndexOf("\n");
    if (nl === -1) {
      carry += piece;
      continue;
    }
    const block = carry + piece.slice(0, nl + 1);
    carry = piece.slice(nl + 1);
    yield* scan(block);
  }
  if (carry !== "") yield* scan(carry);
  if (parts.length > 0) yield { offset: chunkOffset, text: parts.length === 1 ? parts[0]! : parts.join(""), line: chunkLine };
}
