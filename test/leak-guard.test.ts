/**
 * test/leak-guard.ts, run as `npm test` runs it (the runner preloading it into a file's process) on fixture
 * files written to a temporary directory: a file that ends by itself is untouched, a leaking file and a
 * hung test are reported by name, their children and grandchildren killed, and every event still reaches
 * the runner.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { until } from "./storage/until.js";

const ROOT = resolve(import.meta.dirname, "..");
const GUARD = join(ROOT, "test", "leak-guard.ts");
const dir = mkdtempSync(join(tmpdir(), "leak-guard-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const FIXTURES: Record<string, string> = {
  "clean.test.ts": `
import { test } from "node:test";
test("one", () => {});
test("two", async () => { await new Promise((r) => setTimeout(r, 10)); });
`,
  "leak.test.ts": `
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { test } from "node:test";
test("leaves a server, a timer and a child with a grandchild behind", async () => {
  await new Promise<void>((r) => createServer().listen(0, "127.0.0.1", r));
  setInterval(() => {}, 1000);
  spawn("sh", ["-c", "sleep 300 & sleep 300"], { stdio: "ignore" });
});
test("passes", () => {});
`,
  "chatty.test.ts": `
import { test } from "node:test";
test("leaves a timer behind that prints forever", () => {
  setInterval(() => console.log("tick"), 50);
});
`,
  "hang.test.ts": `
import { describe, it } from "node:test";
describe("a suite whose first test never ends", () => {
  it("never ends", () => new Promise(() => { setInterval(() => {}, 1000); }));
  for (let i = 0; i < 3000; i++) it(\`pending test \${i}: a name long enough that the runner's pipe fills \${"x".repeat(100)}\`, () => {});
});
`,
};
for (const [name, text] of Object.entries(FIXTURES)) writeFileSync(join(dir, name), text);

interface Run {
  code: number | null;
  out: string;
}

/** Runs node:test's runner with the guard on one fixture; kills the runner's whole process group at the end. */
async function runGuarded(fixture: string, env: Record<string, string> = {}): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv["NODE_TEST_CONTEXT"]; // else the runner thinks it runs inside a test file and runs nothing
  const child = spawn(process.execPath, ["--import", "tsx", "--import", GUARD, "--test", "--test-reporter=spec", join(dir, fixture)], {
    cwd: ROOT,
    env: childEnv,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  try {
    return await new Promise<Run>((resolvePromise, reject) => {
      const limit = setTimeout(() => reject(new Error(`the runner did not end within 120 s:\n${out}`)), 120_000);
      child.once("error", (err) => {
        clearTimeout(limit);
        reject(err);
      });
      child.once("close", (code) => {
        clearTimeout(limit);
        resolvePromise({ code, out });
      });
    });
  } finally {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    } catch {
      // the group has ended
    }
  }
}

/** The runner's summary line `ℹ <name> <n>`. */
function summary(out: string, name: string): number | undefined {
  const m = new RegExp(`^ℹ ${name} (\\d+)$`, "m").exec(out);
  return m ? Number(m[1]) : undefined;
}

/** Whether a process runs (a killed one not yet reaped is a zombie, state Z, and does not count). */
function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

describe("leak guard", () => {
  it("leaves a file that ends by itself alone", async () => {
    const { code, out } = await runGuarded("clean.test.ts");
    assert.equal(code, 0, out);
    assert.doesNotMatch(out, /leak-guard/);
    assert.equal(summary(out, "tests"), 2);
    assert.equal(summary(out, "pass"), 2);
  });

  it("fails a file that leaks, naming what is left, and kills its child and grandchild", async () => {
    const { code, out } = await runGuarded("leak.test.ts", { CRDKIT_LEAK_GRACE_MS: "500" });
    assert.equal(code, 1, out);
    const file = join(dir, "leak.test.ts");
    const head = /^leak-guard: .*leak\.test\.ts: did not end 0\.5 s after its last test and after hook finished; still active: (.*)$/m.exec(out);
    assert.ok(head, out);
    // the leaked handles (a file read under way may be listed too)
    const active = head[1]!.split(", ");
    for (const leaked of ["TCPServerWrap", "ProcessWrap", "Timeout"]) assert.ok(active.includes(leaked), head[0]);
    const killed = [...out.matchAll(/^leak-guard: killed child process (\d+): (.*)$/gm)].map((m) => [Number(m[1]), m[2]] as const);
    assert.deepEqual(
      killed.map(([, cmd]) => cmd),
      ["sh -c sleep 300 & sleep 300", "sleep 300", "sleep 300"],
    );
    assert.match(out, /^leak-guard: close servers, stores, sockets and timers and stop child processes in the test's finally\/after; failing the file$/m);
    assert.match(out, new RegExp(`^✖ ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(`, "m"));
    assert.equal(summary(out, "tests"), 3); // the two tests, and the file itself as the failing one
    assert.equal(summary(out, "pass"), 2);
    assert.equal(summary(out, "fail"), 1);
    await until(() => killed.every(([pid]) => !alive(pid)));
  });

  it("fails a leaking file whose output never stops, at six times the grace", async () => {
    const { code, out } = await runGuarded("chatty.test.ts", { CRDKIT_LEAK_GRACE_MS: "500" });
    assert.equal(code, 1, out.slice(-2000));
    assert.match(out, /^leak-guard: .*chatty\.test\.ts: did not end 0\.5 s after its last test and after hook finished; still active: .*\bTimeout\b/m);
    assert.match(out, /^tick$/m);
    assert.equal(summary(out, "tests"), 2);
    assert.equal(summary(out, "fail"), 1);
  });

  it("stops a hung test by name and still delivers every event of the file", async () => {
    const { code, out } = await runGuarded("hang.test.ts", { CRDKIT_TEST_LIMIT_MS: "1000" });
    assert.equal(code, 1, out.slice(0, 2000));
    assert.match(out, /^leak-guard: .*hang\.test\.ts: test "never ends" did not end within 1 s; still active: .*\bTimeout\b/m);
    assert.match(out, /^leak-guard: bound every wait in the test; failing the file$/m);
    // the hung test and the 3000 it kept from running, all reported (as cancelled) before the process exits
    assert.equal(summary(out, "tests"), 3001);
    assert.equal(summary(out, "cancelled"), 3001);
    assert.equal(summary(out, "suites"), 1);
    assert.equal(out.match(/^ {2}✖ pending test \d+:/gm)?.length, 3000);
  });
});
