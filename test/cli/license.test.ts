/** The Apache-2.0 licence named in package.json is in the repository and in the published package. */
import * as assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";

test("LICENSE is the full Apache License 2.0 text, as package.json says", () => {
  const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { license: string; files: string[] };
  assert.equal(pkg.license, "Apache-2.0");
  assert.ok(pkg.files.includes("LICENSE"));
  const text = readFileSync("LICENSE", "utf8");
  assert.match(text, /^\s+Apache License\n\s+Version 2\.0, January 2004\n/);
  assert.match(text, /END OF TERMS AND CONDITIONS/);
  // the canonical https://www.apache.org/licenses/LICENSE-2.0.txt
  assert.equal(createHash("sha256").update(text).digest("hex"), "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30");
});

test("npm pack includes LICENSE", () => {
  const out = execFileSync("npm", ["pack", "--dry-run", "--ignore-scripts", "--json"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  assert.ok(files.includes("LICENSE"), files.join(", "));
});
