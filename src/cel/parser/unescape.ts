/**
 * String and bytes literal decoding (cel-go `parser/unescape.go`): raw and
 * triple-quoted forms, C-style, hex, octal and unicode escapes.
 *
 * @module
 */

const utf8 = new TextEncoder();

function validRune(v: number): boolean {
  return v >= 0 && v <= 0x10ffff && !(v >= 0xd800 && v <= 0xdfff);
}

const SIMPLE: Record<string, number> = {
  a: 7,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  "\\": 92,
  "'": 39,
  '"': 34,
  "`": 96,
  "?": 63,
};

/**
 * Decodes the text of a STRING token (or a BYTES token without its `b` prefix).
 * Returns a string (`isBytes` false), a `Uint8Array` (`isBytes` true) or an error.
 */
export function unescapeLiteral(token: string, isBytes: boolean): string | Uint8Array | { error: string } {
  let value = token.includes("\r") ? token.replace(/\r\n?/g, "\n") : token;
  let raw = false;
  if (value[0] === "r" || value[0] === "R") {
    value = value.slice(1);
    raw = true;
  }
  const n = value.length;
  if (n < 2 || value[0] !== value[n - 1] || (value[0] !== '"' && value[0] !== "'")) {
    return { error: "unable to unescape string" };
  }
  if (n >= 6 && (value.startsWith("'''") || value.startsWith('"""'))) value = value.slice(3, n - 3);
  else value = value.slice(1, n - 1);

  if (raw || !value.includes("\\")) return isBytes ? utf8.encode(value) : value;

  const bytes: number[] = [];
  let str = "";
  const pushCp = (cp: number): void => {
    if (isBytes) for (const b of utf8.encode(String.fromCodePoint(cp))) bytes.push(b);
    else str += String.fromCodePoint(cp);
  };
  let i = 0;
  while (i < value.length) {
    const ch = value.codePointAt(i) as number;
    if (ch !== 92) {
      if (isBytes) {
        if (ch >= 0xd800 && ch <= 0xdfff) bytes.push(0xef, 0xbf, 0xbd);
        else pushCp(ch);
      } else str += String.fromCodePoint(ch);
      i += ch > 0xffff ? 2 : 1;
      continue;
    }
    if (i + 1 >= value.length) return { error: "unable to unescape string, found '\\' as last character" };
    const c = value[i + 1] as string;
    i += 2;
    const simple = SIMPLE[c];
    if (simple !== undefined) {
      if (isBytes) bytes.push(simple);
      else str += String.fromCharCode(simple);
      continue;
    }
    if (c === "x" || c === "X" || c === "u" || c === "U") {
      const len = c === "x" || c === "X" ? 2 : c === "u" ? 4 : 8;
      if (isBytes && len > 2) return { error: "unable to unescape string" };
      const hex = value.slice(i, i + len);
      if (hex.length < len || !/^[0-9a-fA-F]+$/.test(hex)) return { error: "unable to unescape string" };
      i += len;
      const v = Number.parseInt(hex, 16);
      if (isBytes) {
        bytes.push(v);
        continue;
      }
      if (!validRune(v)) return { error: "invalid unicode code point" };
      str += String.fromCodePoint(v);
      continue;
    }
    if (c >= "0" && c <= "3") {
      const oct = value.slice(i, i + 2);
      if (oct.length < 2 || !/^[0-7]{2}$/.test(oct)) return { error: "unable to unescape octal sequence in string" };
      i += 2;
      const v = Number.parseInt(c + oct, 8);
      if (isBytes) bytes.push(v);
      else str += String.fromCodePoint(v);
      continue;
    }
    return { error: "unable to unescape string" };
  }
  return isBytes ? Uint8Array.from(bytes) : str;
}
