/** Runs the library example of README.md and compares its output with the output shown there. */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

function block(readme: string, marker: string): string {
  const at = readme.indexOf(`<!-- ${marker} -->`);
  assert.ok(at >= 0, `marker ${marker} in README.md`);
  const start = readme.indexOf("\n", readme.indexOf("```", at)) + 1;
  return readme.slice(start, readme.indexOf("\n```", start) + 1);
}

test("README library example runs and prints what README shows", () => {
  const readme = readFileSync("README.md", "utf8");
  const code = block(readme, "example:library").replace(
    'from "crdkit"',
    `from ${JSON.stringify(pathToFileURL(resolve("src/node.ts")).href)}`,
  );
  const dir = mkdtempSync(join(tmpdir(), "crdkit-readme-"));
  const file = join(dir, "example.ts");
  writeFileSync(file, code);
  const out = execFileSync(process.execPath, ["--import", "tsx", file], { encoding: "utf8", cwd: process.cwd() });
  assert.equal(out, block(readme, "example:library-output"));
});
