/**
 * Tokens, marks and syntax errors of crdkit's YAML reader, which behaves as go-yaml v2 (libyaml's design,
 * used by sigs.k8s.io/yaml and so by kubectl and the API server).
 */

/** A source position: `index` is the offset in the text, `line` and `column` are 0-based. */
export interface Mark {
  index: number;
  line: number;
  column: number;
}

export const TK = {
  StreamStart: 1,
  StreamEnd: 2,
  VersionDirective: 3,
  TagDirective: 4,
  DocumentStart: 5,
  DocumentEnd: 6,
  BlockSequenceStart: 7,
  BlockMappingStart: 8,
  BlockEnd: 9,
  FlowSequenceStart: 10,
  FlowSequenceEnd: 11,
  FlowMappingStart: 12,
  FlowMappingEnd: 13,
  BlockEntry: 14,
  FlowEntry: 15,
  Key: 16,
  Value: 17,
  Alias: 18,
  Anchor: 19,
  Tag: 20,
  Scalar: 21,
} as const;
export type TokenType = (typeof TK)[keyof typeof TK];

/** Scalar styles (as libyaml numbers them from 1). */
export const STYLE = { Plain: 1, Single: 2, Double: 3, Literal: 4, Folded: 5 } as const;
export type ScalarStyle = (typeof STYLE)[keyof typeof STYLE];

export interface Token {
  type: TokenType;
  start: Mark;
  end: Mark;
  /** Scalar text, anchor/alias name, tag handle, %TAG handle. */
  value?: string;
  /** Tag suffix; %TAG prefix. */
  suffix?: string;
  style?: ScalarStyle;
  major?: number;
  minor?: number;
}

/** A token with every field present (one object shape for the parser's reads). */
export function token(
  type: TokenType,
  start: Mark,
  end: Mark,
  value?: string,
  style?: ScalarStyle,
  suffix?: string,
  major?: number,
  minor?: number,
): Token {
  return { type, start, end, value, suffix, style, major, minor };
}

/**
 * A YAML syntax error as go-yaml reports it. `kind` decides the line go-yaml prints (`parser.fail`):
 * scanner errors print the 1-based line of the problem, parser errors the 0-based one; a problem on the
 * first line falls back to the context's 0-based line, and line 0 prints no `line N: ` at all.
 */
export class YamlSyntaxError extends Error {
  constructor(
    readonly kind: "reader" | "scanner" | "parser",
    readonly problem: string,
    readonly problemMark: Mark,
    readonly contextMark: Mark | undefined,
  ) {
    super(problem);
  }

  /** go-yaml's text: `yaml: line N: problem`. */
  goMessage(): string {
    let line = 0;
    if (this.kind !== "reader") {
      if (this.problemMark.line !== 0) line = this.problemMark.line + (this.kind === "scanner" ? 1 : 0);
      else if (this.contextMark && this.contextMark.line !== 0) line = this.contextMark.line;
    }
    return `yaml: ${line !== 0 ? `line ${line}: ` : ""}${this.problem}`;
  }
}
