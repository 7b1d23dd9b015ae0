/**
 * The YAML parser (tokens → events) with go-yaml v2's behaviour: a state machine with an explicit state
 * stack (no recursion, so nesting depth is bounded only by the scanner's 10000 limit), implicit and
 * explicit documents, directives and tag handles, block / indentless / flow collections, empty scalars, and
 * go-yaml's parser error texts.
 */
import type { ReaderWall } from "./reader-wall.js";
import { Scanner } from "./scanner.js";
import { type Mark, STYLE, type ScalarStyle, TK, type Token, YamlSyntaxError } from "./tokens.js";

export const EV = {
  StreamStart: 1,
  StreamEnd: 2,
  DocumentStart: 3,
  DocumentEnd: 4,
  Alias: 5,
  Scalar: 6,
  SequenceStart: 7,
  SequenceEnd: 8,
  MappingStart: 9,
  MappingEnd: 10,
} as const;
export type EventType = (typeof EV)[keyof typeof EV];

export interface YamlEvent {
  type: EventType;
  start: Mark;
  end: Mark;
  anchor?: string;
  /** The resolved tag (`tag:yaml.org,2002:str`, `!x`, `!`); absent when none was written. */
  tag?: string;
  value?: string;
  style?: ScalarStyle;
  /** Scalars: plain without tag (or with the `!` tag), so that the resolver types it. */
  implicit?: boolean;
  /** Collections: written in flow style. */
  flow?: boolean;
}

const S = {
  StreamStart: 0,
  ImplicitDocumentStart: 1,
  DocumentStart: 2,
  DocumentContent: 3,
  DocumentEnd: 4,
  BlockNode: 5,
  BlockNodeOrIndentlessSequence: 6,
  FlowNode: 7,
  BlockSequenceFirstEntry: 8,
  BlockSequenceEntry: 9,
  IndentlessSequenceEntry: 10,
  BlockMappingFirstKey: 11,
  BlockMappingKey: 12,
  BlockMappingValue: 13,
  FlowSequenceFirstEntry: 14,
  FlowSequenceEntry: 15,
  FlowSequenceEntryMappingKey: 16,
  FlowSequenceEntryMappingValue: 17,
  FlowSequenceEntryMappingEnd: 18,
  FlowMappingFirstKey: 19,
  FlowMappingKey: 20,
  FlowMappingValue: 21,
  FlowMappingEmptyValue: 22,
  End: 23,
} as const;
type State = (typeof S)[keyof typeof S];

const DEFAULT_TAGS: readonly [string, string][] = [
  ["!", "!"],
  ["!!", "tag:yaml.org,2002:"],
];

export class Parser {
  private readonly scanner: Scanner;
  private state: State = S.StreamStart;
  private states: State[] = [];
  private marks: Mark[] = [];
  private tagDirectives: [string, string][] = [];
  private done = false;

  /** `reader`: where go-yaml's reader stops at a character it refuses. */
  constructor(text: string, reader?: ReaderWall) {
    this.scanner = new Scanner(text, reader);
  }

  /** The next event; throws {@link YamlSyntaxError}. After the stream end it keeps returning it. */
  next(): YamlEvent {
    if (this.done) {
      const m = { index: 0, line: 0, column: 0 };
      return event(EV.StreamEnd, m, m);
    }
    const e = this.step();
    if (e.type === EV.StreamEnd) this.done = true;
    return e;
  }

  private peek(): Token {
    return this.scanner.peek();
  }

  private skip(): void {
    this.scanner.skipToken();
  }

  private pop(): void {
    this.state = this.states.pop()!;
  }

  private error(problem: string, problemMark: Mark, context?: Mark): never {
    throw new YamlSyntaxError("parser", problem, problemMark, context);
  }

  private step(): YamlEvent {
    switch (this.state) {
      case S.StreamStart: {
        const t = this.peek();
        if (t.type !== TK.StreamStart) this.error("did not find expected <stream-start>", t.start);
        this.state = S.ImplicitDocumentStart;
        this.skip();
        return event(EV.StreamStart, t.start, t.end);
      }
      case S.ImplicitDocumentStart:
        return this.documentStart(true);
      case S.DocumentStart:
        return this.documentStart(false);
      case S.DocumentContent: {
        const t = this.peek();
        const y = t.type;
        if (y === TK.VersionDirective || y === TK.TagDirective || y === TK.DocumentStart || y === TK.DocumentEnd || y === TK.StreamEnd) {
          this.pop();
          return empty(t.start);
        }
        return this.node(true, false);
      }
      case S.DocumentEnd: {
        const t = this.peek();
        let end = t.start;
        if (t.type === TK.DocumentEnd) {
          end = t.end;
          this.skip();
        }
        this.tagDirectives = [];
        this.state = S.DocumentStart;
        return event(EV.DocumentEnd, t.start, end);
      }
      case S.BlockNode:
        return this.node(true, false);
      case S.BlockNodeOrIndentlessSequence:
        return this.node(true, true);
      case S.FlowNode:
        return this.node(false, false);
      case S.BlockSequenceFirstEntry:
      case S.BlockSequenceEntry:
        return this.blockSequenceEntry(this.state === S.BlockSequenceFirstEntry);
      case S.IndentlessSequenceEntry:
        return this.indentlessSequenceEntry();
      case S.BlockMappingFirstKey:
      case S.BlockMappingKey:
        return this.blockMappingKey(this.state === S.BlockMappingFirstKey);
      case S.BlockMappingValue:
        return this.blockMappingValue();
      case S.FlowSequenceFirstEntry:
      case S.FlowSequenceEntry:
        return this.flowSequenceEntry(this.state === S.FlowSequenceFirstEntry);
      case S.FlowSequenceEntryMappingKey: {
        const t = this.peek();
        if (t.type !== TK.Value && t.type !== TK.FlowEntry && t.type !== TK.FlowSequenceEnd) {
          this.states.push(S.FlowSequenceEntryMappingValue);
          return this.node(false, false);
        }
        const m = t.end;
        this.skip();
        this.state = S.FlowSequenceEntryMappingValue;
        return empty(m);
      }
      case S.FlowSequenceEntryMappingValue: {
        let t = this.peek();
        if (t.type === TK.Value) {
          this.skip();
          t = this.peek();
          if (t.type !== TK.FlowEntry && t.type !== TK.FlowSequenceEnd) {
            this.states.push(S.FlowSequenceEntryMappingEnd);
            return this.node(false, false);
          }
        }
        this.state = S.FlowSequenceEntryMappingEnd;
        return empty(t.start);
      }
      case S.FlowSequenceEntryMappingEnd: {
        const t = this.peek();
        this.state = S.FlowSequenceEntry;
        return event(EV.MappingEnd, t.start, t.start);
      }
      case S.FlowMappingFirstKey:
      case S.FlowMappingKey:
        return this.flowMappingKey(this.state === S.FlowMappingFirstKey);
      case S.FlowMappingValue:
      case S.FlowMappingEmptyValue: {
        let t = this.peek();
        if (this.state === S.FlowMappingEmptyValue) {
          this.state = S.FlowMappingKey;
          return empty(t.start);
        }
        if (t.type === TK.Value) {
          this.skip();
          t = this.peek();
          if (t.type !== TK.FlowEntry && t.type !== TK.FlowMappingEnd) {
            this.states.push(S.FlowMappingKey);
            return this.node(false, false);
          }
        }
        this.state = S.FlowMappingKey;
        return empty(t.start);
      }
      default: {
        const m = { index: 0, line: 0, column: 0 };
        return event(EV.StreamEnd, m, m);
      }
    }
  }

  private documentStart(implicit: boolean): YamlEvent {
    let t = this.peek();
    if (!implicit) {
      while (t.type === TK.DocumentEnd) {
        this.skip();
        t = this.peek();
      }
    }
    if (implicit && t.type !== TK.VersionDirective && t.type !== TK.TagDirective && t.type !== TK.DocumentStart && t.type !== TK.StreamEnd) {
      this.processDirectives();
      this.states.push(S.DocumentEnd);
      this.state = S.BlockNode;
      return event(EV.DocumentStart, t.start, t.end);
    }
    if (t.type !== TK.StreamEnd) {
      const start = t.start;
      this.processDirectives();
      t = this.peek();
      if (t.type !== TK.DocumentStart) this.error("did not find expected <document start>", t.start);
      this.states.push(S.DocumentEnd);
      this.state = S.DocumentContent;
      const end = t.end;
      this.skip();
      return event(EV.DocumentStart, start, end);
    }
    this.state = S.End;
    this.skip();
    return event(EV.StreamEnd, t.start, t.end);
  }

  private processDirectives(): void {
    let version = false;
    let t = this.peek();
    while (t.type === TK.VersionDirective || t.type === TK.TagDirective) {
      if (t.type === TK.VersionDirective) {
        if (version) this.error("found duplicate %YAML directive", t.start);
        if (t.major !== 1 || t.minor !== 1) this.error("found incompatible YAML document", t.start);
        version = true;
      } else {
        this.appendTagDirective(t.value!, t.suffix!, false, t.start);
      }
      this.skip();
      t = this.peek();
    }
    for (const [h, p] of DEFAULT_TAGS) this.appendTagDirective(h, p, true, t.start);
  }

  private appendTagDirective(handle: string, prefix: string, allowDuplicates: boolean, mark: Mark): void {
    for (const [h] of this.tagDirectives) {
      if (h === handle) {
        if (allowDuplicates) return;
        this.error("found duplicate %TAG directive", mark);
      }
    }
    this.tagDirectives.push([handle, prefix]);
  }

  private node(block: boolean, indentlessSequence: boolean): YamlEvent {
    let t = this.peek();
    if (t.type === TK.Alias) {
      this.pop();
      this.skip();
      return event(EV.Alias, t.start, t.end, undefined, undefined, undefined, undefined, t.value!);
    }
    let start = t.start;
    let end = t.start;
    let anchor: string | undefined;
    let tagToken: Token | undefined;
    if (t.type === TK.Anchor) {
      anchor = t.value!;
      start = t.start;
      end = t.end;
      this.skip();
      t = this.peek();
      if (t.type === TK.Tag) {
        tagToken = t;
        end = t.end;
        this.skip();
        t = this.peek();
      }
    } else if (t.type === TK.Tag) {
      tagToken = t;
      start = t.start;
      end = t.end;
      this.skip();
      t = this.peek();
      if (t.type === TK.Anchor) {
        anchor = t.value!;
        end = t.end;
        this.skip();
        t = this.peek();
      }
    }
    let tag = "";
    if (tagToken) {
      const handle = tagToken.value ?? "";
      if (handle === "") tag = tagToken.suffix ?? "";
      else {
        for (const [h, p] of this.tagDirectives) {
          if (h === handle) {
            tag = p + (tagToken.suffix ?? "");
            break;
          }
        }
        if (tag === "") this.error("found undefined tag handle", tagToken.start, start);
      }
    }
    if (indentlessSequence && t.type === TK.BlockEntry) {
      this.state = S.IndentlessSequenceEntry;
      return withProps(anchor, tag, event(EV.SequenceStart, start, t.end, undefined, undefined, undefined, false));
    }
    if (t.type === TK.Scalar) {
      this.pop();
      this.skip();
      const implicit = (tag === "" && t.style === STYLE.Plain) || tag === "!";
      return withProps(anchor, tag, event(EV.Scalar, start, t.end, t.value!, t.style!, implicit));
    }
    if (t.type === TK.FlowSequenceStart) {
      this.state = S.FlowSequenceFirstEntry;
      return withProps(anchor, tag, event(EV.SequenceStart, start, t.end, undefined, undefined, undefined, true));
    }
    if (t.type === TK.FlowMappingStart) {
      this.state = S.FlowMappingFirstKey;
      return withProps(anchor, tag, event(EV.MappingStart, start, t.end, undefined, undefined, undefined, true));
    }
    if (block && t.type === TK.BlockSequenceStart) {
      this.state = S.BlockSequenceFirstEntry;
      return withProps(anchor, tag, event(EV.SequenceStart, start, t.end, undefined, undefined, undefined, false));
    }
    if (block && t.type === TK.BlockMappingStart) {
      this.state = S.BlockMappingFirstKey;
      return withProps(anchor, tag, event(EV.MappingStart, start, t.end, undefined, undefined, undefined, false));
    }
    if (anchor !== undefined || tag !== "") {
      this.pop();
      return withProps(anchor, tag, event(EV.Scalar, start, end, "", STYLE.Plain, tag === ""));
    }
    this.error("did not find expected node content", t.start, start);
  }

  private blockSequenceEntry(first: boolean): YamlEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let t = this.peek();
    if (t.type === TK.BlockEntry) {
      const m = t.end;
      this.skip();
      t = this.peek();
      if (t.type !== TK.BlockEntry && t.type !== TK.BlockEnd) {
        this.states.push(S.BlockSequenceEntry);
        return this.node(true, false);
      }
      this.state = S.BlockSequenceEntry;
      return empty(m);
    }
    if (t.type === TK.BlockEnd) {
      this.pop();
      this.marks.pop();
      this.skip();
      return event(EV.SequenceEnd, t.start, t.end);
    }
    this.error("did not find expected '-' indicator", t.start, this.marks.pop());
  }

  private indentlessSequenceEntry(): YamlEvent {
    let t = this.peek();
    if (t.type === TK.BlockEntry) {
      const m = t.end;
      this.skip();
      t = this.peek();
      if (t.type !== TK.BlockEntry && t.type !== TK.Key && t.type !== TK.Value && t.type !== TK.BlockEnd) {
        this.states.push(S.IndentlessSequenceEntry);
        return this.node(true, false);
      }
      this.state = S.IndentlessSequenceEntry;
      return empty(m);
    }
    this.pop();
    return event(EV.SequenceEnd, t.start, t.start);
  }

  private blockMappingKey(first: boolean): YamlEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let t = this.peek();
    if (t.type === TK.Key) {
      const m = t.end;
      this.skip();
      t = this.peek();
      if (t.type !== TK.Key && t.type !== TK.Value && t.type !== TK.BlockEnd) {
        this.states.push(S.BlockMappingValue);
        return this.node(true, true);
      }
      this.state = S.BlockMappingValue;
      return empty(m);
    }
    if (t.type === TK.BlockEnd) {
      this.pop();
      this.marks.pop();
      this.skip();
      return event(EV.MappingEnd, t.start, t.end);
    }
    this.error("did not find expected key", t.start, this.marks.pop());
  }

  private blockMappingValue(): YamlEvent {
    let t = this.peek();
    if (t.type === TK.Value) {
      const m = t.end;
      this.skip();
      t = this.peek();
      if (t.type !== TK.Key && t.type !== TK.Value && t.type !== TK.BlockEnd) {
        this.states.push(S.BlockMappingKey);
        return this.node(true, true);
      }
      this.state = S.BlockMappingKey;
      return empty(m);
    }
    this.state = S.BlockMappingKey;
    return empty(t.start);
  }

  private flowSequenceEntry(first: boolean): YamlEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let t = this.peek();
    if (t.type !== TK.FlowSequenceEnd) {
      if (!first) {
        if (t.type === TK.FlowEntry) {
          this.skip();
          t = this.peek();
        } else this.error("did not find expected ',' or ']'", t.start, this.marks.pop());
      }
      if (t.type === TK.Key) {
        this.state = S.FlowSequenceEntryMappingKey;
        this.skip();
        return event(EV.MappingStart, t.start, t.end, undefined, undefined, undefined, true);
      }
      if (t.type !== TK.FlowSequenceEnd) {
        this.states.push(S.FlowSequenceEntry);
        return this.node(false, false);
      }
    }
    this.pop();
    this.marks.pop();
    this.skip();
    return event(EV.SequenceEnd, t.start, t.end);
  }

  private flowMappingKey(first: boolean): YamlEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let t = this.peek();
    if (t.type !== TK.FlowMappingEnd) {
      if (!first) {
        if (t.type === TK.FlowEntry) {
          this.skip();
          t = this.peek();
        } else this.error("did not find expected ',' or '}'", t.start, this.marks.pop());
      }
      if (t.type === TK.Key) {
        this.skip();
        t = this.peek();
        if (t.type !== TK.Value && t.type !== TK.FlowEntry && t.type !== TK.FlowMappingEnd) {
          this.states.push(S.FlowMappingValue);
          return this.node(false, false);
        }
        this.state = S.FlowMappingValue;
        return empty(t.start);
      }
      if (t.type !== TK.FlowMappingEnd) {
        this.states.push(S.FlowMappingEmptyValue);
        return this.node(false, false);
      }
    }
    this.pop();
    this.marks.pop();
    this.skip();
    return event(EV.MappingEnd, t.start, t.end);
  }
}

/** An event with every field present (one object shape for its readers). */
function event(
  type: EventType,
  start: Mark,
  end: Mark,
  value?: string,
  style?: ScalarStyle,
  implicit?: boolean,
  flow?: boolean,
  anchor?: string,
): YamlEvent {
  return { type, start, end, anchor, tag: undefined, value, style, implicit, flow };
}

function withProps(anchor: string | undefined, tag: string, e: YamlEvent): YamlEvent {
  if (anchor !== undefined) e.anchor = anchor;
  if (tag !== "") e.tag = tag;
  return e;
}

function empty(mark: Mark): YamlEvent {
  return event(EV.Scalar, mark, mark, "", STYLE.Plain, true);
}
