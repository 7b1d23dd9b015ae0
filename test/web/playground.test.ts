/**
 * The playground in a real browser: Debian's chromium (headless) driven by playwright-core against the page
 * built from the package's browser entry and served by `crdkit serve` at /ui/. Types a CRD and an invalid
 * object, reads Kubernetes' exact messages from the page, checks the markers' lines, the stored object, the
 * CEL rules and CEL tabs, the URL state, the server's CRD list and that nothing is fetched after load;
 * keeps a screenshot in test-artifacts/.
 */
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import type { BrowserContext, Page } from "playwright-core";
import { buildWeb, ENGINE_BUDGET_GZIP, type WebBuild } from "../../scripts/build-web.js";
import { type RunningServer, startServer } from "../../src/server/server.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const ARTIFACTS = join(ROOT, "test-artifacts");
const haveChromium = existsSync(CHROMIUM);
const skip = !haveChromium && !process.env["CI"] ? `chromium not found at ${CHROMIUM} (apt-get install -y chromium; CI installs it)` : false;

const CRD = readFileSync(join(ROOT, "examples/crontab-crd.yaml"), "utf8");
const INVALID = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "every minute"
  image: my-awesome-cron-image
  replicas: 15
`;
const REPLICAS = "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10";
const CRON =
  "spec.cronSpec: Invalid value: \"every minute\": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'";

describe("playground in chromium", { skip }, () => {
  let build: WebBuild;
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;
  const outDir = mkdtempSync(join(tmpdir(), "crdkit-web-"));

  before(async () => {
    assert.ok(existsSync(join(ROOT, "dist/browser.js")), "dist/browser.js is missing: run `npm run build` first");
    build = await buildWeb(outDir);
    server = await startServer({ ui: outDir });
    const created = await fetch(`${server.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, {
      method: "POST",
      headers: { "Content-Type": "application/yaml" },
      body: CRD,
    });
    assert.equal(created.status, 201, await created.text());
    const { chromium } = await import("playwright-core");
    userDataDir = mkdtempSync(join(tmpdir(), "crdkit-chromium-"));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
      viewport: { width: 1400, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on("console", (m) => {
      if (m.type() === "error") process.stderr.write(`console: ${m.text()}\n`);
    });
    page.on("pageerror", (e) => process.stderr.write(`page error: ${e.message}\n`));
  });

  after(async () => {
    await context?.close();
    await server?.close();
    rmSync(outDir, { recursive: true, force: true });
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  /** Waits until the worker's answer to the latest edit is on the page. */
  async function settled(): Promise<void> {
    await page.waitForFunction('document.body.dataset.busy === "false"');
  }

  async function replaceText(pane: "crd" | "object" | "old", text: string): Promise<void> {
    await page.click(`#ed-${pane} .cm-content`);
    await page.keyboard.press("Control+A");
    if (text === "") await page.keyboard.press("Delete");
    else await page.keyboard.insertText(text);
  }

  /** The 1-based lines of the error underlines in a pane (all lines of these small documents are rendered). */
  function markedLines(pane: string): Promise<number[]> {
    return page.$$eval(`#ed-${pane} .cm-lintRange-error`, (marks) =>
      marks.map((m) => {
        const line = m.closest(".cm-line")!;
        return [...line.parentElement!.children].filter((c) => c.classList.contains("cm-line")).indexOf(line) + 1;
      }),
    );
  }

  async function messages(): Promise<{ pos: string; text: string }[]> {
    return page.$$eval("#object-messages li.msg", (lis) =>
      lis.map((li) => ({ pos: li.querySelector(".pos")!.textContent ?? "", text: li.querySelector(".text")!.textContent ?? "" })),
    );
  }

  it("is built from the package's browser entry within the engine budget", () => {
    const meta = JSON.parse(readFileSync(join(ROOT, "web/.build/meta-worker.json"), "utf8")) as { inputs: Record<string, unknown> };
    assert.ok(Object.hasOwn(meta.inputs, "dist/browser.js"), "worker.js imports crdkit/browser (dist/browser.js)");
    assert.ok(build.engineGzip <= ENGINE_BUDGET_GZIP, `engine ${build.engineGzip} bytes gzipped`);
  });

  it("validates a typed CRD and invalid object with Kubernetes' messages and markers", async () => {
    await page.goto(`${server.url}/ui/`);
    await settled();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await context.setOffline(true);
    try {

    await replaceText("old", "");
    await replaceText("crd", CRD);
    await replaceText("object", INVALID.trimEnd());
    await settled();
    assert.equal(await page.textContent("#verdict-status"), "POST (create) → 422 Unprocessable Entity");
    assert.deepEqual(await messages(), [
      { pos: "6:13", text: CRON },
      { pos: "8:13", text: REPLICAS },
    ]);
    assert.deepEqual((await markedLines("object")).sort(), [6, 8]);
    assert.match((await page.textContent("#crd-messages")) ?? "", /CronTab\.stable\.example\.com: valid \(served: v1\)/);

    // typing, key by key: a new line under spec (the editor keeps the indentation) with an unknown field
    await page.click("#ed-object .cm-content");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("bogus: 1");
    await settled();
    assert.equal(await page.textContent("#verdict-status"), "POST (create) → 400 Bad Request");
    assert.deepEqual(await messages(), [{ pos: "9:10", text: 'unknown field "spec.bogus"' }]);
    assert.equal(
      await page.textContent("#failure"),
      'CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.bogus"',
    );
    assert.deepEqual(await markedLines("object"), [9]);

    // Warn: the unknown field becomes a warning, the object is pruned; replicas fixed → 201
    await page.selectOption("#field-validation", "Warn");
    await replaceText("object", INVALID.replace("replicas: 15", "replicas: 3").replace('"every minute"', '"*/5 * * * *"') + "  bogus: 1\n");
    await settled();
    assert.equal(await page.textContent("#verdict-status"), "POST (create) → 201 Created");
    assert.deepEqual(await page.$$eval("#object-warnings li .text", (l) => l.map((x) => x.textContent)), ['unknown field "spec.bogus"']);
    assert.equal(await page.locator("#ed-object .cm-lintRange-warning").count(), 1);

    await page.click('[data-tab="stored"]');
    await settled();
    const stored = JSON.parse((await page.textContent("#stored")) ?? "");
    assert.deepEqual(stored, {
      apiVersion: "stable.example.com/v1",
      kind: "CronTab",
      metadata: { generation: 1, name: "my-new-cron-object", namespace: "default" },
      spec: { cronSpec: "*/5 * * * *", image: "my-awesome-cron-image", replicas: 3, timeZone: "Etc/UTC" },
    });

    await page.click('[data-tab="cel"]');
    await page.fill("#cel-expr", "");
    await page.click("#cel-expr");
    await page.keyboard.type("self.spec.replicas * 2 + size(self.spec.timeZone)");
    await settled();
    assert.equal(await page.textContent("#cel-result .cel-value"), "13");
    assert.match((await page.textContent("#cel-result .cel-meta")) ?? "", /^type int · cost \d+ · estimated max cost \d+$/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "playground-cel.png") });
    await page.fill("#cel-expr", "self.spec.nope");
    await settled();
    assert.equal(await page.textContent("#cel-result .cel-error"), "compilation failed: ERROR: <input>:1:10: undefined field 'nope'\n | self.spec.nope\n | .........^");

    assert.deepEqual(requests, [], "no network requests after load");
    } finally {
      await context.setOffline(false);
    }
  });

  it("keeps the case in the URL", async () => {
    const url = (await page.evaluate("location.href")) as string;
    assert.match(url, /#z=/);
    await page.goto("about:blank");
    await page.goto(url);
    await settled();
    assert.equal(await page.inputValue("#cel-expr"), "self.spec.nope");
    assert.equal(await page.inputValue("#field-validation"), "Warn");
    assert.equal(await page.textContent("#verdict-status"), "POST (create) → 201 Created");
  });

  it("runs transition rules on update, with per-rule costs", async () => {
    await page.selectOption("#field-validation", "Strict");
    await page.selectOption("#example", "transition");
    await settled();
    assert.equal(await page.textContent("#verdict-status"), "PUT (update) → 422 Unprocessable Entity");
    assert.deepEqual(await messages(), [
      { pos: "7:3", text: "spec: Invalid value: replicas cannot be scaled down" },
      { pos: "7:11", text: 'spec.engine: Invalid value: "mysql": engine is immutable' },
    ]);
    await page.click('[data-tab="rules"]');
    const rows = await page.$$eval("#rules-body tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
    assert.deepEqual(rows, [
      ["spec", "self.replicas >= oldSelf.replicas", "fail", "5", "5"],
      ["spec.engine", "self == oldSelf", "fail", "3", "314575"],
    ]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "playground-rules.png") });
  });

  it("shows a CRD whose rule exceeds the cost limit with Kubernetes' message at its line", async () => {
    await page.selectOption("#example", "cost");
    await settled();
    assert.equal(await page.textContent("#verdict-status"), "The CustomResourceDefinition is invalid");
    const crdMsgs = await page.$$eval("#crd-messages li.msg", (l) => l.map((x) => [x.getAttribute("data-line"), x.querySelector(".text")!.textContent]));
    assert.deepEqual(crdMsgs[0], [
      "26",
      "spec.validation.openAPIV3Schema.properties[spec].properties[names].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
    ]);
    assert.ok((await markedLines("crd")).includes(26));
  });

  it("loads a CRD of the server it is served from, and keeps a screenshot", async () => {
    await page.selectOption("#example", "crontab");
    await settled();
    await page.waitForSelector("#server-crds:not([hidden])");
    await page.selectOption("#server-crd", { label: "crontabs.stable.example.com" });
    await settled();
    const crdText = await page.$eval("#ed-crd .cm-content", (e) => e.textContent ?? "");
    assert.match(crdText, /"name": "crontabs\.stable\.example\.com"/);
    assert.doesNotMatch(crdText, /managedFields|"uid"/);
    assert.deepEqual((await messages()).map((m) => m.text), [CRON, REPLICAS]);
    await page.click('[data-tab="verdict"]');
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, "playground.png"), fullPage: false });
  });
});
