/**
 * An input file that may hold a CRD is decoded ahead to register its CRDs; its documents are then validated
 * from that decoding (not decoded a second time): the results are those of a file decoded again, in order,
 * with the same positions, and a path given twice is validated twice.
 */
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { runCli, tmpFiles } from "./helpers.js";

const CRD = readFileSync("examples/crontab-crd.yaml", "utf8");
// the backslash makes the file one that may hold a CRD too
const OBJECTS = `apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: a}
spec: {cronSpec: "* * * * *", image: "x\\\\y"}
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata: {name: b}
spec: {cronSpec: 1}
---
key: [unclosed
`;

test("documents of a file decoded ahead for its CRDs are validated as if decoded again", async () => {
  const d = tmpFiles({ "all.yaml": `${CRD}---\n${OBJECTS}`, "crd.yaml": CRD, "objs.yaml": OBJECTS });
  // the CRD and the objects in one input file, listed twice
  const ahead = await runCli("validate", "-o", "json", join(d, "all.yaml"), join(d, "all.yaml"));
  const results = (JSON.parse(ahead.stdout) as { results: { file: string; index: number; status: string; line: number; column: number; errors: { message: string; line: number }[] }[] }).results;
  const brief = results.map((r) => `${r.file.slice(d.length + 1)}#${r.index} ${r.status} ${r.line}:${r.column} ${r.errors.map((e) => `${e.line} ${e.message}`).join("; ")}`);
  // (the output of the build before documents were kept from the look-ahead, byte for byte)
  const cronSpec = 'spec.cronSpec: Invalid value: "integer": spec.cronSpec in body must be of type string: "integer"';
  const objects = [
    "all.yaml#1 valid 59:1 ",
    `all.yaml#2 invalid 64:1 67 ${cronSpec}`,
    "all.yaml#3 invalid 70:1 70 yaml: line 1: did not find expected ',' or ']'",
  ];
  // the input CRDs are reported first, then each file's other documents
  assert.deepEqual(brief, ["all.yaml#0 valid 3:1 ", "all.yaml#0 valid 3:1 ", ...objects, ...objects]);
  // the objects validate the same when their CRD comes with --crds (their file is not decoded ahead)
  const separate = await runCli("validate", "-o", "json", "--crds", join(d, "crd.yaml"), join(d, "objs.yaml"));
  const sep = (JSON.parse(separate.stdout) as { results: { status: string; errors: { message: string }[] }[] }).results;
  assert.deepEqual(
    sep.map((r) => `${r.status} ${r.errors.map((e) => e.message).join("; ")}`),
    results.slice(2, 5).map((r) => `${r.status} ${r.errors.map((e) => e.message).join("; ")}`),
  );
});
