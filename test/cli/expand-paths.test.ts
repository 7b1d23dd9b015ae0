/**
 * expandPaths (src/cli/files.ts): which files a directory input stands for, and in which order. The walk
 * takes entry types from the directory listing and stats only links: links to files and directories are
 * followed, dangling ones skipped, as when every entry was stat'ed.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { InputError, expandPaths } from "../../src/cli/files.js";

const root = mkdtempSync(join(tmpdir(), "crdkit-expand-"));
after(() => rmSync(root, { recursive: true, force: true }));

test("a directory: YAML and JSON files in code-unit order, subdirectories and links followed, hidden and node_modules left out", () => {
  const dir = join(root, "in");
  const outside = join(root, "outside");
  mkdirSync(join(dir, "sub"), { recursive: true });
  mkdirSync(join(dir, "node_modules"));
  mkdirSync(join(dir, ".git"));
  mkdirSync(outside);
  for (const f of ["b.yaml", "B.yml", "a.json", "\u00e9.yaml", "z.YAML", "notes.txt", ".hidden.yaml", "sub/c.yaml", "node_modules/x.yaml", ".git/y.yaml"]) {
    writeFileSync(join(dir, f), "{}\n");
  }
  writeFileSync(join(outside, "linked.yaml"), "{}\n");
  mkdirSync(join(outside, "d"));
  writeFileSync(join(outside, "d", "in-linked-dir.yml"), "{}\n");
  symlinkSync(join(outside, "linked.yaml"), join(dir, "link.yaml"));
  symlinkSync(join(outside, "d"), join(dir, "linkdir"));
  symlinkSync(join(outside, "missing.yaml"), join(dir, "dangling.yaml"));
  const rel = (ps: string[]) => ps.map((p) => p.slice(dir.length + 1));
  assert.deepEqual(rel(expandPaths([dir])), ["B.yml", "a.json", "b.yaml", "link.yaml", "linkdir/in-linked-dir.yml", "sub/c.yaml", "z.YAML", "\u00e9.yaml"]);
  // exclude sees every path before it is read or walked
  assert.deepEqual(rel(expandPaths([dir], (p) => p.endsWith("sub") || p.endsWith("link.yaml"))), ["B.yml", "a.json", "b.yaml", "linkdir/in-linked-dir.yml", "z.YAML", "\u00e9.yaml"]);
});

test("named files are kept whatever their extension; a missing path is an InputError", () => {
  const f = join(root, "named.txt");
  writeFileSync(f, "{}\n");
  assert.deepEqual(expandPaths([f, "-"]), [f, "-"]);
  assert.throws(() => expandPaths([join(root, "nope")]), (e: unknown) => e instanceof InputError && /cannot read .*nope: no such file or directory/.test(e.message));
});
