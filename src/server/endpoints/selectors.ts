/**
 * Label selectors (apimachinery `labels.Parse`: `=`, `==`, `!=`, `in`, `notin`, exists, `!key`) and
 * field selectors (`fields.ParseSelector`: `=`, `==`, `!=`, comma-separated).
 */
import { apiErrors } from "./errors.js";
import { matchesRequirement, parseLabelSelectorText } from "./label-selector.js";

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
  /**
   * `RequiresExactMatch(key)`: the value the first `key=value` (or `==`) term requires, else undefined (field
   * selectors only: a label selector answers undefined).
   */
  exactMatch(key: string): string | undefined;
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
    exactMatch: (key) => {
      for (const r of reqs) if (r.key === key && r.op === "eq") return r.value;
      return undefined;
    },
  };
}

/** Parses a `labelSelector` query value (apimachinery `labels.Parse`); throws 400 on syntax errors. */
export function parseLabelSelector(text: string | null | undefined): Selector {
  if (!text) return selectorOf([]);
  const parsed = parseLabelSelectorText(text);
  if (typeof parsed === "string") throw apiErrors.badRequest(parsed);
  return {
    empty: parsed.length === 0,
    matches: (set) => parsed.every((r) => matchesRequirement(r, set)),
    keys: () => parsed.map((r) => r.key),
    exactMatch: () => undefined,
  };
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
    exactMatch: sel.exactMatch,
    matches: (set) =>
      reqs.every((r) => {
        const v = Object.hasOwn(set, r.key) ? set[r.key]! : "";
        return r.op === "eq" ? v === (r as { value: string }).value : v !== (r as { value: string }).value;
      }),
  };
}
