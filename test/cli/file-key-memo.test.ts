/**
 * A CRD file's cache key is remembered by the file's stat (device, inode, size, mtime, ctime): an unchanged
 * file is neither read nor hashed again, any change (even one that keeps size and mtime) is seen, and a file
 * changed within RACY_MS of being hashed is not trusted.
 */
import * as assert from "node:assert/strict";
import { mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { keyedCrdFile, RACY_MS } from "../../src/cli/file-key-memo.js";
import { SchemaCache } from "../../src/cli/schema-cache.js";

/** A cache that counts how many texts it hashed. */
class CountingCache extends SchemaCache {
  hashed = 0;
  override fileKey(text: string): string {
    this.hashed++;
    return super.fileKey(text);
  }
}

function setup(): { cache: CountingCache; file: string } {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-filekey-"));
  const file = join(dir, "crds.yaml");
  writeFileSync(file, "kind: CustomResourceDefinition\n");
  return { cache: new CountingCache(join(dir, "cache"), "test build"), file };
}

/** A clock well past the file's times (its times are settled when the key is recorded). */
const later = () => Date.now() + 10 * RACY_MS;

test("file key: an unchanged file is not read or hashed again; its text is still there on demand", () => {
  const { cache, file } = setup();
  const a = keyedCrdFile(cache, file, later);
  assert.equal(cache.hashed, 1);
  const b = keyedCrdFile(cache, file, later);
  assert.equal(cache.hashed, 1);
  assert.equal(b.key, a.key);
  assert.equal(b.key, cache.fileKey(readFileSync(file, "utf8")));
  assert.equal(b.text(), "kind: CustomResourceDefinition\n");
});

test("file key: a change that keeps the size and the modification time is seen (the change time moves)", () => {
  const { cache, file } = setup();
  const a = keyedCrdFile(cache, file, later);
  const st = statSync(file);
  writeFileSync(file, "kind: CustomResourceDefinitiON\n");
  utimesSync(file, st.atime, st.mtime);
  const b = keyedCrdFile(cache, file, later);
  assert.equal(cache.hashed, 2);
  assert.notEqual(b.key, a.key);
  assert.equal(b.text(), "kind: CustomResourceDefinitiON\n");
});

test("file key: a file whose times are within RACY_MS of its hashing is hashed again next time", () => {
  const { cache, file } = setup();
  // Hashed at the moment the file was written (a clock, not the wall: a loaded machine may pause for RACY_MS).
  const justWritten = () => statSync(file).mtimeMs;
  keyedCrdFile(cache, file, justWritten); // not trusted
  keyedCrdFile(cache, file, justWritten);
  assert.equal(cache.hashed, 2);
});

test("file key: a missing file is an input error, as reading it is", () => {
  const { cache, file } = setup();
  assert.throws(() => keyedCrdFile(cache, `${file}.missing`), /cannot read .*crds\.yaml\.missing: ENOENT/);
});
