/** Character classes of go-yaml's scanner (char codes; 0 stands for the end of the input). */

export function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

export function isBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}

export function isBreakZ(c: number): boolean {
  return c === 0 || isBreak(c);
}

export function isBlankZ(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0 || isBreak(c);
}

/** `[0-9A-Za-z_-]` */
export function isAlpha(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

export function hexValue(c: number): number {
  if (c <= 0x39) return c - 0x30;
  if (c <= 0x46) return c - 0x41 + 10;
  return c - 0x61 + 10;
}

/**
 * The offset of the first character go-yaml's reader refuses (`control characters are not allowed`), or -1.
 * Allowed: tab, LF, CR, printable ASCII, NEL, U+00A0–U+D7FF, U+E000–U+FFFD and the astral planes (a
 * surrogate pair; a lone surrogate is refused).
 */
export function firstControlCharacter(s: string): number {
  // a UTF-16 regular expression (much faster than a `u` one) finds candidates; pairs are let through
  const re = CONTROL_OR_SURROGATE;
  re.lastIndex = 0;
  for (;;) {
    const m = re.exec(s);
    if (m === null) return -1;
    const i = m.index;
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        re.lastIndex = i + 2;
        continue;
      }
    }
    return i;
  }
}

const CONTROL_OR_SURROGATE = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd]/g;
