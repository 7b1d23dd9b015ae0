/**
 * Two places where go-yaml v2 (sigs.k8s.io/yaml, hence kubectl) reads flow YAML more leniently than the
 * YAML 1.2 parser crdkit uses (js-yaml). This module rewrites a document so that js-yaml produces the
 * values go-yaml produces:
 *
 * 1. In a flow collection, go-yaml ends a plain scalar at `:` only when a blank follows (scannerc.go,
 *    "indicators that may end a plain scalar"): `[1.2.3.4, 001:db8::]` holds the string `001:db8::`,
 *    where js-yaml reads `001:db8:` as a key. Such scalars (a `:` right before `,`, `]`, `}`, `[`, `{`)
 *    are rewritten as double-quoted strings (they can only resolve to strings: no number, bool, null or
 *    timestamp ends with `:`).
 * 2. go-yaml checks no indentation inside flow collections and multi-line quoted scalars
 *    (`yaml_parser_unroll_indent` does nothing at flow level > 0): a closing `]` at the key's column is
 *    accepted. With `reindent`, continuation lines there get extra leading spaces; leading white space of
 *    such lines is insignificant (folded away), so values do not change.
 *
 * 3. Double-quoted escapes are go-yaml v2's set (YAML 1.1 plus `\'`): `\'` is an apostrophe (js-yaml
 *    refuses it: rewritten), `\/` is an error (`found unknown escape character`; js-yaml accepts it).
 *
 * The scan is a small lexer (comments, quoted scalars, block scalars, flow nesting).
 */

const FLOW_END = new Set([",", "]", "}", "[", "{"]);

function isBlank(c: string | undefined): boolean {
  return c === undefined || c === " " || c === "\t" || c === "\n" || c === "\r";
}

function goQuoteYaml(s: string): string {
  return `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** The outcome of {@link goYamlFlowCompat}. */
export interface FlowCompatResult {
  /** The rewritten text; `undefined` when nothing changes. */
  text?: string;
  /** Offset of a `\` starting an escape go-yaml v2 refuses (the first one). */
  badEscapeOffset?: number;
}

/** Rewrites `text` for js-yaml as described above. */
export function goYamlFlowCompat(text: string, reindent: boolean): FlowCompatResult {
  const out: string[] = [];
  let changed = false;
  let badEscapeOffset: number | undefined;
  let last = 0; // text before `last` is already in `out`
  const n = text.length;
  let depth = 0; // flow nesting
  let minIndent = 0; // required indentation of continuation lines in the current flow / quoted scalar
  let lineIndent = 0;
  let nodeStart = true; // a node (scalar / collection) may start here
  let blockParent = -1; // inside a block scalar: the indentation of its header line
  let i = 0;

  const emit = (upTo: number, replacement?: string, resume?: number) => {
    out.push(text.slice(last, upTo));
    if (replacement !== undefined) out.push(replacement);
    last = resume ?? upTo;
    changed = true;
  };
  /** At the start of a line (i just after `\n`): measure it, pad it when it continues a flow / quoted node. */
  const newLine = (continuing: boolean) => {
    let j = i;
    while (j < n && text[j] === " ") j++;
    lineIndent = j - i;
    const blank = j >= n || text[j] === "\n" || text[j] === "\r" || text[j] === "#";
    if (continuing && reindent && !blank && lineIndent < minIndent) {
      emit(i, " ".repeat(minIndent - lineIndent));
    }
    i = j;
  };
  const skipComment = () => {
    while (i < n && text[i] !== "\n") i++;
  };
  /** Skips a quoted scalar starting at i (a quote); continuation lines must reach `indent`. */
  const skipQuoted = (indent: number) => {
    const q = text[i];
    const saved = minIndent;
    minIndent = Math.max(minIndent, indent);
    i++;
    while (i < n) {
      const c = text[i]!;
      if (q === '"' && c === "\\") {
        const e = text[i + 1];
        if (e === "'") emit(i, "'", i + 2);
        else if (e === "/" && badEscapeOffset === undefined) badEscapeOffset = i;
        i += 2;
        continue;
      }
      if (c === q) {
        if (q === "'" && text[i + 1] === "'") {
          i += 2;
          continue;
        }
        i++;
        break;
      }
      i++;
      if (c === "\n") newLine(true);
    }
    minIndent = saved;
  };

  newLine(false);
  while (i < n) {
    const c = text[i]!;
    if (c === "\n") {
      i++;
      newLine(depth > 0);
      if (depth === 0) {
        if (blockParent >= 0) {
          const j = i;
          const blank = j >= n || text[j] === "\n" || text[j] === "\r";
          if (blank || lineIndent > blockParent) {
            skipComment();
            continue;
          }
          blockParent = -1;
        }
        nodeStart = true;
      }
      continue;
    }
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    const prevBlank = i === 0 || isBlank(text[i - 1]);
    if (c === "#" && prevBlank) {
      skipComment();
      continue;
    }
    if (depth > 0) {
      if (c === "[" || c === "{") {
        depth++;
        i++;
      } else if (c === "]" || c === "}") {
        depth--;
        i++;
        if (depth === 0) {
          minIndent = 0;
          nodeStart = false;
        }
      } else if (c === ",") i++;
      else if (c === '"' || c === "'") skipQuoted(minIndent);
      // go-yaml: in a flow collection a `:` where a token starts is always the value indicator
      // (`{"a":"[::]:80"}`: the `:` after the key, then a quoted scalar), whatever follows it
      else if (c === ":") i++;
      else if (c === "?") {
        // likewise `?` is always the key indicator there (`[?x]` is `[{x: null}]`); js-yaml needs a blank
        if (!isBlank(text[i + 1])) emit(i + 1, " ");
        i++;
      } else if (c === "-" && isBlank(text[i + 1])) i++;
      else {
        // a plain scalar (one line): go-yaml's end rules
        const start = i;
        let end = i;
        let j = i;
        let colonEnd = false;
        while (j < n) {
          const d = text[j]!;
          if (d === "\n" || d === "\r") break;
          if (d === ":" && isBlank(text[j + 1])) break;
          if (d === "," || d === "[" || d === "]" || d === "{" || d === "}") break;
          if (d === "#" && isBlank(text[j - 1])) break;
          if (d === ":" && FLOW_END.has(text[j + 1] ?? "")) colonEnd = true;
          j++;
          if (d !== " " && d !== "\t") end = j;
        }
        if (colonEnd && text[end - 1] === ":" && !text.slice(start, end).includes("\n")) {
          emit(start, goQuoteYaml(text.slice(start, end)), end);
        }
        i = j;
      }
      continue;
    }
    // block context
    if (blockParent >= 0) {
      skipComment();
      continue;
    }
    if (nodeStart) {
      if ((c === "-" || c === "?" || c === ":") && isBlank(text[i + 1])) {
        i++;
        continue;
      }
      if (c === "!" || c === "&") {
        while (i < n && !isBlank(text[i])) i++;
        continue;
      }
      if (c === "[" || c === "{") {
        depth = 1;
        minIndent = lineIndent + 1;
        i++;
        continue;
      }
      if (c === '"' || c === "'") {
        skipQuoted(lineIndent + 1);
        nodeStart = false;
        continue;
      }
      if (c === "|" || c === ">") {
        blockParent = lineIndent;
        skipComment();
        continue;
      }
    }
    // plain text in block context: a `: ` makes the next token a node start
    nodeStart = false;
    if (c === ":" && isBlank(text[i + 1])) nodeStart = true;
    i++;
  }
  const r: FlowCompatResult = badEscapeOffset === undefined ? {} : { badEscapeOffset };
  if (!changed) return r;
  out.push(text.slice(last));
  r.text = out.join("");
  return r;
}
