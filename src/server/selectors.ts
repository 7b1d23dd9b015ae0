/**
 * Label selectors (apimachinery `labels.Parse`: `=`, `==`, `!=`, `in`, `notin`, exists, `!key`) and
 * field selectors (`fields.ParseSelector`: `=`, `==`, `!=`, comma-separated).
 */
import { apiErrors } from "./errors.js";

type Requirement =
  | { op: "eq" | "neq"; key: string; value: string }
  | { op: "in" | "notin"; key: string; values: string[] }
  | { op: "exists" | "notexists"; key: string };

/** A parsed selector: `matches(labels)`. */
export interface Selector {
  readonly empty: boolean;
  matches(fields: Readonly<Record<string, string>>): boolean;
  /** Keys the selector mentions. */
  keys(): string[];
}

function matchOne(r: Requirement, set: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(set, r.key);
  const v = has ? set[r.key] : undefined;
  switch (r.op) {
    case "eq":
      return has && v === r.value;
    case "neq":
      return !has || v !== r.value;
    case "in":
      return has && r.values.includes(v!);
    case "notin":
      return !has || !r.values.includes(v!);
    case "exists":
      return has;
    case "notexists":
      return !has;
  }
}

function selectorOf(reqs: Requirement[]): Selector {
  return {
    empty: reqs.length === 0,
    matches: (set) => reqs.every((r) => matchOne(r, set)),
    keys: () => reqs.map((r) => r.key),
  };
}

/** Splits on commas that are not inside parentheses. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of s) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** Parses a `labelSelector` query value; throws 400 on syntax errors. */
export function parseLabelSelector(text: string | null | undefined): Selector {
  const reqs: Requirement[] = [];
  if (!text || text.trim() === "") return selectorOf(reqs);
  for (const raw of splitTop(text)) {
    const part = raw.trim();
    if (part === "") throw apiErrors.badRequest(`unable to parse requirement: found '', expected: identifier`);
    let m = /^(\S+?)\s+(in|notin)\s*\(([^)]*)\)$/.exec(part);
    if (m) {
      const values = m[3]!.split(",").map((v) => v.trim());
      reqs.push({ op: m[2] as "in" | "notin", key: m[1]!, values });
      continue;
    }
    m = /^([^!=\s]+)\s*(==|=|!=)\s*(\S*)$/.exec(part);
    if (m) {
      reqs.push({ op: m[2] === "!=" ? "neq" : "eq", key: m[1]!, value: m[3]! });
      continue;
    }
    m = /^!\s*([^!=\s]+)$/.exec(part);
    if (m) {
      reqs.push({ op: "notexists", key: m[1]! });
      continue;
    }
    if (/^[^!=\s()]+$/.test(part)) {
      reqs.push({ op: "exists", key: part });
      continue;
    }
    throw apiErrors.badRequest(`unable to parse requirement: ${part}`);
  }
  return selectorOf(reqs);
}

/** Parses a `fieldSelector` query value; throws 400 on syntax errors. */
export function parseFieldSelector(text: string | null | undefined): Selector {
  const reqs: Requirement[] = [];
  if (!text || text.trim() === "") return selectorOf(reqs);
  for (const raw of text.split(",")) {
    const part = raw.trim();
    const m = /^([^!=]+?)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (!m) throw apiErrors.badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    reqs.push({ op: m[2] === "!=" ? "neq" : "eq", key: m[1]!.trim(), value: m[3]!.trim() });
  }
  // Field selectors treat a missing field as the empty string.
  const sel = selectorOf(reqs);
  return {
    empty: sel.empty,
    keys: sel.keys,
    matches: (set) =>
      reqs.every((r) => {
        const v = Object.hasOwn(set, r.key) ? set[r.key]! : "";
        return r.op === "eq" ? v === (r as { value: string }).value : v !== (r as { value: string }).value;
      }),
  };
}
