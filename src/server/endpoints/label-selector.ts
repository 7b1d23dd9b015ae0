/**
 * Label selectors as apimachinery's `labels.Parse` reads them: a lexer (identifiers, `!`, `=`, `==`, `!=`,
 * `>`, `<`, `in`, `notin`, parentheses, commas), a parser with its error texts, and `NewRequirement`'s key
 * and value validation. Syntax errors are returned as text; the caller answers 400 with it.
 */
import { aggregateMessage, errorString } from "../../errors/field-error.js";
import { fieldError, FieldPath, type FieldError } from "../../errors/index.js";
import { isQualifiedName, isValidLabelValue } from "../../objectmeta/names.js";

export type LabelOperator = "exists" | "!" | "=" | "==" | "!=" | "in" | "notin" | "gt" | "lt";

/** One requirement of a label selector. */
export interface LabelRequirement {
  key: string;
  op: LabelOperator;
  values: string[];
}

type Tok = "error" | "end" | ")" | "," | "!" | "==" | "=" | ">" | "id" | "in" | "<" | "!=" | "notin" | "(";

/** The keyword token `s` is, if any (own keys only: a label key such as `constructor` is an identifier). */
function keyword(s: string): Tok | undefined {
  return Object.hasOwn(KEYWORDS, s) ? KEYWORDS[s] : undefined;
}
const KEYWORDS: Record<string, Tok> = { ")": ")", ",": ",", "!": "!", "==": "==", "=": "=", ">": ">", in: "in", "<": "<", "!=": "!=", notin: "notin", "(": "(" };
const SPECIAL = new Set(["=", "!", "(", ")", ",", ">", "<"]);
const WHITESPACE = new Set([" ", "\t", "\r", "\n"]);

function lex(s: string): { tok: Tok; lit: string }[] {
  const out: { tok: Tok; lit: string }[] = [];
  let pos = 0;
  for (;;) {
    while (pos < s.length && WHITESPACE.has(s[pos]!)) pos++;
    if (pos >= s.length) {
      out.push({ tok: "end", lit: "" });
      return out;
    }
    if (SPECIAL.has(s[pos]!)) {
      // The longest run of special symbols that is a token (`!=`, `==`), else the first that is.
      let buf = "";
      let last: { tok: Tok; lit: string } | undefined;
      while (pos < s.length && SPECIAL.has(s[pos]!)) {
        buf += s[pos];
        const t = keyword(buf);
        if (t !== undefined) last = { tok: t, lit: buf };
        else if (last) break;
        pos++;
      }
      out.push(last ?? { tok: "error", lit: `error expected: keyword found '${buf}'` });
      if (!last) return [...out, { tok: "end", lit: "" }];
      continue;
    }
    let buf = "";
    while (pos < s.length && !SPECIAL.has(s[pos]!) && !WHITESPACE.has(s[pos]!)) buf += s[pos++];
    out.push({ tok: keyword(buf) ?? "id", lit: buf });
  }
}

class SelectorSyntaxError extends Error {}

/** Parses `text`; returns the requirements sorted by key, or the API server's error text. */
export function parseLabelSelectorText(text: string): LabelRequirement[] | string {
  const items = lex(text);
  let pos = 0;
  // In value position the keywords `in`/`notin` are plain identifiers.
  const peek = (values = true): { tok: Tok; lit: string } => {
    const it = items[Math.min(pos, items.length - 1)]!;
    return values && (it.tok === "in" || it.tok === "notin") ? { tok: "id", lit: it.lit } : it;
  };
  const next = (values = true): { tok: Tok; lit: string } => {
    const it = peek(values);
    pos++;
    return it;
  };
  const requirement = (): LabelRequirement => {
    let op: LabelOperator | undefined;
    let t = next();
    if (t.tok === "!") {
      op = "!";
      t = next();
    }
    if (t.tok !== "id") throw new SelectorSyntaxError(`found '${t.lit}', expected: identifier`);
    const key = t.lit;
    const keyErr = isQualifiedName(key);
    if (keyErr.length > 0) throw new SelectorSyntaxError(errorString(fieldError.invalid(null, key, keyErr.join("; "))));
    const after = peek().tok;
    if (after === "end" || after === ",") return newRequirement(key, op ?? "exists", []);
    if (op === "!") return newRequirement(key, "!", []);
    const o = next(false);
    const ops: Partial<Record<Tok, LabelOperator>> = { in: "in", "=": "=", "==": "==", ">": "gt", "<": "lt", notin: "notin", "!=": "!=" };
    const operator = ops[o.tok];
    if (!operator) throw new SelectorSyntaxError(`found '${o.lit}', expected: in, notin, =, ==, !=, gt, lt`);
    const values = operator === "in" || operator === "notin" ? setValues() : exactValue();
    return newRequirement(key, operator, [...new Set(values)].sort());
  };
  const setValues = (): string[] => {
    let t = next();
    if (t.tok !== "(") throw new SelectorSyntaxError(`found '${t.lit}' expected: '('`);
    t = peek();
    if (t.tok === ")") {
      next();
      return [""];
    }
    if (t.tok !== "id" && t.tok !== ",") throw new SelectorSyntaxError(`found '${t.lit}', expected: ',', ')' or identifier`);
    const out: string[] = [];
    for (;;) {
      const v = next();
      if (v.tok === "id") {
        out.push(v.lit);
        const a = peek();
        if (a.tok === ",") continue;
        if (a.tok === ")") break;
        throw new SelectorSyntaxError(`found '${a.lit}', expected: ',' or ')'`);
      } else if (v.tok === ",") {
        if (out.length === 0) out.push("");
        const a = peek();
        if (a.tok === ")") {
          out.push("");
          break;
        }
        if (a.tok === ",") out.push("");
      } else throw new SelectorSyntaxError(`found '${v.lit}', expected: ',', or identifier`);
    }
    const close = next();
    if (close.tok !== ")") throw new SelectorSyntaxError(`found '${t.lit}', expected: ')'`);
    return out;
  };
  const exactValue = (): string[] => {
    const a = peek();
    if (a.tok === "end" || a.tok === ",") return [""];
    const v = next();
    if (v.tok === "id") return [v.lit];
    throw new SelectorSyntaxError(`found '${v.lit}', expected: identifier`);
  };
  const reqs: LabelRequirement[] = [];
  for (;;) {
    const t = peek();
    if (t.tok === "end") break;
    if (t.tok !== "id" && t.tok !== "!") return `found '${t.lit}', expected: !, identifier, or 'end of string'`;
    try {
      reqs.push(requirement());
    } catch (e) {
      if (e instanceof SelectorSyntaxError) return `unable to parse requirement: ${e.message}`;
      throw e;
    }
    const sep = next();
    if (sep.tok === "end") break;
    if (sep.tok !== ",") return `found '${sep.lit}', expected: ',' or 'end of string'`;
    const a = peek();
    if (a.tok !== "id" && a.tok !== "!") return `found '${a.lit}', expected: identifier after ','`;
  }
  return reqs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** `NewRequirement`: value counts per operator, integer values for gt/lt, valid label values. */
function newRequirement(key: string, op: LabelOperator, values: string[]): LabelRequirement {
  const errs: FieldError[] = [];
  const valuesPath = FieldPath.of("values");
  if ((op === "gt" || op === "lt") && values.length === 1 && !/^[+-]?\d+$/.test(values[0]!)) {
    errs.push(fieldError.invalid(valuesPath.index(0), values[0]!, "for 'Gt', 'Lt' operators, the value must be an integer"));
  }
  values.forEach((v, i) => {
    const e = isValidLabelValue(v);
    if (e.length > 0) errs.push(fieldError.invalid(valuesPath.index(i).key(key), v, e.join("; ")));
  });
  if (errs.length > 0) throw new SelectorSyntaxError(aggregateMessage(errs));
  return { key, op, values };
}

/** Whether a label set satisfies one requirement (`Requirement.Matches`). */
export function matchesRequirement(r: LabelRequirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const v = has ? labels[r.key]! : "";
  switch (r.op) {
    case "=":
    case "==":
    case "in":
      return has && r.values.includes(v);
    case "!=":
    case "notin":
      return !has || !r.values.includes(v);
    case "exists":
      return has;
    case "!":
      return !has;
    case "gt":
    case "lt": {
      if (!has || !/^[+-]?\d+$/.test(v)) return false;
      const a = BigInt(v);
      const b = BigInt(r.values[0]!);
      return r.op === "gt" ? a > b : a < b;
    }
  }
}
