/**
 * Go strings are bytes, not text: a string made of bytes that are not valid UTF-8 (a decoded `%FF` in a
 * request path) keeps them, and `%q` shows each such byte as `\xff` while encoding/json writes `\ufffd` for it.
 * A JavaScript string holds such a byte as a lone surrogate U+DC80..U+DCFF (U+DC00 + the byte, as Python's
 * "surrogateescape"): valid UTF-8 never decodes to a surrogate, so the mapping is unambiguous. `goQuote`
 * renders these as `\xNN`, `goJsonString` as `\ufffd` (as for every lone surrogate).
 */

const fatal = new TextDecoder("utf-8", { fatal: true });
const utf8 = new TextEncoder();

/** Go `unicode/utf8.DecodeRune`'s accepted range for the second byte of a sequence led by `b0`, or undefined (invalid lead). */
function secondByteRange(b0: number): [number, number, number] | undefined {
  // [low, high, total length]
  if (b0 >= 0xc2 && b0 <= 0xdf) return [0x80, 0xbf, 2];
  if (b0 === 0xe0) return [0xa0, 0xbf, 3];
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return [0x80, 0xbf, 3];
  if (b0 === 0xed) return [0x80, 0x9f, 3];
  if (b0 === 0xf0) return [0x90, 0xbf, 4];
  if (b0 >= 0xf1 && b0 <= 0xf3) return [0x80, 0xbf, 4];
  if (b0 === 0xf4) return [0x80, 0x8f, 4];
  return undefined;
}

/**
 * The JavaScript string of Go string `bytes`: valid UTF-8 sequences as their characters, every byte that
 * `utf8.DecodeRune` rejects (it rejects one byte at a time) as U+DC00 + the byte.
 */
export function goStringFromBytes(bytes: Uint8Array): string {
  try {
    return fatal.decode(bytes);
  } catch {
    // not valid UTF-8: byte by byte below
  }
  let out = "";
  for (let i = 0; i < bytes.length; ) {
    const b0 = bytes[i]!;
    if (b0 < 0x80) {
      out += String.fromCharCode(b0);
      i++;
      continue;
    }
    const r = secondByteRange(b0);
    let n = 0;
    if (r !== undefined && i + r[2] <= bytes.length) {
      const [lo, hi, len] = r;
      const b1 = bytes[i + 1]!;
      let ok = b1 >= lo && b1 <= hi;
      for (let k = 2; ok && k < len; k++) ok = bytes[i + k]! >= 0x80 && bytes[i + k]! <= 0xbf;
      if (ok) n = len;
    }
    if (n === 0) {
      out += String.fromCharCode(0xdc00 + b0);
      i++;
    } else {
      out += fatal.decode(bytes.subarray(i, i + n));
      i += n;
    }
  }
  return out;
}

/** Whether `cp` is a lone surrogate standing for an invalid byte (see {@link goStringFromBytes}): the byte, else -1. */
export function escapedByte(cp: number): number {
  return cp >= 0xdc80 && cp <= 0xdcff ? cp - 0xdc00 : -1;
}

const HAS_SURROGATE = /[\uD800-\uDFFF]/;

/**
 * `utf8.RuneCountInString` of the Go string `s` holds: one rune per code point, and one per escaped byte (see
 * {@link goStringFromBytes}; Go counts an invalid byte as a RuneError of width 1), as a lone surrogate is.
 */
export function goRuneCount(s: string): number {
  if (!HAS_SURROGATE.test(s)) return s.length;
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** `len(s)` of the Go string `s` holds: UTF-8 bytes, one byte for each escaped byte (see {@link goStringFromBytes}). */
export function goByteLength(s: string): number {
  let n = 0;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    n += escapedByte(cp) >= 0 ? 1 : cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return n;
}

/** The bytes of the Go string `s` holds: UTF-8, and each escaped byte as itself (see {@link goStringFromBytes}). */
export function goStringBytes(s: string): Uint8Array {
  const out: number[] = [];
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    const b = escapedByte(cp);
    if (b >= 0) out.push(b);
    else if (cp < 0x80) out.push(cp);
    else for (const x of utf8.encode(ch)) out.push(x);
  }
  return Uint8Array.from(out);
}
