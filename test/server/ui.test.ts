/** `crdkit serve` serves the playground page at /ui/ (off with --no-ui / `ui: false`). */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runServe } from "../../src/cli/serve.js";
import { type RunningServer, startServer } from "../../src/server/server.js";
import { listeningUrl } from "./listening.js";

describe("/ui/", () => {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-ui-"));
  const empty = mkdtempSync(join(tmpdir(), "crdkit-ui-empty-"));
  let s: RunningServer;
  let off: RunningServer;
  let unbuilt: RunningServer;

  before(async () => {
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>page</title>");
    writeFileSync(join(dir, "main.js"), "export {};");
    writeFileSync(join(dir, "notes.txt"), "not served");
    s = await startServer({ ui: dir });
    off = await startServer({ ui: false });
    unbuilt = await startServer({ ui: empty });
  });

  after(async () => {
    await Promise.all([s.close(), off.close(), unbuilt.close()]);
    rmSync(dir, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  it("serves the page and its files with their types", async () => {
    const page = await fetch(`${s.url}/ui/`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(await page.text(), "<!doctype html><title>page</title>");
    const js = await fetch(`${s.url}/ui/main.js`);
    assert.equal(js.headers.get("content-type"), "text/javascript; charset=utf-8");
    assert.equal(await js.text(), "export {};");
    const head = await fetch(`${s.url}/ui/index.html`, { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-length"), "34");
  });

  it("redirects /ui to /ui/", async () => {
    const r = await fetch(`${s.url}/ui`, { redirect: "manual" });
    assert.equal(r.status, 301);
    assert.equal(r.headers.get("location"), "/ui/");
  });

  it("refuses other methods, unknown types and paths outside the page", async () => {
    assert.equal((await fetch(`${s.url}/ui/`, { method: "POST" })).status, 405);
    assert.equal((await fetch(`${s.url}/ui/notes.txt`)).status, 404);
    assert.equal((await fetch(`${s.url}/ui/missing.js`)).status, 404);
    assert.equal((await fetch(`${s.url}/ui/..%2F..%2Fetc%2Fpasswd`)).status, 404);
    assert.equal((await fetch(`${s.url}/ui/%E0%A4%A`)).status, 400);
  });

  it("leaves the API alone", async () => {
    const r = await fetch(`${s.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`);
    assert.equal(r.status, 200);
    assert.equal(((await r.json()) as { kind: string }).kind, "CustomResourceDefinitionList");
  });

  it("is off with ui: false, as the API server (404 page not found)", async () => {
    const r = await fetch(`${off.url}/ui/`);
    assert.equal(r.status, 404);
    const k = await fetch(`${off.url}/nope`);
    assert.equal(await r.text(), await k.text());
  });

  it("says how to build the page when it is not built", async () => {
    const r = await fetch(`${unbuilt.url}/ui/`);
    assert.equal(r.status, 404);
    assert.equal(await r.text(), "404: the playground page is not built: run `npm run build:web` in the crdkit directory\n");
  });

  it("crdkit serve --no-ui turns it off", async () => {
    const out: string[] = [];
    const ac = new AbortController();
    const done = runServe(["--listen", "127.0.0.1:0", "--quiet", "--no-ui"], { stdout: (t) => void out.push(t), stderr: () => {} }, ac.signal);
    try {
      const url = await listeningUrl(out, done);
      const r = await fetch(`${url}/ui/`);
      assert.equal(r.status, 404);
      const other = await fetch(`${url}/nope`);
      assert.equal(await r.text(), await other.text());
    } finally {
      ac.abort();
    }
    assert.equal(await done, 0);
  });
});
