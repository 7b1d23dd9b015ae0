/**
 * Text and GitHub output print one line per error. Some Kubernetes texts span lines (go-yaml's
 * `yaml: unmarshal errors:\n  line 7: key "a" already set in map\n  line 9: ...`, CEL compiler output):
 * they are joined, and go-yaml's `line N`, which counts from the start of the YAML document, is rebased to
 * the line in the file.
 */
const YAML_LINE = /^line (\d+):/;

/**
 * One-line form of `message`. `anchorLine` is the file line of the first `line N` entry (where the first
 * duplicate key is), used to rebase every entry; without it the numbers are kept.
 */
export function oneLine(message: string, anchorLine?: number): string {
  if (!message.includes("\n")) return message;
  const parts = message.split(/\r?\n\s*/).filter((p) => p !== "");
  let delta = 0;
  // only go-yaml's own list is rebased: its first entry is where the anchor (the first duplicate key) is
  if (anchorLine !== undefined && message.startsWith("yaml: unmarshal errors:")) {
    const first = parts.find((p) => YAML_LINE.test(p));
    if (first) delta = anchorLine - Number(YAML_LINE.exec(first)![1]);
  }
  let out = parts[0] ?? "";
  for (let i = 1; i < parts.length; i++) {
    const p = parts[i]!;
    const m = YAML_LINE.exec(p);
    const text = m && delta !== 0 ? `line ${Number(m[1]) + delta}:${p.slice(m[0].length)}` : p;
    out += (m && YAML_LINE.test(parts[i - 1]!) ? "; " : " ") + text;
  }
  return out;
}

/** `1 resource`, `2 resources`. */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
