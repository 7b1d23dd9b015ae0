/**
 * YAML syntax errors in go-yaml v2's words (what kubectl and the API server print), mapped from js-yaml's
 * error kinds. libyaml and js-yaml detect errors at different points, so the mapping is by kind, measured
 * with the decoding fuzzer (scripts/fuzz-yaml.ts) against sigs.k8s.io/yaml; kinds without a dependable
 * counterpart keep js-yaml's reason (listed in the README).
 *
 * go-yaml's line rule (`parser.fail`): scanner errors print the 1-based line of the problem, parser
 * errors print the 0-based one (one less); a problem on the first line (0) prints no `line N: ` at all.
 */

type Kind = "scanner" | "parser";

/** js-yaml reason (prefix) → go-yaml problem and the libyaml stage that reports it. */
const TABLE: readonly [RegExp, string, Kind][] = [
  [/^unknown escape sequence/, "found unknown escape character", "scanner"],
  [/^expected hexadecimal character/, "did not find expected hexdecimal number", "scanner"],
  [/^a line break is expected/, "did not find expected comment or line break", "scanner"],
  [/^expected ':' after a mapping key/, "could not find expected ':'", "scanner"],
  [/^can not read a block mapping entry; a multiline key may not be an implicit key/, "could not find expected ':'", "scanner"],
  [/^expected the node content, but found/, "did not find expected node content", "parser"],
  [/^deficient indentation/, "did not find expected node content", "parser"],
  [/^bad indentation of a sequence entry/, "did not find expected '-' indicator", "parser"],
  [/^bad indentation of a mapping entry/, "did not find expected key", "parser"],
  [/^end of the stream or a document separator is expected/, "mapping values are not allowed in this context", "scanner"],
  [/^unexpected end of the stream within a (single|double) quoted scalar/, "found unexpected end of stream", "scanner"],
  [/^unexpected end of the stream within a flow collection/, "did not find expected node content", "parser"],
];

/** The innermost flow collection open at `offset` (`[` or `{`), skipping quoted scalars and comments. */
function openFlow(text: string, offset: number): string | undefined {
  const stack: string[] = [];
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c; i++) if (c === '"' && text[i] === "\\") i++;
    } else if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "[" || c === "{") stack.push(c);
    else if ((c === "]" || c === "}") && stack.length > 0) stack.pop();
  }
  return stack[stack.length - 1];
}

/**
 * The offset of the first character go-yaml's scanner refuses to start a token with (`@`, a backquote,
 * `%` past column 0, or a tab indenting a block-context line), or -1. A light scan: quoted scalars,
 * comments and block scalar bodies are skipped; token starts are line starts and what follows `- `,
 * `? `, `: ` and (in flow collections) `[`, `{`, `,`.
 */
export function badTokenStart(text: string): number {
  let flow = 0;
  let blockIndent = -1; // inside a block scalar: the indentation of its header line
  let lineStart = 0;
  let lineIndent = 0;
  let start = true; // a token may start here
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (i === lineStart) {
      let j = i;
      while (text[j] === " ") j++;
      lineIndent = j - i;
      const blank = j >= text.length || text[j] === "\n" || text[j] === "\r";
      if (blockIndent >= 0) {
        if (blank || lineIndent > blockIndent) {
          const nl = text.indexOf("\n", i);
          if (nl < 0) return -1;
          i = nl;
          lineStart = nl + 1;
          continue;
        }
        blockIndent = -1;
      }
      if (flow === 0 && text[j] === "\t") return j;
      start = true;
    }
    if (c === "\n") {
      lineStart = i + 1;
      continue;
    }
    if (c === " " || c === "\r" || c === "\t") continue;
    if (c === "#" && (i === 0 || /\s/.test(text[i - 1]!))) {
      const nl = text.indexOf("\n", i);
      if (nl < 0) return -1;
      i = nl - 1;
      continue;
    }
    if (start && (c === "@" || c === "`" || (c === "%" && i !== lineStart))) return i;
    if (c === '"' || c === "'") {
      for (i++; i < text.length && text[i] !== c; i++) {
        if (c === '"' && text[i] === "\\") i++;
        if (text[i] === "\n") lineStart = i + 1;
      }
      if (lineStart > i) lineStart = i + 1;
      start = false;
      continue;
    }
    if (c === "[" || c === "{") {
      flow++;
      start = true;
      continue;
    }
    if (c === "]" || c === "}") {
      if (flow > 0) flow--;
      start = false;
      continue;
    }
    if (c === "," && flow > 0) {
      start = true;
      continue;
    }
    if ((c === "-" || c === "?" || c === ":") && (i + 1 >= text.length || /\s/.test(text[i + 1]!))) {
      start = true;
      continue;
    }
    if ((c === "|" || c === ">") && start && flow === 0) {
      blockIndent = lineIndent;
      const nl = text.indexOf("\n", i);
      if (nl < 0) return -1;
      i = nl - 1;
      continue;
    }
    if ((c === "&" || c === "!") && start) {
      while (i + 1 < text.length && !/\s/.test(text[i + 1]!)) i++;
      continue;
    }
    start = false;
  }
  return -1;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** `yaml: [line N: ]problem` as go-yaml prints it; `line` is js-yaml's 1-based line of the problem. */
function goMessage(problem: string, kind: Kind, line: number): string {
  const n = kind === "scanner" ? line : line - 1;
  return n >= 1 && line > 1 ? `yaml: line ${n}: ${problem}` : `yaml: ${problem}`;
}

/**
 * go-yaml's text for a js-yaml syntax error with `reason` at `offset` (1-based `line`); js-yaml's own
 * reason, in go-yaml's `yaml: line N: ` frame, when the kind has no dependable counterpart.
 */
export function goYamlSyntaxError(reason: string, text: string, offset: number, line: number): string {
  // go-yaml stops at the first character that cannot start a token, often before js-yaml's error
  const bad = badTokenStart(text);
  if (bad >= 0 && bad <= offset) {
    return goMessage("found character that cannot start any token", "scanner", lineAt(text, bad));
  }
  if (/^missed comma between flow collection entries/.test(reason)) {
    const close = openFlow(text, offset) === "{" ? "}" : "]";
    return goMessage(`did not find expected ',' or '${close}'`, "parser", line);
  }
  for (const [re, problem, kind] of TABLE) if (re.test(reason)) return goMessage(problem, kind, line);
  return `yaml: line ${line}: ${reason}`;
}
