import * as assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

test('"-" reads standard input; results are reported as <stdin>', () => {
  const main = pathToFileURL(resolve("src/cli/main.ts")).href;
  const r = spawnSync(
    process.execPath,
    ["--import", "tsx", "-e", `import(${JSON.stringify(main)}).then((m) => m.main(["validate", "--crds", "examples/crontab-crd.yaml", "-"])).then((c) => { process.exitCode = c; })`],
    { input: readFileSync("examples/crontab-invalid.yaml"), encoding: "utf8" },
  );
  assert.equal(r.status, 1);
  assert.equal(r.stdout.split("\n")[0], "<stdin>:9:13: spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10");
});
