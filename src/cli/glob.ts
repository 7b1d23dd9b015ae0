/**
 * Shell-style globs for `--exclude`: `*` and `?` stay inside one path segment, `**` crosses segments,
 * `[abc]`/`[!abc]` are character classes and `{a,b}` alternatives. A pattern without `/` matches a file or
 * directory name anywhere (as in .gitignore); a pattern with `/` matches the whole path or a trailing part
 * of it that starts at a segment boundary.
 */
function escapeRe(c: string): string {
  return /[.+^$(){}|\\/[\]*?]/.test(c) ? `\\${c}` : c;
}

function globBody(p: string): string {
  let out = "";
  let braces = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === "*") {
      if (p[i + 1] === "*") {
        i++;
        if (p[i + 1] === "/") {
          i++;
          out += "(?:.*/)?";
        } else out += ".*";
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = p.indexOf("]", i + 2);
      if (end < 0) {
        out += "\\[";
        continue;
      }
      let cls = p.slice(i + 1, end);
      const negate = cls.startsWith("!") || cls.startsWith("^");
      if (negate) cls = cls.slice(1);
      out += `[${negate ? "^" : ""}${cls.replace(/\\/g, "\\\\").replace(/\]/g, "\\]")}]`;
      i = end;
    } else if (c === "{") {
      braces++;
      out += "(?:";
    } else if (c === "}" && braces > 0) {
      braces--;
      out += ")";
    } else if (c === "," && braces > 0) out += "|";
    else if (c === "\\" && i + 1 < p.length) out += escapeRe(p[++i]!);
    else out += escapeRe(c);
  }
  return out + ")".repeat(braces);
}

/** A matcher for file paths (with `/` or the platform separator) against a list of globs. */
export function globMatcher(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const res = patterns.map((raw) => {
    const p = raw.replace(/\/+$/, "");
    if (!p.includes("/")) return new RegExp(`(?:^|/)${globBody(p)}$`);
    if (p.startsWith("/")) return new RegExp(`^${globBody(p)}$`);
    return new RegExp(`(?:^|/)${globBody(p.replace(/^\.\//, ""))}$`);
  });
  return (path) => {
    const norm = path.replace(/\\/g, "/").replace(/^\.\//, "");
    return res.some((re) => re.test(norm));
  };
}
