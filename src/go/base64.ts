/**
 * Go's `base64.StdEncoding.DecodeString` (standard alphabet, `=` padding required, not strict): `\r` and
 * `\n` are skipped anywhere, and a failure is Go's `CorruptInputError` — the byte offset (in the UTF-8
 * input) reported as `illegal base64 data at input byte N`.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const DECODE = new Int16Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** The decoded bytes, or the offset Go's CorruptInputError names. */
export type GoBase64Result = { ok: true; bytes: Uint8Array } | { ok: false; offset: number };

const isNewline = (b: number | undefined): boolean => b === 0x0a || b === 0x0d;

/** Decodes `s` exactly as `base64.StdEncoding.DecodeString` (offsets count UTF-8 bytes). */
export function goBase64StdDecode(s: string): GoBase64Result {
  const src = new TextEncoder().encode(s);
  const out: number[] = [];
  let si = 0;
  while (si < src.length) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let trailing: number | undefined;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return { ok: true, bytes: Uint8Array.from(out) };
        return { ok: false, offset: si - j };
      }
      const b = src[si]!;
      si++;
      const v = DECODE[b]!;
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (isNewline(b)) {
        j--;
        continue;
      }
      if (b !== 0x3d /* = */) return { ok: false, offset: si - 1 };
      if (j < 2) return { ok: false, offset: si - 1 };
      if (j === 2) {
        while (si < src.length && isNewline(src[si])) si++;
        if (si === src.length) return { ok: false, offset: src.length };
        if (src[si] !== 0x3d) return { ok: false, offset: si - 1 };
        si++;
      }
      while (si < src.length && isNewline(src[si])) si++;
      if (si < src.length) trailing = si;
      dlen = j;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    for (let k = 0; k < dlen - 1; k++) out.push(bytes[k]!);
    if (trailing !== undefined) return { ok: false, offset: trailing };
  }
  return { ok: true, bytes: Uint8Array.from(out) };
}
