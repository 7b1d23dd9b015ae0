/** Streaming output writes exactly what the formatter writes for all results at once. */
import * as assert from "node:assert/strict";
import { test } from "node:test";
import { formatGithub } from "../../src/cli/output/github.js";
import { formatJson } from "../../src/cli/output/json.js";
import { formatJunit } from "../../src/cli/output/junit.js";
import { type Formatter, StreamingOutput } from "../../src/cli/output/stream.js";
import { formatText } from "../../src/cli/output/text.js";
import { summarize } from "../../src/cli/results.js";
import { runValidate } from "../../src/cli/run-validate.js";

const results = runValidate({
  crds: ["examples/crontab-crd.yaml"],
  old: [],
  inputs: ["examples/", "test/cli/"],
  fieldValidation: "Warn",
  showObject: false,
});

const formatters: [string, Formatter][] = [
  ["text", (rs, s) => formatText(rs, s, { color: false, verbose: false })],
  ["text verbose colour", (rs, s) => formatText(rs, s, { color: true, verbose: true })],
  ["json", formatJson],
  ["github", formatGithub],
  ["junit (buffered: its header holds the counts)", formatJunit],
];

for (const [name, format] of formatters) {
  test(`streamed ${name} output equals the formatter's`, () => {
    assert.ok(results.some((r) => r.status === "invalid") && results.some((r) => r.status === "valid"));
    for (const rs of [results, results.slice(0, 1), []]) {
      let out = "";
      const s = new StreamingOutput(format, (x) => {
        out += x;
      });
      for (const r of rs) s.add(r);
      const summary = s.end();
      assert.deepEqual(summary, summarize(rs));
      assert.equal(out, format(rs, summary));
    }
  });
}
