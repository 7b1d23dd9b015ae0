/**
 * The compiled CEL programs of a cached CRD (`programs/` of the {@link SchemaCache}): the runtime
 * validator of each version's schema reads the programs of the nodes an earlier run compiled instead of
 * parsing and type-checking their rules again (../rules/program-entry.ts), and the programs a run
 * compiles are written back at its end ({@link flushRulePrograms}; one file per CRD, rewritten only when
 * it grew).
 */
import type { CompileDecodedOptions } from "../pipeline/compile.js";
import type { NodeProgramsJson } from "../rules/program-entry.js";
import { attachRuleProgramStore, type RuleProgramStore } from "../rules/rule-program-store.js";
import type { SchemaCache } from "./schema-cache.js";

/** The programs of one CRD (document `index` of the CRD file with key `fileKey`), by version and node. */
class CrdPrograms {
  private read: Record<string, unknown> | undefined;
  private loaded = false;
  private readonly added = new Map<string, NodeProgramsJson>();

  constructor(
    private readonly cache: SchemaCache,
    private readonly fileKey: string,
    private readonly index: number,
  ) {}

  /** The store of a version's schema. */
  store(version: string): RuleProgramStore {
    const prefix = `${version}\u0000`;
    return {
      get: (nodeKey) => {
        if (!this.loaded) {
          this.loaded = true;
          this.read = this.cache.getRulePrograms(this.fileKey, this.index);
        }
        const k = prefix + nodeKey;
        const mine = this.added.get(k);
        if (mine !== undefined) return mine;
        return this.read !== undefined && Object.hasOwn(this.read, k) ? this.read[k] : undefined;
      },
      put: (nodeKey, entry) => {
        if (this.added.size === 0) pending.add(this);
        this.added.set(prefix + nodeKey, entry);
      },
    };
  }

  /** Writes what was read and what was added. */
  flush(): void {
    if (this.added.size === 0) return;
    if (!this.loaded) {
      this.loaded = true;
      this.read = this.cache.getRulePrograms(this.fileKey, this.index);
    }
    const nodes: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    if (this.read) for (const k of Object.keys(this.read)) nodes[k] = this.read[k];
    for (const [k, e] of this.added) nodes[k] = e;
    this.added.clear();
    this.read = nodes;
    this.cache.putRulePrograms(this.fileKey, this.index, nodes);
  }
}

const pending = new Set<CrdPrograms>();
/**
 * The programs of the CRDs of the current run, by cache file: a CRD compiled twice (from a `--crds` file and
 * as an input document) shares one, so neither write drops what the other compiled.
 */
const live = new Map<string, CrdPrograms>();

/**
 * Writes the programs compiled since the last flush; run at the end of a `validate` run (the next run
 * reads the files again).
 */
export function flushRulePrograms(): void {
  for (const p of pending) {
    try {
      p.flush();
    } catch {
      // a cache that cannot be written is a miss next time
    }
  }
  pending.clear();
  live.clear();
}

/**
 * The {@link CompileDecodedOptions.onStructural} that attaches the cached programs of a CRD (document
 * `index` of the CRD file with key `fileKey`) to each version's schema.
 */
export function rulePrograms(cache: SchemaCache, fileKey: string, index: number): NonNullable<CompileDecodedOptions["onStructural"]> {
  const id = `${cache.buildPath}\u0000${fileKey}-${index}`;
  let crd = live.get(id);
  if (crd === undefined) live.set(id, (crd = new CrdPrograms(cache, fileKey, index)));
  const programs = crd;
  return (version, s) => attachRuleProgramStore(s, programs.store(version));
}
