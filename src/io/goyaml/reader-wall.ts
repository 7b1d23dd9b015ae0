/**
 * Where go-yaml v2's reader stops a document with a character it refuses (`control characters are not
 * allowed`). The reader does not check the whole input first: it reads the input (UTF-8) 512 bytes at a
 * time, each time the scanner needs a character beyond those decoded so far, and checks every character
 * of such a chunk as it decodes it (a character cut at the end of a read is completed by the next one). So the scanner can meet a syntax error before the chunk holding the refused
 * character is read, and that error is the answer; once the scanner needs a character of that chunk, the
 * reader's error is.
 */
import type { Mark } from "./tokens.js";

/** go-yaml's raw input buffer: the chunk the reader decodes at a time, in bytes. */
const CHUNK = 512;

export const CONTROL_CHARACTERS = "control characters are not allowed";

/** A refused character at `bad` (a UTF-16 offset of `text`), and where the scanner meets it. */
export interface ReaderWall {
  /** UTF-16 offset of the first character of the chunk that holds the refused one: reading it fails. */
  wall: number;
  /** The refused character, for the error's position. */
  bad: Mark;
}

/** UTF-8 length of the character at `i` (a lone surrogate counts as 3 bytes, as WTF-8 writes it). */
function utf8Width(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 4;
  }
  return 3;
}

/**
 * Where the scanner meets the refused character at `bad` (see the module comment): the first character of
 * the chunk that holds it. `before`: bytes of the input before `text` (a byte-order mark dropped from it).
 */
export function readerWall(text: string, bad: number, before = 0): ReaderWall {
  // each read fills the raw buffer to 512 bytes, after the bytes of a character the previous chunk ended
  // in the middle of: a chunk starts at the first character the previous one did not hold whole
  let end = CHUNK;
  let wall = 0;
  let b = before;
  for (let i = 0; ; ) {
    const w = utf8Width(text, i);
    if (b + w > end) {
      end = b + CHUNK;
      wall = i;
    }
    if (i >= bad) break;
    b += w;
    i += w === 4 ? 2 : 1;
  }
  // go-yaml's reader error has no line: only the offset is kept
  return { wall, bad: { index: bad, line: 0, column: 0 } };
}
