/** Reads known-differences.txt: `<sequence> | <step> | <reason>` lines; `#` starts a comment. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const KNOWN_DIFFERENCES_FILE = join(dirname(fileURLToPath(import.meta.url)), "known-differences.txt");

export function loadKnownDifferences(): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of readFileSync(KNOWN_DIFFERENCES_FILE, "utf8").split("\n")) {
    const t = line.trim();
    if (t === "" || t.startsWith("#")) continue;
    const parts = t.split(" | ");
    if (parts.length < 3) throw new Error(`known-differences.txt: malformed line ${JSON.stringify(line)}`);
    out.set(`${parts[0]} | ${parts[1]}`, parts.slice(2).join(" | "));
  }
  return out;
}
