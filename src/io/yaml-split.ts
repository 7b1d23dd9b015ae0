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
  let chunkStart = 0;
  let pos = 0;
  const n = text.length;
  while (pos < n) {
    let end = text.indexOf("\n", pos);
    if (end === -1) end = n;
    if (text.startsWith("---", pos)) {
      const rest = text.slice(pos + 3, end).trim();
      if (rest.length > 0 && rest[0] !== "#") {
        yield {
          offset: chunkStart,
          text: text.slice(chunkStart, pos),
          separatorError: { message: `invalid Yaml document separator: ${rest}`, offset: pos },
        };
      } else if (pos > chunkStart) {
        yield { offset: chunkStart, text: text.slice(chunkStart, pos) };
      }
      chunkStart = end + 1;
    }
    pos = end + 1;
  }
  if (chunkStart < n) yield { offset: chunkStart, text: text.slice(chunkStart) };
}
