/**
 * go-yaml v2's escapes in double-quoted scalars (scannerc.go, yaml_parser_scan_flow_scalar): the character
 * after a backslash, and what it stands for; `x`, `u` and `U` take 2, 4 or 8 hex digits of a code point.
 * Read by the scanner and by the line path (simple-block.ts).
 */
export const ONE_CHAR_ESCAPES: Readonly<Record<string, string>> = {
  "0": "\0",
  a: "\x07",
  b: "\b",
  t: "\t",
  "\t": "\t",
  n: "\n",
  v: "\v",
  f: "\f",
  r: "\r",
  e: "\x1b",
  " ": " ",
  '"': '"',
  "'": "'",
  "\\": "\\",
  N: "\x85",
  _: "\xa0",
  L: "\u2028",
  P: "\u2029",
};

/** Hex digits after `\x`, `\u`, `\U`; 0 for any other character. */
export function escapeCodeLength(c: string): number {
  return c === "x" ? 2 : c === "u" ? 4 : c === "U" ? 8 : 0;
}

/** Whether a code point from an escape is one go-yaml refuses ("found invalid Unicode character escape code"). */
export function invalidEscapeCode(v: number): boolean {
  return (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff;
}
