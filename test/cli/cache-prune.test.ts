/** Pruning the compiled-CRD cache: other builds by age and size, the current build's oldest entries last. */
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { pruneCache, pruneCacheIfDue } from "../../src/cli/cache-prune.js";
import { SchemaCache, cacheFor } from "../../src/cli/schema-cache.js";

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 10, 26);

/** A cache with builds `v1/<name>` of `files` entries of `size` bytes, last used `age` ms before NOW. */
function cache(builds: Record<string, { age: number; files: number; size: number }>): string {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-prune-"));
  for (const [name, b] of Object.entries(builds)) {
    const d = join(dir, name, "verdict");
    mkdirSync(d, { recursive: true });
    for (let i = 0; i < b.files; i++) {
      const f = join(d, `${i}.json`);
      writeFileSync(f, "x".repeat(b.size));
      // entries written one minute apart, the oldest first
      const t = (NOW - b.age - (b.files - i) * 60_000) / 1000;
      utimesSync(f, t, t);
    }
    for (const p of [d, join(dir, name)]) utimesSync(p, (NOW - b.age) / 1000, (NOW - b.age) / 1000);
  }
  return dir;
}

const left = (dir: string, build: string) => (existsSync(join(dir, build, "verdict")) ? readdirSync(join(dir, build, "verdict")).sort() : []);

test("other builds unused for a week are removed; recent ones and the current build are kept", () => {
  const dir = cache({ "v1/cur": { age: 30 * DAY, files: 2, size: 10 }, "v1/old": { age: 8 * DAY, files: 2, size: 10 }, "v1/recent": { age: DAY, files: 2, size: 10 }, "v0/verdict": { age: 60 * DAY, files: 1, size: 10 } });
  const r = pruneCache(dir, "v1/cur", { now: NOW });
  assert.deepEqual(r.removedBuilds.sort(), ["v0/verdict", "v1/old"]);
  assert.equal(r.removedFiles, 0);
  assert.deepEqual([r.bytesBefore, r.bytesAfter], [70, 40]);
  assert.deepEqual(left(dir, "v1/cur"), ["0.json", "1.json"]);
  assert.deepEqual(left(dir, "v1/recent"), ["0.json", "1.json"]);
  assert.equal(existsSync(join(dir, "v1", "old")), false);
});

test("over the size limit: least recently used other builds first, then the current build's oldest entries", () => {
  const dir = cache({ "v1/cur": { age: 0, files: 10, size: 100 }, "v1/a": { age: 2 * DAY, files: 3, size: 100 }, "v1/b": { age: DAY, files: 3, size: 100 } });
  // 1,600 bytes; limit 1,400: removing the least recently used other build (a) is enough
  const r1 = pruneCache(dir, "v1/cur", { now: NOW, maxBytes: 1400 });
  assert.deepEqual(r1.removedBuilds, ["v1/a"]);
  assert.equal(r1.bytesAfter, 1300);
  // limit 900: b goes, then the current build's oldest entries until under 80% (720 bytes)
  const r2 = pruneCache(dir, "v1/cur", { now: NOW, maxBytes: 900 });
  assert.deepEqual(r2.removedBuilds, ["v1/b"]);
  assert.equal(r2.removedFiles, 3);
  assert.equal(r2.bytesAfter, 700);
  assert.deepEqual(left(dir, "v1/cur"), ["3.json", "4.json", "5.json", "6.json", "7.json", "8.json", "9.json"]);
});

test("pruning runs about once a day (the cache directory's mtime), and cacheFor keeps entries in this build's directory", () => {
  const dir = cache({ "v1/cur": { age: 0, files: 1, size: 10 }, "v1/old": { age: 10 * DAY, files: 1, size: 10 } });
  utimesSync(dir, (NOW - 3600_000) / 1000, (NOW - 3600_000) / 1000);
  assert.equal(pruneCacheIfDue(dir, "v1/cur", { now: NOW }), undefined, "pruned an hour ago");
  assert.ok(existsSync(join(dir, "v1", "old")));
  const r = pruneCacheIfDue(dir, "v1/cur", { now: NOW + DAY });
  assert.deepEqual(r?.removedBuilds, ["v1/old"]);
  assert.equal(statSync(dir).mtimeMs, NOW + DAY);

  const home = mkdtempSync(join(tmpdir(), "crdkit-prune-home-"));
  const c = cacheFor(false, { XDG_CACHE_HOME: home });
  assert.ok(c instanceof SchemaCache);
  c.putVerdict("k", { ok: true, warnings: [] });
  assert.match(c.buildName, /^v1\/[0-9a-f]{16}$/);
  assert.deepEqual(readdirSync(join(home, "crdkit", c.buildName, "verdict")), ["k.json"]);
  assert.deepEqual(c.getVerdict("k"), { ok: true, warnings: [] });
  // another build's cache in the same directory does not see it
  assert.equal(new SchemaCache(join(home, "crdkit"), "crdkit 0.0.0 other build").getVerdict("k"), undefined);
});
