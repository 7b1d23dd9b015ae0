/**
 * `Warning` response headers as the API server writes them (apiserver `filters/warning.go` recorder and
 * apimachinery `net.NewWarningHeader`): empty texts skipped, duplicates dropped, texts with control
 * characters or invalid UTF-8 dropped, `"` and `\` escaped; past 4,096 runes in total every warning is
 * cut to 256 runes and warnings stop once the total is reached again. Values are returned as header
 * strings whose characters are the UTF-8 bytes (Node writes header strings as Latin-1), so non-ASCII
 * text reaches the client as Go's net/http sends it.
 */

const TRUNCATE_AT_TOTAL_RUNES = 4 * 1024;
const TRUNCATE_ITEM_RUNES = 256;

/** Go's `unicode.IsControl` (C0, DEL, C1) or a lone surrogate (not valid UTF-8). */
function invalidText(text: string): boolean {
  return /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

/** `NewWarningHeader(299, "-", text)`, or undefined when the API server refuses the text. */
function header(text: string): string | undefined {
  if (invalidText(text)) return undefined;
  const quoted = `299 - "${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  return Buffer.from(quoted, "utf8").toString("latin1");
}

function runes(text: string): string[] {
  return Array.from(text);
}

const YAML_TYPE_ERROR = "yaml: unmarshal errors:\n  ";

/**
 * The handlers' `addStrictDecodingWarnings`: a strict decoding error of YAML (go-yaml's `TypeError`, whose text is
 * `yaml: unmarshal errors:` and one indented line per error, such as `line 1: key "a" already set in map`) is
 * recorded as one warning per error; any other text as it is.
 */
export function strictDecodingWarnings(text: string): string[] {
  return text.startsWith(YAML_TYPE_ERROR) ? text.slice(YAML_TYPE_ERROR.length).split("\n  ") : [text];
}

/** The `Warning` header values for warnings recorded in this order. */
export function warningHeaders(texts: readonly string[]): string[] {
  let out: string[] = [];
  const recorded = new Set<string>();
  const ordered: string[] = [];
  let written = 0;
  let truncating = false;
  for (let text of texts.flatMap(strictDecodingWarnings)) {
    if (text.length === 0) continue;
    if (written >= TRUNCATE_AT_TOTAL_RUNES && truncating) break;
    if (recorded.has(text)) continue;
    recorded.add(text);
    ordered.push(text);
    let n = runes(text).length;
    if (truncating && n > TRUNCATE_ITEM_RUNES) {
      text = runes(text).slice(0, TRUNCATE_ITEM_RUNES).join("");
      n = TRUNCATE_ITEM_RUNES;
    }
    const h = header(text);
    if (h === undefined) continue;
    if (written + n <= TRUNCATE_AT_TOTAL_RUNES || truncating) {
      written += n;
      out.push(h);
      continue;
    }
    // Over the total: replay everything recorded so far, each cut to 256 runes.
    truncating = true;
    written = 0;
    out = [];
    for (const w of ordered) {
      const r = runes(w);
      const t = r.length > TRUNCATE_ITEM_RUNES ? r.slice(0, TRUNCATE_ITEM_RUNES).join("") : w;
      const hh = header(t);
      if (hh !== undefined) {
        written += Math.min(r.length, TRUNCATE_ITEM_RUNES);
        out.push(hh);
      }
    }
  }
  return out;
}
