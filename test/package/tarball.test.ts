/**
 * The npm package as users get it: `npm pack`, then `npm install --omit=optional` of the tarball into an
 * empty project. Nothing native is installed, `npx crdkit validate` works, `npx crdkit serve` explains that
 * better-sqlite3 is missing, the documented exports and subpath exports load, and the built playground
 * ships in the tarball. Prints the install time and size.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, it } from "node:test";
import { buildWeb } from "../../scripts/build-web.js";
import { type PackInstall, packAndInstall } from "../../scripts/pack-install.js";
import { SQLITE_MISSING_MESSAGE } from "../../src/storage/sqlite-driver.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

describe("packed tarball installed with --omit=optional", () => {
  let r: PackInstall;

  before(async () => {
    assert.ok(existsSync(join(ROOT, "dist/browser.js")), "dist/ is missing: run `npm run build` first");
    if (!existsSync(join(ROOT, "web/dist/index.html"))) await buildWeb();
    r = packAndInstall();
    process.stdout.write(
      `# tarball ${(r.tarballBytes / 1024).toFixed(0)} KB; install ${(r.installMs / 1000).toFixed(1)} s; node_modules ${(r.installedBytes / 1024).toFixed(0)} KB\n`,
    );
  });

  after(() => {
    if (r) rmSync(r.dir, { recursive: true, force: true });
  });

  it("ships the compiled library with types and the built playground", () => {
    for (const f of ["dist/index.js", "dist/index.d.ts", "dist/node.js", "dist/node.d.ts", "dist/browser.js", "dist/browser.d.ts", "dist/cel/index.d.ts", "dist/cli/main.js", "bin/crdkit.js", "web/dist/index.html", "web/dist/worker.js", "web/dist/main.js"]) {
      assert.ok(r.files.includes(f), `${f} in the tarball`);
    }
    assert.ok(!r.files.some((f) => f.endsWith(".test.js") || f.startsWith("src/") || f.startsWith("web/src/")));
  });

  it("ships the code and the types of every export", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, string | Record<string, string>> };
    for (const [sub, entry] of Object.entries(pkg.exports)) {
      const targets = typeof entry === "string" ? [entry] : Object.values(entry);
      for (const t of targets) assert.ok(r.files.includes(t.replace(/^\.\//, "")), `${sub}: ${t} in the tarball`);
      if (typeof entry !== "string") assert.ok(entry["types"], `${sub} has types`);
    }
  });

  it("installs nothing that builds native code, and no better-sqlite3", () => {
    assert.deepEqual(r.native, []);
    assert.ok(!r.packages.includes("better-sqlite3"));
    assert.ok(r.packages.includes("crdkit"));
  });

  it("runs crdkit validate", () => {
    assert.equal(r.validate.stderr, "");
    assert.equal(r.validate.status, 0);
    assert.match(r.validate.stdout, / 0 invalid/);
  });

  it("crdkit serve --data says that better-sqlite3 is missing", () => {
    assert.equal(r.serve.status, 1);
    assert.equal(r.serve.stderr, `crdkit serve: ${SQLITE_MISSING_MESSAGE}: Cannot find module 'better-sqlite3'\n`);
  });

  it("exports what the README documents, the subpaths and the browser entry", () => {
    const code = `
      import * as main from "crdkit";
      import * as browser from "crdkit/browser";
      import * as cel from "crdkit/cel";
      import * as rules from "crdkit/rules";
      import * as io from "crdkit/io";
      import * as crdv from "crdkit/crdvalidation";
      const need = ["compileCrd", "tryCompileCrd", "decodeDocuments", "errorString", "aggregateMessage", "invalidStatus",
        "validateCrdCreate", "validateCrdUpdate", "nonStructuralSchemaCondition", "crdValidationOptions", "deepEqual", "Float64"];
      const missing = need.filter((n) => typeof main[n] === "undefined");
      const crd = main.decodeDocuments(\`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: xs.example.com}
spec:
  group: example.com
  scope: Global
  names: {plural: xs, kind: X}
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]
\`)[0].value;
      const checked = main.validateCrdCreate(crd, main.crdValidationOptions);
      console.log(JSON.stringify({
        missing,
        crdErrors: checked.errors.map(main.errorString),
        browser: typeof browser.analyze, cel: typeof cel.Env, rules: typeof rules.evaluateExpression,
        io: typeof io.decodeDocuments, crdv: typeof crdv.nonStructuralSchemaCondition,
      }));`;
    const out = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: join(r.dir, "project"), encoding: "utf8" }));
    assert.deepEqual(out, {
      missing: [],
      crdErrors: ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"'],
      browser: "function",
      cel: "function",
      rules: "function",
      io: "function",
      crdv: "function",
    });
  });
});
