/**
 * Indents a compact JSON text without parsing it into JavaScript numbers (so int64 values beyond 2^53 and
 * Go's float renderings stay exactly as the engine wrote them).
 */
export function prettyJson(text: string, indent = "  "): string {
  let out = "";
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === "\\") out += text[++i] ?? "";
      else if (ch === '"') inString = false;
      continue;
    }
    switch (ch) {
      case '"':
        inString = true;
        out += ch;
        break;
      case "{":
      case "[": {
        const close = ch === "{" ? "}" : "]";
        if (text[i + 1] === close) {
          out += ch + close;
          i++;
          break;
        }
        depth++;
        out += `${ch}\n${indent.repeat(depth)}`;
        break;
      }
      case "}":
      case "]":
        depth--;
        out += `\n${indent.repeat(depth)}${ch}`;
        break;
      case ",":
        out += `,\n${indent.repeat(depth)}`;
        break;
      case ":":
        out += ": ";
        break;
      default:
        out += ch;
    }
  }
  return out;
}
