/**
 * test/golden/known-disagreements.txt: one `<case id> <reason>` per line (`#` comments). An id ending in
 * `*` covers every case id with that prefix (used for whole corpus projects).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export interface KnownEntry {
  id: string;
  reason: string;
}

export function readKnown(path: string): KnownEntry[] {
  if (!existsSync(path)) return [];
  const out: KnownEntry[] = [];
  for (const raw of readFileSync(path, "utf8").split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const sp = line.search(/\s/);
    out.push(sp < 0 ? { id: line, reason: "(no reason given)" } : { id: line.slice(0, sp), reason: line.slice(sp).trim() });
  }
  return out;
}

export class KnownList {
  private readonly exact = new Map<string, string>();
  private readonly prefixes: KnownEntry[] = [];
  constructor(entries: KnownEntry[]) {
    for (const e of entries) {
      if (e.id.endsWith("*")) this.prefixes.push({ id: e.id.slice(0, -1), reason: e.reason });
      else this.exact.set(e.id, e.reason);
    }
  }
  /** The reason a case is listed, or undefined. */
  reason(id: string): string | undefined {
    const r = this.exact.get(id);
    if (r !== undefined) return r;
    return this.prefixes.find((p) => id.startsWith(p.id))?.reason;
  }
  /** True when the id is listed by itself (not only through a prefix). */
  listedExactly(id: string): boolean {
    return this.exact.has(id);
  }
}

const HEADER = `# Golden cases where crdkit does not (yet) agree with Kubernetes.
# Format: <case id> <one-line reason>. A trailing * on an id covers every case with that prefix.
# Listed cases are reported as skipped; an unlisted disagreement fails; a listed case that agrees fails too.
# Regenerate from the current state: UPDATE_KNOWN=1 node --import tsx --test test/golden/golden.test.ts
`;

/** Writes the list (sorted), keeping the reasons of entries that were already there. */
export function writeKnown(path: string, entries: KnownEntry[]): void {
  const sorted = [...entries].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  writeFileSync(path, HEADER + sorted.map((e) => `${e.id} ${e.reason.replace(/\s+/g, " ")}`).join("\n") + "\n");
}
