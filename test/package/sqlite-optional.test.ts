/**
 * better-sqlite3 is optional: `crdkit validate` runs without it, and the SQLite store (used by
 * `crdkit serve`) says clearly that it is missing. The missing module is simulated by a `--require` hook
 * that makes it unresolvable, as after `npm install --omit=optional`.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { loadSqliteDriver, SQLITE_MISSING_MESSAGE, SqliteDriverMissingError } from "../../src/storage/sqlite-driver.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const HOOK = fileURLToPath(new URL("./fixtures/no-better-sqlite3.cjs", import.meta.url));
const CHILD = fileURLToPath(new URL("./cli-child.ts", import.meta.url));

function crdkitWithoutSqlite(...args: string[]) {
  return spawnSync(process.execPath, ["--require", HOOK, "--import", "tsx", CHILD, ...args], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
}

describe("optional better-sqlite3", () => {
  it("loadSqliteDriver turns a failed load into a clear error", () => {
    const missing = () => {
      const e = new Error("Cannot find module 'better-sqlite3'") as Error & { code: string };
      e.code = "MODULE_NOT_FOUND";
      throw e;
    };
    assert.throws(
      () => loadSqliteDriver(missing),
      (e: unknown) => e instanceof SqliteDriverMissingError && e.message === `${SQLITE_MISSING_MESSAGE}: Cannot find module 'better-sqlite3'`,
    );
    assert.throws(() => loadSqliteDriver(() => ({})), /better-sqlite3 did not export a Database constructor/);
  });

  it("loads the real module when it is installed", () => {
    assert.equal(typeof loadSqliteDriver(), "function");
  });

  it("crdkit validate runs without better-sqlite3", () => {
    const r = crdkitWithoutSqlite("validate", "--crds", "examples/crontab-crd.yaml", "examples/crontab-valid.yaml");
    assert.equal(r.stderr, "");
    assert.equal(r.status, 0);
    assert.match(r.stdout, / 0 invalid/);
  });

  it("crdkit serve --data without better-sqlite3 exits 1 with the message", () => {
    const dir = mkdtempSync(join(tmpdir(), "crdkit-nosqlite-"));
    try {
      const r = crdkitWithoutSqlite("serve", "--data", dir, "--listen", "127.0.0.1:0");
      assert.equal(r.status, 1);
      assert.equal(r.stdout, "");
      assert.equal(r.stderr, `crdkit serve: ${SQLITE_MISSING_MESSAGE}: Cannot find module 'better-sqlite3'\n`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("crdkit serve in memory without better-sqlite3 runs on the memory store", async () => {
    const child = spawn(process.execPath, ["--require", HOOK, "--import", "tsx", CHILD, "serve", "--listen", "127.0.0.1:0", "--quiet"], { cwd: ROOT });
    try {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
      const url = await new Promise<string>((resolve, reject) => {
        // A bound, so that a server that never listens fails the test instead of holding it.
        const timer = setTimeout(() => reject(new Error(`crdkit serve did not listen within 120 s: ${out}`)), 120_000);
        child.stdout.on("data", () => {
          const m = /listening on (\S+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        });
        child.on("exit", (code) => {
          clearTimeout(timer);
          reject(new Error(`crdkit serve exited with ${code}: ${out}`));
        });
      });
      const created = await fetch(`${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
        method: "POST",
        headers: { "Content-Type": "application/yaml" },
        body: readFileSync(join(ROOT, "examples/crontab-crd.yaml"), "utf8"),
      });
      assert.equal(created.status, 201);
      const list = (await (await fetch(`${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`)).json()) as { items: unknown[] };
      assert.equal(list.items.length, 1);
      child.kill("SIGTERM");
      assert.equal(await exited, 0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
