/**
 * The YAML scanner (text → tokens) with go-yaml v2's behaviour: simple keys (a key is recognised when its
 * `:` arrives, on the same line and within 1024 characters), indentation tokens, flow levels, plain /
 * quoted / block scalars, anchors, tags, directives, the 10000 nesting limits and go-yaml's error texts.
 * Written after libyaml's design (as go-yaml ports it), iterative throughout.
 */
import { ONE_CHAR_ESCAPES, escapeCodeLength, invalidEscapeCode } from "./escapes.js";
import { hexValue, isAlpha, isBlank, isBlankZ, isBreak, isBreakZ, isDigit, isHex } from "./chars.js";
import { CONTROL_CHARACTERS, type ReaderWall } from "./reader-wall.js";
import { type Mark, STYLE, TK, type Token, type TokenType, YamlSyntaxError, token } from "./tokens.js";

const MAX_LEVEL = 10000;

interface SimpleKey {
  possible: boolean;
  required: boolean;
  tokenNumber: number;
  mark: Mark;
}

const CH = (s: string) => s.charCodeAt(0);
const C_HASH = CH("#");
const C_SQ = CH("'");
const C_DQ = CH('"');
const C_BSL = CH("\\");

/**
 * What ends a run of plain-scalar characters, for ASCII codes: 1 a blank, a break or the end (NUL), 2 `:`
 * (when a blank follows), 3 a flow indicator `,?[]{}` (inside flow collections).
 */
const PLAIN_STOP = new Uint8Array(128);
for (const c of [0, 0x09, 0x0a, 0x0d, 0x20]) PLAIN_STOP[c] = 1;
PLAIN_STOP[0x3a] = 2;
for (const c of ",?[]{}") PLAIN_STOP[c.charCodeAt(0)] = 3;

/** Whether a plain scalar goes on with a word at `j` after blanks (not a break, the end, a comment, `: `, a flow indicator). */
function plainGoesOn(str: string, j: number, flow: boolean): boolean {
  if (j >= str.length) return false;
  const d = str.charCodeAt(j);
  if (d < 0x80) {
    const k = PLAIN_STOP[d]!;
    if (k === 1 || d === C_HASH) return false;
    if (k === 2) {
      const e = j + 1 < str.length ? str.charCodeAt(j + 1) : 0;
      return !(e === 0x20 || e === 0x09 || isBreakOrNul(e));
    }
    return !(k === 3 && flow);
  }
  return !(d === 0x85 || d === 0x2028 || d === 0x2029);
}

/** `-?:,[]{}#&*!|>'"%@\`` */
const INDICATOR = new Uint8Array(128);
for (const c of "-?:,[]{}#&*!|>'\"%@`") INDICATOR[c.charCodeAt(0)] = 1;

function isBreakOrNul(d: number): boolean {
  return d === 0 || d === 0x0a || d === 0x0d || d === 0x85 || d === 0x2028 || d === 0x2029;
}

export class Scanner {
  private pos = 0;
  private line = 0;
  private column = 0;
  private tokens: Token[] = [];
  private head = 0;
  /** Tokens handed out so far (libyaml's tokens_parsed). */
  private parsed = 0;
  private available = false;
  private streamStartProduced = false;
  private flowLevel = 0;
  private indent = -1;
  private indents: number[] = [];
  private simpleKeyAllowed = false;
  private simpleKeys: SimpleKey[] = [];
  private keysByToken = new Map<number, number>();

  /** go-yaml skips a BOM at column 0 only when the text (after its leading BOM) starts with one too. */
  private readonly bomAtStart: boolean;
  /** The text, up to the reader's wall when there is one. */
  private readonly s: string;

  /** `reader`: the text holds a character go-yaml's reader refuses; reading at its wall fails. */
  constructor(
    text: string,
    private readonly reader?: ReaderWall,
  ) {
    const s = reader ? text.slice(0, reader.wall) : text;
    this.s = s;
    // the reader drops a leading byte-order mark
    if (s.charCodeAt(0) === 0xfeff) this.pos = 1;
    this.bomAtStart = s.charCodeAt(this.pos) === 0xfeff;
  }

  /** The next token without consuming it. */
  peek(): Token {
    if (!this.available) this.fetchMoreTokens();
    return this.tokens[this.head]!;
  }

  /** Consumes the token {@link peek} returned. */
  skipToken(): void {
    this.available = false;
    this.parsed++;
    this.head++;
    if (this.head > 256 && this.head * 2 > this.tokens.length) {
      this.tokens = this.tokens.slice(this.head);
      this.head = 0;
    }
  }

  // ---- characters ----

  private ch(k = 0): number {
    const i = this.pos + k;
    return i < this.s.length ? this.s.charCodeAt(i) : this.end();
  }

  /** Reads `n` characters from here as go-yaml's `cache` does: fails when they go past the reader's wall. */
  private need(n: number): void {
    const str = this.s;
    let i = this.pos;
    for (let k = 1; k < n && i < str.length; k++) {
      const c = str.charCodeAt(i);
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < str.length ? 2 : 1;
    }
    if (i >= str.length) this.end();
  }

  /** The end of the input (0), or the reader's error when the text goes on after its wall. */
  private end(): number {
    if (this.reader) throw new YamlSyntaxError("reader", CONTROL_CHARACTERS, this.reader.bad, undefined);
    return 0;
  }

  private mark(): Mark {
    return { index: this.pos, line: this.line, column: this.column };
  }

  private skip(): void {
    const c = this.s.charCodeAt(this.pos);
    this.pos += c >= 0xd800 && c <= 0xdbff && this.pos + 1 < this.s.length ? 2 : 1;
    this.column++;
  }

  private skipLine(): void {
    const c = this.ch();
    if (c === 0x0d && this.ch(1) === 0x0a) {
      this.pos += 2;
      this.column = 0;
      this.line++;
    } else if (isBreak(c)) {
      this.pos++;
      this.column = 0;
      this.line++;
    }
  }

  /** Reads one line break (normalised as go-yaml does) and returns it, or "" when none is here. */
  private readLine(): string {
    const c = this.ch();
    let out: string;
    if (c === 0x0d && this.ch(1) === 0x0a) {
      this.pos += 2;
      out = "\n";
    } else if (c === 0x0d || c === 0x0a || c === 0x85) {
      this.pos++;
      out = "\n";
    } else if (c === 0x2028 || c === 0x2029) {
      this.pos++;
      out = String.fromCharCode(c);
    } else return "";
    this.column = 0;
    this.line++;
    return out;
  }

  /** Skips to the next line break (or the end), as many {@link skip}s. */
  private skipToBreak(): void {
    const str = this.s;
    const n = str.length;
    let i = this.pos;
    let col = this.column;
    while (i < n) {
      const c = str.charCodeAt(i);
      if (c === 0x0a || c === 0x0d || c === 0 || c === 0x85 || c === 0x2028 || c === 0x2029) break;
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
      col++;
    }
    this.pos = i;
    this.column = col;
  }

  /** Skips the character here and the ones after it up to a blank, a break, the end, a quote or a backslash. */
  private skipQuotedRun(): void {
    const str = this.s;
    const n = str.length;
    let i = this.pos;
    let c = str.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
    let col = this.column + 1;
    while (i < n) {
      c = str.charCodeAt(i);
      if (c === 0x20 || c === 0x09 || c === C_SQ || c === C_DQ || c === C_BSL || isBreakOrNul(c)) break;
      i += c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
      col++;
    }
    this.pos = i;
    this.column = col;
  }

  /** Skips spaces while the column is below `limit` (-1: no limit). */
  private skipSpaces(limit: number): void {
    const str = this.s;
    let i = this.pos;
    let col = this.column;
    while ((limit < 0 || col < limit) && str.charCodeAt(i) === 0x20) {
      i++;
      col++;
    }
    this.pos = i;
    this.column = col;
  }

  /** Reads one character and returns it. */
  private read(): string {
    const start = this.pos;
    this.skip();
    return this.s.slice(start, this.pos);
  }

  private fail(context: Mark | undefined, problem: string): never {
    throw new YamlSyntaxError("scanner", problem, this.mark(), context);
  }

  // ---- token queue ----

  private insert(at: number, t: Token): void {
    const tokens = this.tokens;
    if (at < 0) {
      tokens.push(t);
      return;
    }
    // a simple key's token goes in before the tokens queued after it (few: no splice)
    const to = this.head + at;
    let i = tokens.length;
    tokens.push(t);
    while (i > to) {
      tokens[i] = tokens[i - 1]!;
      i--;
    }
    tokens[to] = t;
  }

  private fetchMoreTokens(): void {
    for (;;) {
      if (this.head !== this.tokens.length) {
        const k = this.keysByToken.get(this.parsed);
        if (k === undefined || !this.simpleKeyValid(this.simpleKeys[k]!)) break;
      }
      this.fetchNextToken();
    }
    this.available = true;
  }

  private simpleKeyValid(k: SimpleKey): boolean {
    if (!k.possible) return false;
    // go-yaml's limit is 1024 characters (runes, as its mark index counts them), not UTF-16 units: on one
    // line the column difference is that count
    if (k.mark.line < this.line || k.mark.column + 1024 < this.column) {
      if (k.required) throw new YamlSyntaxError("scanner", "could not find expected ':'", this.mark(), k.mark);
      k.possible = false;
      return false;
    }
    return true;
  }

  /** Saves a possible simple key here; `here` is {@link mark} when the caller has it already. */
  private saveSimpleKey(here?: Mark): void {
    if (this.simpleKeyAllowed) {
      const required = this.flowLevel === 0 && this.indent === this.column;
      const tokenNumber = this.parsed + (this.tokens.length - this.head);
      const mark = here ?? this.mark();
      this.removeSimpleKey();
      // the slot's previous key is no longer possible: the object is reused
      const key = this.simpleKeys[this.simpleKeys.length - 1]!;
      key.possible = true;
      key.required = required;
      key.tokenNumber = tokenNumber;
      key.mark = mark;
      this.keysByToken.set(tokenNumber, this.simpleKeys.length - 1);
    }
  }

  private removeSimpleKey(): void {
    const k = this.simpleKeys[this.simpleKeys.length - 1]!;
    if (k.possible) {
      if (k.required) throw new YamlSyntaxError("scanner", "could not find expected ':'", this.mark(), k.mark);
      k.possible = false;
      this.keysByToken.delete(k.tokenNumber);
    }
  }

  private increaseFlowLevel(): void {
    const m = this.mark();
    this.simpleKeys.push({ possible: false, required: false, tokenNumber: this.parsed + (this.tokens.length - this.head), mark: m });
    this.flowLevel++;
    if (this.flowLevel > MAX_LEVEL) throw new YamlSyntaxError("scanner", `exceeded max depth of ${MAX_LEVEL}`, m, m);
  }

  private decreaseFlowLevel(): void {
    if (this.flowLevel > 0) {
      this.flowLevel--;
      const k = this.simpleKeys.pop()!;
      this.keysByToken.delete(k.tokenNumber);
    }
  }

  private rollIndent(column: number, number: number, type: TokenType, mark: Mark): void {
    if (this.flowLevel > 0) return;
    if (this.indent < column) {
      this.indents.push(this.indent);
      this.indent = column;
      if (this.indents.length > MAX_LEVEL) {
        const m = this.simpleKeys[this.simpleKeys.length - 1]!.mark;
        throw new YamlSyntaxError("scanner", `exceeded max depth of ${MAX_LEVEL}`, this.mark(), m);
      }
      this.insert(number > -1 ? number - this.parsed : -1, token(type, mark, mark));
    }
  }

  private unrollIndent(column: number): void {
    if (this.flowLevel > 0) return;
    while (this.indent > column) {
      const m = this.mark();
      this.insert(-1, token(TK.BlockEnd, m, m));
      this.indent = this.indents.pop()!;
    }
  }

  private simpleToken(type: TokenType): void {
    const start = this.mark();
    this.skip();
    this.insert(-1, token(type, start, this.mark()));
  }

  // ---- fetching ----

  private fetchNextToken(): void {
    if (!this.streamStartProduced) {
      this.indent = -1;
      this.simpleKeys.push({ possible: false, required: false, tokenNumber: 0, mark: this.mark() });
      this.simpleKeyAllowed = true;
      this.streamStartProduced = true;
      const m = this.mark();
      this.insert(-1, token(TK.StreamStart, m, m));
      return;
    }
    this.scanToNextToken();
    this.unrollIndent(this.column);
    // go-yaml makes sure 4 characters are read here (the longest indicators, `--- ` and `... `)
    if (this.reader) this.need(4);
    const c = this.ch();
    if (c === 0) {
      this.fetchStreamEnd();
      return;
    }
    if (this.column === 0) {
      if (c === 0x25 /* % */) {
        this.fetchDirective();
        return;
      }
      if (c === 0x2d && this.ch(1) === 0x2d && this.ch(2) === 0x2d && isBlankZ(this.ch(3))) {
        this.fetchDocumentIndicator(TK.DocumentStart);
        return;
      }
      if (c === 0x2e && this.ch(1) === 0x2e && this.ch(2) === 0x2e && isBlankZ(this.ch(3))) {
        this.fetchDocumentIndicator(TK.DocumentEnd);
        return;
      }
    }
    const n = this.ch(1);
    switch (c) {
      case 0x5b /* [ */:
        this.fetchFlowCollectionStart(TK.FlowSequenceStart);
        return;
      case 0x7b /* { */:
        this.fetchFlowCollectionStart(TK.FlowMappingStart);
        return;
      case 0x5d /* ] */:
        this.fetchFlowCollectionEnd(TK.FlowSequenceEnd);
        return;
      case 0x7d /* } */:
        this.fetchFlowCollectionEnd(TK.FlowMappingEnd);
        return;
      case 0x2c /* , */:
        this.fetchFlowEntry();
        return;
      case 0x2d /* - */:
        if (isBlankZ(n)) {
          this.fetchBlockEntry();
          return;
        }
        break;
      case 0x3f /* ? */:
        if (this.flowLevel > 0 || isBlankZ(n)) {
          this.fetchKey();
          return;
        }
        break;
      case 0x3a /* : */:
        if (this.flowLevel > 0 || isBlankZ(n)) {
          this.fetchValue();
          return;
        }
        break;
      case 0x2a /* * */:
        this.fetchAnchor(TK.Alias);
        return;
      case 0x26 /* & */:
        this.fetchAnchor(TK.Anchor);
        return;
      case 0x21 /* ! */:
        this.fetchTag();
        return;
      case 0x7c /* | */:
        if (this.flowLevel === 0) {
          this.fetchBlockScalar(true);
          return;
        }
        break;
      case 0x3e /* > */:
        if (this.flowLevel === 0) {
          this.fetchBlockScalar(false);
          return;
        }
        break;
      case C_SQ:
        this.fetchFlowScalar(true);
        return;
      case C_DQ:
        this.fetchFlowScalar(false);
        return;
    }
    const indicator = c < 0x80 && INDICATOR[c] === 1;
    if (
      !(isBlankZ(c) || indicator) ||
      (c === 0x2d && !isBlank(n)) ||
      (this.flowLevel === 0 && (c === 0x3f || c === 0x3a) && !isBlankZ(n))
    ) {
      this.fetchPlainScalar();
      return;
    }
    this.fail(this.mark(), "found character that cannot start any token");
  }

  private scanToNextToken(): void {
    for (;;) {
      if (this.column === 0 && this.bomAtStart) this.skip();
      {
        const tabs = this.flowLevel > 0 || !this.simpleKeyAllowed;
        const str = this.s;
        let i = this.pos;
        for (;;) {
          const c = str.charCodeAt(i);
          if (c === 0x20 || (tabs && c === 0x09)) i++;
          else break;
        }
        this.column += i - this.pos;
        this.pos = i;
      }
      if (this.ch() === C_HASH) this.skipToBreak();
      if (isBreak(this.ch())) {
        this.skipLine();
        if (this.flowLevel === 0) this.simpleKeyAllowed = true;
      } else break;
    }
  }

  private fetchStreamEnd(): void {
    if (this.column !== 0) {
      this.column = 0;
      this.line++;
    }
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const m = this.mark();
    this.insert(-1, token(TK.StreamEnd, m, m));
  }

  private fetchDirective(): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanDirective());
  }

  private fetchDocumentIndicator(type: TokenType): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const start = this.mark();
    this.skip();
    this.skip();
    this.skip();
    this.insert(-1, token(type, start, this.mark()));
  }

  private fetchFlowCollectionStart(type: TokenType): void {
    this.saveSimpleKey();
    this.increaseFlowLevel();
    this.simpleKeyAllowed = true;
    this.simpleToken(type);
  }

  private fetchFlowCollectionEnd(type: TokenType): void {
    this.removeSimpleKey();
    this.decreaseFlowLevel();
    this.simpleKeyAllowed = false;
    this.simpleToken(type);
  }

  private fetchFlowEntry(): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.simpleToken(TK.FlowEntry);
  }

  private fetchBlockEntry(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) this.fail(this.mark(), "block sequence entries are not allowed in this context");
      this.rollIndent(this.column, -1, TK.BlockSequenceStart, this.mark());
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.simpleToken(TK.BlockEntry);
  }

  private fetchKey(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) this.fail(this.mark(), "mapping keys are not allowed in this context");
      this.rollIndent(this.column, -1, TK.BlockMappingStart, this.mark());
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = this.flowLevel === 0;
    this.simpleToken(TK.Key);
  }

  private fetchValue(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1]!;
    if (this.simpleKeyValid(key)) {
      this.insert(key.tokenNumber - this.parsed, token(TK.Key, key.mark, key.mark));
      this.rollIndent(key.mark.column, key.tokenNumber, TK.BlockMappingStart, key.mark);
      key.possible = false;
      this.keysByToken.delete(key.tokenNumber);
      this.simpleKeyAllowed = false;
    } else {
      if (this.flowLevel === 0) {
        if (!this.simpleKeyAllowed) this.fail(this.mark(), "mapping values are not allowed in this context");
        this.rollIndent(this.column, -1, TK.BlockMappingStart, this.mark());
      }
      this.simpleKeyAllowed = this.flowLevel === 0;
    }
    this.simpleToken(TK.Value);
  }

  private fetchAnchor(type: TokenType): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanAnchor(type));
  }

  private fetchTag(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanTag());
  }

  private fetchBlockScalar(literal: boolean): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.insert(-1, this.scanBlockScalar(literal));
  }

  private fetchFlowScalar(single: boolean): void {
    const start = this.mark();
    this.saveSimpleKey(start);
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanFlowScalar(single, start));
  }

  private fetchPlainScalar(): void {
    const start = this.mark();
    this.saveSimpleKey(start);
    this.simpleKeyAllowed = false;
    this.insert(-1, this.scanPlainScalar(start));
  }

  // ---- scanning ----

  private skipBlanksAndComment(): void {
    while (isBlank(this.ch())) this.skip();
    if (this.ch() === C_HASH) this.skipToBreak();
  }

  private scanDirective(): Token {
    const start = this.mark();
    this.skip();
    let name = "";
    while (isAlpha(this.ch())) name += this.read();
    if (name === "") this.fail(start, "could not find expected directive name");
    if (!isBlankZ(this.ch())) this.fail(start, "found unexpected non-alphabetical character");
    let tok: Token;
    if (name === "YAML") {
      while (isBlank(this.ch())) this.skip();
      const major = this.scanVersionNumber(start);
      if (this.ch() !== 0x2e) this.fail(start, "did not find expected digit or '.' character");
      this.skip();
      const minor = this.scanVersionNumber(start);
      tok = token(TK.VersionDirective, start, this.mark(), undefined, undefined, undefined, major, minor);
    } else if (name === "TAG") {
      while (isBlank(this.ch())) this.skip();
      const handle = this.scanTagHandle(true, start);
      if (!isBlank(this.ch())) this.fail(start, "did not find expected whitespace");
      while (isBlank(this.ch())) this.skip();
      const prefix = this.scanTagUri(true, "", start);
      if (!isBlankZ(this.ch())) this.fail(start, "did not find expected whitespace or line break");
      tok = token(TK.TagDirective, start, this.mark(), handle, undefined, prefix);
    } else {
      this.fail(start, "found unknown directive name");
    }
    this.skipBlanksAndComment();
    if (!isBreakZ(this.ch())) this.fail(start, "did not find expected comment or line break");
    if (isBreak(this.ch())) this.skipLine();
    return tok;
  }

  private scanVersionNumber(start: Mark): number {
    let value = 0;
    let length = 0;
    while (isDigit(this.ch())) {
      if (++length > 2) this.fail(start, "found extremely long version number");
      value = value * 10 + (this.ch() - 0x30);
      this.skip();
    }
    if (length === 0) this.fail(start, "did not find expected version number");
    return value;
  }

  private scanAnchor(type: TokenType): Token {
    const start = this.mark();
    this.skip();
    const from = this.pos;
    while (isAlpha(this.ch())) this.skip();
    const value = this.s.slice(from, this.pos);
    const end = this.mark();
    const c = this.ch();
    if (value === "" || !(isBlankZ(c) || "?:,]}%@`".includes(String.fromCharCode(c)))) {
      this.fail(start, "did not find expected alphabetic or numeric character");
    }
    return token(type, start, end, value);
  }

  private scanTag(): Token {
    const start = this.mark();
    let handle: string;
    let suffix: string;
    if (this.ch(1) === 0x3c /* < */) {
      this.skip();
      this.skip();
      handle = "";
      suffix = this.scanTagUri(false, "", start);
      if (this.ch() !== 0x3e) this.fail(start, "did not find the expected '>'");
      this.skip();
    } else {
      handle = this.scanTagHandle(false, start);
      if (handle.length > 1 && handle.endsWith("!")) {
        suffix = this.scanTagUri(false, "", start);
      } else {
        suffix = this.scanTagUri(false, handle, start);
        handle = "!";
        if (suffix === "") {
          suffix = handle;
          handle = "";
        }
      }
    }
    if (!isBlankZ(this.ch())) this.fail(start, "did not find expected whitespace or line break");
    return token(TK.Tag, start, this.mark(), handle, undefined, suffix);
  }

  private scanTagHandle(directive: boolean, start: Mark): string {
    if (this.ch() !== 0x21) this.fail(start, "did not find expected '!'");
    let s = this.read();
    while (isAlpha(this.ch())) s += this.read();
    if (this.ch() === 0x21) s += this.read();
    else if (directive && s !== "!") this.fail(start, "did not find expected '!'");
    return s;
  }

  private scanTagUri(_directive: boolean, head: string, start: Mark): string {
    let s = head.length > 1 ? head.slice(1) : "";
    let hasTag = head.length > 0;
    for (;;) {
      const c = this.ch();
      if (!(isAlpha(c) || ";/?:@&=+$,.!~*'()[]%".includes(String.fromCharCode(c)) && c !== 0)) break;
      if (c === 0x25) s += this.scanUriEscapes(start);
      else s += this.read();
      hasTag = true;
    }
    if (!hasTag) this.fail(start, "did not find expected tag URI");
    return s;
  }

  private scanUriEscapes(start: Mark): string {
    const bytes: number[] = [];
    let w = 1024;
    while (w > 0) {
      if (!(this.ch() === 0x25 && isHex(this.ch(1)) && isHex(this.ch(2)))) this.fail(start, "did not find URI escaped octet");
      const octet = (hexValue(this.ch(1)) << 4) + hexValue(this.ch(2));
      if (w === 1024) {
        w = (octet & 0x80) === 0 ? 1 : (octet & 0xe0) === 0xc0 ? 2 : (octet & 0xf0) === 0xe0 ? 3 : (octet & 0xf8) === 0xf0 ? 4 : 0;
        if (w === 0) this.fail(start, "found an incorrect leading UTF-8 octet");
      } else if ((octet & 0xc0) !== 0x80) this.fail(start, "found an incorrect trailing UTF-8 octet");
      bytes.push(octet);
      this.skip();
      this.skip();
      this.skip();
      w--;
    }
    return new TextDecoder().decode(new Uint8Array(bytes));
  }

  private scanBlockScalar(literal: boolean): Token {
    const start = this.mark();
    this.skip();
    let chomping = 0;
    let increment = 0;
    const chomp = () => {
      const c = this.ch();
      if (c === 0x2b || c === 0x2d) {
        chomping = c === 0x2b ? 1 : -1;
        this.skip();
        return true;
      }
      return false;
    };
    const digit = () => {
      if (isDigit(this.ch())) {
        if (this.ch() === 0x30) this.fail(start, "found an indentation indicator equal to 0");
        increment = this.ch() - 0x30;
        this.skip();
      }
    };
    if (chomp()) digit();
    else if (isDigit(this.ch())) {
      digit();
      chomp();
    }
    this.skipBlanksAndComment();
    if (!isBreakZ(this.ch())) this.fail(start, "did not find expected comment or line break");
    if (isBreak(this.ch())) this.skipLine();
    // the end mark, built once at the end
    let endPos = this.pos;
    let endLine = this.line;
    let endColumn = this.column;
    let indent = 0;
    if (increment > 0) indent = this.indent >= 0 ? this.indent + increment : increment;
    let s = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    const breaks = (): void => {
      endPos = this.pos;
      endLine = this.line;
      endColumn = this.column;
      let maxIndent = 0;
      for (;;) {
        this.skipSpaces(indent === 0 ? -1 : indent);
        if (this.column > maxIndent) maxIndent = this.column;
        if ((indent === 0 || this.column < indent) && this.ch() === 0x09) {
          this.fail(start, "found a tab character where an indentation space is expected");
        }
        if (!isBreak(this.ch())) break;
        trailingBreaks += this.readLine();
        endPos = this.pos;
        endLine = this.line;
        endColumn = this.column;
      }
      if (indent === 0) {
        indent = maxIndent;
        if (indent < this.indent + 1) indent = this.indent + 1;
        if (indent < 1) indent = 1;
      }
    };
    breaks();
    let leadingBlank = false;
    while (this.column === indent && this.ch() !== 0) {
      const trailingBlank = isBlank(this.ch());
      if (!literal && !leadingBlank && !trailingBlank && leadingBreak.startsWith("\n")) {
        if (trailingBreaks === "") s += " ";
      } else s += leadingBreak;
      leadingBreak = "";
      s += trailingBreaks;
      trailingBreaks = "";
      leadingBlank = isBlank(this.ch());
      const from = this.pos;
      this.skipToBreak();
      s += this.s.slice(from, this.pos);
      leadingBreak = this.readLine();
      breaks();
    }
    if (chomping !== -1) s += leadingBreak;
    if (chomping === 1) s += trailingBreaks;
    const end = { index: endPos, line: endLine, column: endColumn };
    return token(TK.Scalar, start, end, s, literal ? STYLE.Literal : STYLE.Folded);
  }

  private documentIndicatorHere(): boolean {
    if (this.column !== 0) return false;
    const c = this.ch();
    return (
      ((c === 0x2d && this.ch(1) === 0x2d && this.ch(2) === 0x2d) || (c === 0x2e && this.ch(1) === 0x2e && this.ch(2) === 0x2e)) &&
      isBlankZ(this.ch(3))
    );
  }

  private scanFlowScalar(single: boolean, start: Mark): Token {
    this.skip();
    let s = "";
    let leadingBreak = "";
    let trailingBreaks = "";
    let whitespaces = "";
    for (;;) {
      if (this.documentIndicatorHere()) this.fail(start, "found unexpected document indicator");
      if (this.ch() === 0) this.fail(start, "found unexpected end of stream");
      let leadingBlanks = false;
      while (!isBlankZ(this.ch())) {
        const c = this.ch();
        if (single && c === C_SQ && this.ch(1) === C_SQ) {
          s += "'";
          this.skip();
          this.skip();
        } else if (single && c === C_SQ) break;
        else if (!single && c === C_DQ) break;
        else if (!single && c === C_BSL && isBreak(this.ch(1))) {
          this.skip();
          this.skipLine();
          leadingBlanks = true;
          break;
        } else if (!single && c === C_BSL) {
          s += this.scanEscape(start);
        } else {
          const from = this.pos;
          this.skipQuotedRun();
          s += this.s.slice(from, this.pos);
        }
      }
      const c = this.ch();
      if (single ? c === C_SQ : c === C_DQ) break;
      for (;;) {
        const d = this.ch();
        if (isBlank(d)) {
          const from = this.pos;
          do this.skip();
          while (isBlank(this.ch()));
          if (!leadingBlanks) whitespaces += this.s.slice(from, this.pos);
        } else if (isBreak(d)) {
          if (!leadingBlanks) {
            whitespaces = "";
            leadingBreak = this.readLine();
            leadingBlanks = true;
          } else trailingBreaks += this.readLine();
        } else break;
      }
      if (leadingBlanks) {
        if (leadingBreak.startsWith("\n")) {
          s += trailingBreaks === "" ? " " : trailingBreaks;
        } else s += leadingBreak + trailingBreaks;
        trailingBreaks = "";
        leadingBreak = "";
      } else {
        s += whitespaces;
        whitespaces = "";
      }
    }
    this.skip();
    return token(TK.Scalar, start, this.mark(), s, single ? STYLE.Single : STYLE.Double);
  }

  private scanEscape(start: Mark): string {
    const c = String.fromCharCode(this.ch(1));
    let out = Object.hasOwn(ONE_CHAR_ESCAPES, c) ? ONE_CHAR_ESCAPES[c]! : "";
    const codeLength = escapeCodeLength(c);
    if (out === "" && codeLength === 0) this.fail(start, "found unknown escape character");
    this.skip();
    this.skip();
    if (codeLength > 0) {
      let value = 0;
      for (let k = 0; k < codeLength; k++) {
        if (!isHex(this.ch(k))) this.fail(start, "did not find expected hexdecimal number");
        value = value * 16 + hexValue(this.ch(k));
      }
      if (invalidEscapeCode(value)) this.fail(start, "found invalid Unicode character escape code");
      out = String.fromCodePoint(value);
      for (let k = 0; k < codeLength; k++) this.skip();
    }
    return out;
  }

  /**
   * Skips the character here and the plain-scalar characters after it (and blanks between words of the
   * line), up to a break, the end, blanks not followed by a word, `:` followed by a blank, a break or the
   * end, or (in flow context) a flow indicator.
   */
  private skipPlainRun(flow: boolean): void {
    const str = this.s;
    const n = str.length;
    let i = this.pos;
    let c = str.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
    let col = this.column + 1;
    while (i < n) {
      c = str.charCodeAt(i);
      if (c < 0x80) {
        const k = PLAIN_STOP[c]!;
        if (k !== 0) {
          if (k === 1) {
            // blanks inside a line: the scalar goes on when a word follows (what scanPlainScalar's loop
            // would do word by word, as blanks between words are kept as written)
            if (c !== 0x20 && c !== 0x09) break;
            let j = i + 1;
            while (str.charCodeAt(j) === 0x20 || str.charCodeAt(j) === 0x09) j++;
            if (!plainGoesOn(str, j, flow)) break;
            col += j - i;
            i = j;
            continue;
          }
          if (k === 2) {
            const d = i + 1 < n ? str.charCodeAt(i + 1) : 0;
            if (d === 0x20 || d === 0x09 || isBreakOrNul(d)) break;
          } else if (flow) break;
        }
        i++;
      } else {
        if (c === 0x85 || c === 0x2028 || c === 0x2029) break;
        i += c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
      }
      col++;
    }
    this.pos = i;
    this.column = col;
  }

  private scanPlainScalar(start: Mark): Token {
    // while the scalar stays on one line its value is the source text from start to end: built only once
    // a line is folded
    let s: string | undefined;
    let leadingBreak = "";
    let trailingBreaks = "";
    let wsFrom = -1;
    let wsTo = -1;
    let leadingBlanks = false;
    const indent = this.indent + 1;
    let endPos = this.pos;
    let endLine = this.line;
    let endColumn = this.column;
    const flow = this.flowLevel > 0;
    for (;;) {
      if (this.documentIndicatorHere()) break;
      if (this.ch() === C_HASH) break;
      while (!isBlankZ(this.ch())) {
        const c = this.ch();
        if (c === 0x3a && isBlankZ(this.ch(1))) break;
        if (flow && (c === 0x2c || c === 0x3f || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d)) break;
        if (leadingBlanks) {
          s ??= this.s.slice(start.index, endPos);
          if (leadingBreak.startsWith("\n")) s += trailingBreaks === "" ? " " : trailingBreaks;
          else s += leadingBreak + trailingBreaks;
          trailingBreaks = "";
          leadingBreak = "";
          leadingBlanks = false;
        } else if (wsFrom >= 0 && s !== undefined) s += this.s.slice(wsFrom, wsTo);
        wsFrom = -1;
        const from = this.pos;
        this.skipPlainRun(flow);
        if (s !== undefined) s += this.s.slice(from, this.pos);
        endPos = this.pos;
        endLine = this.line;
        endColumn = this.column;
      }
      const c = this.ch();
      if (!(isBlank(c) || isBreak(c))) break;
      for (;;) {
        const d = this.ch();
        if (isBlank(d)) {
          if (leadingBlanks) {
            if (d === 0x20) this.skipSpaces(-1);
            else {
              if (this.column < indent) this.fail(start, "found a tab character that violates indentation");
              this.skip();
            }
          } else {
            if (wsFrom < 0) wsFrom = this.pos;
            this.skip();
            wsTo = this.pos;
          }
        } else if (isBreak(d)) {
          if (!leadingBlanks) {
            wsFrom = -1;
            leadingBreak = this.readLine();
            leadingBlanks = true;
          } else trailingBreaks += this.readLine();
        } else break;
      }
      if (!flow && this.column < indent) break;
    }
    if (leadingBlanks) this.simpleKeyAllowed = true;
    const end = { index: endPos, line: endLine, column: endColumn };
    return token(TK.Scalar, start, end, s ?? this.s.slice(start.index, endPos), STYLE.Plain);
  }
}
