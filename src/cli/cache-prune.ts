/**
 * Pruning the compiled-CRD cache (see ./schema-cache.ts). Entries live in one directory per crdkit build,
 * `<cache>/v<format>/<build>/`, because an entry is only ever read by the build that wrote it. A run
 * touches its build's directory; about once a day (the cache directory's own mtime records the last
 * pruning) the cache is pruned:
 *
 * 1. the directories of other builds (other crdkit versions or formats, older layouts) not used for
 *    {@link PRUNE_MAX_AGE_MS} are removed;
 * 2. while the cache is larger than {@link PRUNE_MAX_BYTES}, the least recently used of the other builds'
 *    directories is removed;
 * 3. if the current build alone is larger, its oldest entries are removed until it is under 80% of it.
 *
 * Every step swallows I/O problems: a cache that cannot be pruned stays as it is.
 */
import { type Stats, readdirSync, rmSync, statSync, unlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";

export const PRUNE_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
export const PRUNE_MAX_BYTES = 256 * 1024 * 1024;
export const PRUNE_INTERVAL_MS = 24 * 3600 * 1000;

export interface PruneOptions {
  now?: number;
  maxAgeMs?: number;
  maxBytes?: number;
}

export interface PruneReport {
  /** Build directories removed (`v1/<build>`). */
  removedBuilds: string[];
  /** Entries of the current build removed. */
  removedFiles: number;
  bytesBefore: number;
  bytesAfter: number;
}

function stat(p: string): Stats | undefined {
  try {
    return statSync(p);
  } catch {
    return undefined;
  }
}

function list(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** The files under `dir` with their sizes and mtimes. */
function filesOf(dir: string, out: { path: string; size: number; mtime: number }[] = []): { path: string; size: number; mtime: number }[] {
  for (const e of list(dir)) {
    const p = join(dir, e);
    const s = stat(p);
    if (s?.isDirectory()) filesOf(p, out);
    else if (s) out.push({ path: p, size: s.size, mtime: s.mtimeMs });
  }
  return out;
}

/** The directory of a build's entries: `<cache>/v<format>/<build>`. */
export function buildDir(cacheDir: string, format: number, build: string): string {
  return join(cacheDir, `v${format}`, build);
}

/** Marks a build's directory as used now (its mtime is its last use). */
export function touchBuild(dir: string, now = Date.now()): void {
  try {
    utimesSync(dir, now / 1000, now / 1000);
  } catch {
    // not created yet: the first write creates it
  }
}

/** Prunes `cacheDir`, keeping `current` (a build directory, `v1/<build>`) unless it alone is too large. */
export function pruneCache(cacheDir: string, current: string, opts: PruneOptions = {}): PruneReport {
  const now = opts.now ?? Date.now();
  const maxAge = opts.maxAgeMs ?? PRUNE_MAX_AGE_MS;
  const maxBytes = opts.maxBytes ?? PRUNE_MAX_BYTES;
  const units: { name: string; path: string; mtime: number; size: number; files: { path: string; size: number; mtime: number }[] }[] = [];
  let loose = 0;
  for (const top of list(cacheDir)) {
    const tp = join(cacheDir, top);
    if (!stat(tp)?.isDirectory()) {
      loose += stat(tp)?.size ?? 0;
      continue;
    }
    for (const b of list(tp)) {
      const p = join(tp, b);
      const s = stat(p);
      if (!s) continue;
      const files = s.isDirectory() ? filesOf(p) : [{ path: p, size: s.size, mtime: s.mtimeMs }];
      units.push({ name: `${top}/${b}`, path: p, mtime: s.mtimeMs, size: files.reduce((a, f) => a + f.size, 0), files });
    }
  }
  const report: PruneReport = { removedBuilds: [], removedFiles: 0, bytesBefore: loose + units.reduce((a, u) => a + u.size, 0), bytesAfter: 0 };
  let total = report.bytesBefore;
  const remove = (u: (typeof units)[number]) => {
    try {
      rmSync(u.path, { recursive: true, force: true });
      report.removedBuilds.push(u.name);
      total -= u.size;
    } catch {
      // kept
    }
  };
  const others = units.filter((u) => u.name !== current).sort((a, b) => a.mtime - b.mtime);
  const kept = [];
  for (const u of others) {
    if (now - u.mtime > maxAge) remove(u);
    else kept.push(u);
  }
  for (const u of kept) if (total > maxBytes) remove(u);
  const cur = units.find((u) => u.name === current);
  if (cur && total > maxBytes) {
    for (const f of cur.files.sort((a, b) => a.mtime - b.mtime || a.path.localeCompare(b.path))) {
      if (total <= maxBytes * 0.8) break;
      try {
        unlinkSync(f.path);
        total -= f.size;
        report.removedFiles++;
      } catch {
        // kept
      }
    }
  }
  report.bytesAfter = total;
  return report;
}

/** Prunes the cache when the last pruning (the cache directory's mtime) is older than `intervalMs`. */
export function pruneCacheIfDue(cacheDir: string, current: string, opts: PruneOptions & { intervalMs?: number } = {}): PruneReport | undefined {
  const now = opts.now ?? Date.now();
  const s = stat(cacheDir);
  if (!s?.isDirectory() || now - s.mtimeMs < (opts.intervalMs ?? PRUNE_INTERVAL_MS)) return undefined;
  const report = pruneCache(cacheDir, current, { ...opts, now });
  try {
    utimesSync(cacheDir, now / 1000, now / 1000);
  } catch {
    // pruned again next time
  }
  return report;
}
