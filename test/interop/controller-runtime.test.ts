/**
 * A controller written with controller-runtime (tools/controller-e2e: client-go's informers, dynamic RESTMapper,
 * typed apiextensions client — protobuf bodies —, scale, server-side apply, patches, watches) run against
 * `crdkit serve`, its observations compared line by line with the ones recorded from the real
 * apiextensions-apiserver (test/golden/controller/controller-e2e.jsonl, `npm run golden:controller`). Needs the
 * Go-built program (scripts/go-tools.mjs; .ci/run builds it in the background while `npm test` runs).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { goTool } from "./go-tools.js";

const { path: binary, skip } = goTool("controller-e2e", "CONTROLLER_E2E");
const recorded = readFileSync(join(import.meta.dirname, "..", "golden", "controller", "controller-e2e.jsonl"), "utf8").trim().split("\n");

/** Runs the controller against `url`; resolves with its exit code and observation lines. */
function runController(url: string): Promise<{ code: number | null; lines: string[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary!, ["--server", url, "--wait", "60s"], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c));
    child.stderr.on("data", (c: Buffer) => (err += c));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, lines: out.trim().split("\n").filter((l) => l !== ""), stderr: err }));
  });
}

describe("controller-runtime against crdkit serve", { skip, timeout: 600_000 }, () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({});
  });
  after(async () => {
    await s?.close();
  });

  it("observes what it observes against the real apiextensions-apiserver", async () => {
    const run = await runController(s.url);
    assert.equal(run.code, 0, `controller-e2e failed:\n${run.lines.join("\n")}\n${run.stderr.slice(-3000)}`);
    assert.equal(run.lines.length, recorded.length);
    for (let i = 0; i < recorded.length; i++) {
      const want = JSON.parse(recorded[i]!) as { step: string };
      assert.deepEqual(JSON.parse(run.lines[i]!), want, `step ${i + 1}: ${want.step}`);
    }
  });
});
