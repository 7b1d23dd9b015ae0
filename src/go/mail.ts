/**
 * Go `net/mail.ParseAddress` acceptance (the `email` string format): RFC 5322 address with Go's
 * leniencies — addr-spec first, then `display-name <addr-spec>`, groups with exactly one address,
 * parenthetical comments, RFC 2047 encoded words (utf-8 / us-ascii / iso-8859-1 charsets).
 */
import { parseIP } from "./net.js";

class Fail extends Error {}

function isVchar(cp: number): boolean {
  return (cp >= 0x21 && cp <= 0x7e) || cp >= 0x80;
}
function isWSP(cp: number): boolean {
  return cp === 0x20 || cp === 0x09;
}
const SPECIALS = new Set("()<>[]:;@\\,\"".split("").map((c) => c.charCodeAt(0)));
function isAtext(cp: number, dot: boolean): boolean {
  if (cp === 0x2e) return dot;
  if (SPECIALS.has(cp)) return false;
  return isVchar(cp);
}
function isQtext(cp: number): boolean {
  if (cp === 0x5c || cp === 0x22) return false;
  return isVchar(cp);
}
function isDtext(cp: number): boolean {
  if (cp === 0x5b || cp === 0x5d || cp === 0x5c) return false;
  return isVchar(cp);
}

const ENCODED_WORD = /^=\?([^?]+)\?([qQbB])\?([^?]*)\?=$/;
const KNOWN_CHARSETS = new Set(["utf-8", "us-ascii", "iso-8859-1"]);

/** The encoded text decodes (base64.StdEncoding for B, mime qDecode for Q). */
function encodedTextOk(encoding: string, text: string): boolean {
  if (encoding === "b" || encoding === "B") {
    const t = text.replace(/[\r\n]/g, "");
    return t.length % 4 === 0 && /^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(t);
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x3d) {
      if (i + 2 >= text.length || !/^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) return false;
      i += 2;
    } else if (!((c >= 0x20 && c <= 0x7e) || c === 0x0a || c === 0x0d || c === 0x09)) return false;
  }
  return true;
}

class Parser {
  constructor(public s: string) {}
  empty(): boolean {
    return this.s.length === 0;
  }
  peek(): string {
    return this.s[0] ?? "";
  }
  consume(c: string): boolean {
    if (this.empty() || this.s[0] !== c) return false;
    this.s = this.s.slice(1);
    return true;
  }
  skipSpace(): void {
    let i = 0;
    while (i < this.s.length && (this.s[i] === " " || this.s[i] === "\t")) i++;
    this.s = this.s.slice(i);
  }
  skipCFWS(): boolean {
    this.skipSpace();
    while (this.consume("(")) {
      if (this.consumeComment() === null) return false;
      this.skipSpace();
    }
    return true;
  }
  consumeComment(): string | null {
    let depth = 1;
    let comment = "";
    while (!this.empty() && depth !== 0) {
      if (this.s[0] === "\\" && this.s.length > 1) this.s = this.s.slice(1);
      else if (this.s[0] === "(") depth++;
      else if (this.s[0] === ")") depth--;
      if (depth > 0) comment += this.s[0];
      this.s = this.s.slice(1);
    }
    return depth === 0 ? comment : null;
  }
  consumeAtom(dot: boolean, permissive: boolean): string {
    let i = 0;
    while (i < this.s.length) {
      const cp = this.s.codePointAt(i)!;
      if (!isAtext(cp, dot)) break;
      i += cp > 0xffff ? 2 : 1;
    }
    if (i === 0) throw new Fail("invalid string");
    const atom = this.s.slice(0, i);
    this.s = this.s.slice(i);
    if (!permissive && (atom.startsWith(".") || atom.includes("..") || atom.endsWith("."))) throw new Fail("dot");
    return atom;
  }
  consumeQuotedString(): string {
    let i = 1;
    let out = "";
    let escaped = false;
    for (;;) {
      if (i >= this.s.length) throw new Fail("unclosed quoted-string");
      const cp = this.s.codePointAt(i)!;
      const size = cp > 0xffff ? 2 : 1;
      if (escaped) {
        if (!isVchar(cp) && !isWSP(cp)) throw new Fail("bad character");
        out += String.fromCodePoint(cp);
        escaped = false;
      } else if (isQtext(cp) || isWSP(cp)) out += String.fromCodePoint(cp);
      else if (cp === 0x22) break;
      else if (cp === 0x5c) escaped = true;
      else throw new Fail("bad character");
      i += size;
    }
    this.s = this.s.slice(i + 1);
    return out;
  }
  consumeDomainLiteral(): string {
    if (!this.consume("[")) throw new Fail("missing [");
    let dtext = "";
    for (;;) {
      if (this.empty()) throw new Fail("unclosed domain-literal");
      if (this.s[0] === "]") break;
      const cp = this.s.codePointAt(0)!;
      if (!isDtext(cp)) throw new Fail("bad character in domain-literal");
      const size = cp > 0xffff ? 2 : 1;
      dtext += this.s.slice(0, size);
      this.s = this.s.slice(size);
    }
    if (!this.consume("]")) throw new Fail("unclosed domain-literal");
    if (!parseIP(dtext)) throw new Fail("invalid IP address in domain-literal");
    return `[${dtext}]`;
  }
  consumeAddrSpec(): string {
    const orig = this.s;
    try {
      this.skipSpace();
      if (this.empty()) throw new Fail("no addr-spec");
      let local: string;
      if (this.peek() === '"') {
        local = this.consumeQuotedString();
        if (local === "") throw new Fail("empty quoted-string in addr-spec");
      } else local = this.consumeAtom(true, false);
      if (!this.consume("@")) throw new Fail("missing @ in addr-spec");
      this.skipSpace();
      if (this.empty()) throw new Fail("no domain in addr-spec");
      const domain = this.peek() === "[" ? this.consumeDomainLiteral() : this.consumeAtom(true, false);
      return `${local}@${domain}`;
    } catch (e) {
      this.s = orig;
      throw e;
    }
  }
  /** Returns [decoded, isEncoded]; throws for an unknown charset. */
  decodeWord(word: string): [string, boolean] {
    // mime.WordDecoder.Decode: malformed words are not encoded words; only a charset error is fatal.
    const m = ENCODED_WORD.exec(word);
    if (!m || !encodedTextOk(m[2]!, m[3]!)) return [word, false];
    if (!KNOWN_CHARSETS.has(m[1]!.toLowerCase())) throw new Fail("unhandled charset");
    return [word, true];
  }
  consumePhrase(): string {
    const words: string[] = [];
    let err: unknown = null;
    for (;;) {
      if (words.length > 0 && !this.skipCFWS()) throw new Fail("misformatted parenthetical comment");
      this.skipSpace();
      if (this.empty()) break;
      try {
        if (this.peek() === '"') words.push(this.consumeQuotedString());
        else words.push(this.decodeWord(this.consumeAtom(true, true))[0]);
      } catch (e) {
        err = e;
        break;
      }
    }
    if (err !== null && words.length === 0) throw new Fail("missing word in phrase");
    return words.join(" ");
  }
  consumeDisplayNameComment(): void {
    if (!this.consume("(")) throw new Fail("comment does not start with (");
    const comment = this.consumeComment();
    if (comment === null) throw new Fail("misformatted parenthetical comment");
    for (const w of comment.split(/[ \t]/)) if (w !== "") this.decodeWord(w);
  }
  parseAddress(handleGroup: boolean): number {
    this.skipSpace();
    if (this.empty()) throw new Fail("no address");
    try {
      this.consumeAddrSpec();
      this.skipSpace();
      if (!this.empty() && this.peek() === "(") this.consumeDisplayNameComment();
      return 1;
    } catch (e) {
      if (!(e instanceof Fail)) throw e;
    }
    let displayName = "";
    if (this.peek() !== "<") displayName = this.consumePhrase();
    this.skipSpace();
    if (handleGroup && this.consume(":")) return this.consumeGroupList();
    if (!this.consume("<")) throw new Fail(displayName);
    this.consumeAddrSpec();
    if (!this.consume(">")) throw new Fail("unclosed angle-addr");
    return 1;
  }
  consumeGroupList(): number {
    let n = 0;
    this.skipSpace();
    if (this.consume(";")) {
      if (!this.skipCFWS()) throw new Fail("misformatted parenthetical comment");
      return 0;
    }
    for (;;) {
      this.skipSpace();
      n += this.parseAddress(false);
      if (!this.skipCFWS()) throw new Fail("misformatted parenthetical comment");
      if (this.consume(";")) {
        if (!this.skipCFWS()) throw new Fail("misformatted parenthetical comment");
        break;
      }
      if (!this.consume(",")) throw new Fail("expected comma");
    }
    return n;
  }
}

/** True when Go `mail.ParseAddress(s)` succeeds with a non-empty address. */
export function isEmail(s: string): boolean {
  const p = new Parser(s);
  try {
    const n = p.parseAddress(true);
    if (!p.skipCFWS()) return false;
    if (!p.empty()) return false;
    return n === 1;
  } catch (e) {
    if (e instanceof Fail) return false;
    throw e;
  }
}
