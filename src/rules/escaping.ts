/**
 * Kubernetes' CEL property-name escaping (apiserver `pkg/cel/escaping.go`): which schema property names
 * are accessible from CEL rules, and under which identifier.
 */

/** CEL reserved symbols; properties with exactly these names are accessed as `__name__`. */
export const CEL_RESERVED_SYMBOLS: ReadonlySet<string> = new Set([
  "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function", "if",
  "import", "let", "loop", "package", "namespace", "return", "var", "void", "while",
]);

const VALID_CHAR = /^[a-zA-Z0-9_]$/;

/**
 * `Escape(ident)`: the CEL identifier for a property name, or undefined when the property is not
 * accessible (empty, starts with a digit, or contains characters outside `[a-zA-Z0-9_.\-/]`).
 */
export function escapeProperty(ident: string): string | undefined {
  if (ident.length === 0) return undefined;
  const c0 = ident.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57) return undefined;
  if (CEL_RESERVED_SYMBOLS.has(ident)) return `__${ident}__`;
  let needsExpansion = false;
  let prevUnderscore = false;
  for (const ch of ident) {
    if (ch === "/" || ch === "-" || ch === ".") {
      needsExpansion = true;
      break;
    }
    if (!VALID_CHAR.test(ch)) return undefined;
    if (ch === "_" && prevUnderscore) {
      needsExpansion = true;
      break;
    }
    prevUnderscore = ch === "_";
  }
  if (!needsExpansion) return ident;
  let out = "";
  for (let i = 0; i < ident.length; ) {
    if (ident.startsWith("__", i)) {
      out += "__underscores__";
      i += 2;
      continue;
    }
    const ch = ident[i]!;
    if (ch === ".") out += "__dot__";
    else if (ch === "-") out += "__dash__";
    else if (ch === "/") out += "__slash__";
    else if (VALID_CHAR.test(ch)) out += ch;
    else return undefined;
    i++;
  }
  return out;
}

/** `Unescape(escaped)`: the property name for a CEL identifier, or undefined for an invalid escape. */
export function unescapeProperty(escaped: string): string | undefined {
  // every escape sequence starts with `__` (the common case, a plain name, is returned as it is)
  if (!escaped.includes("__")) return escaped;
  let ok = true;
  const out = escaped.replace(/__[^_]+__/g, (s) => {
    const contents = s.slice(2, -2);
    switch (contents) {
      case "underscores":
        return "__";
      case "dot":
        return ".";
      case "dash":
        return "-";
      case "slash":
        return "/";
    }
    if (CEL_RESERVED_SYMBOLS.has(contents)) {
      if (s.length !== escaped.length) ok = false;
      return contents;
    }
    ok = false;
    return "";
  });
  return ok ? out : undefined;
}
