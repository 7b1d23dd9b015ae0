/**
 * What dist/bundle/crdkit.cjs (the bundle bin/crdkit.js runs for `validate` and `check`) does to start
 * cheaply must not change answers: Go's regexp parser is read on first use (scripts/bundle.mjs swaps
 * src/go/regexp-go-module.ts for a require of dist/bundle/regexp-go.cjs), and the bundle is ASCII (non-ASCII characters of regular
 * expression literals escaped). Each case compares the bundle's output with the in-process CLI's, and
 * checks the Kubernetes texts. Needs `npm run build`.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, test } from "node:test";
import { runCli, tmpFiles } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BIN = join(ROOT, "bin", "crdkit.js");

const crd = (patterns: Record<string, string>) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
${Object.entries(patterns)
  .map(([k, p]) => `              ${k}: {type: string, pattern: ${JSON.stringify(p)}}`)
  .join("\n")}
              period:
                type: string
                x-kubernetes-validations:
                - rule: "duration(self) >= duration('1us')"
                  message: at least a microsecond
`;

const widget = (name: string, spec: Record<string, string>) =>
  `---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: ${name}}\nspec: ${JSON.stringify(spec)}\n`;

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function bundled(dir: string, ...args: string[]) {
  // a cache of its own: the first run writes the code cache entry, the second reads it
  const env = { ...process.env, XDG_CACHE_HOME: join(dir, "cache"), CRDKIT_NO_CACHE: "" };
  const runs = [0, 1].map(() => spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: "utf8", env }));
  assert.deepEqual(runs[1]!.stdout, runs[0]!.stdout);
  return { code: runs[1]!.status, stdout: runs[1]!.stdout, stderr: runs[1]!.stderr };
}

test("the bundle, its chunks and its regexp parser file are ASCII (one-byte source strings for V8)", () => {
  const files = readdirSync(join(ROOT, "dist", "bundle")).filter((f) => f.endsWith(".cjs"));
  assert.ok(files.includes("rules.cjs") && files.includes("regexp-go.cjs"), files.join(", "));
  for (const file of files.map((f) => join(ROOT, "dist", "bundle", f))) {
    const text = readFileSync(file, "latin1");
    const at = text.search(/[^\x00-\x7f]/);
    assert.equal(at, -1, `${file}: non-ASCII byte at ${at}: ${text.slice(at - 40, at + 10)}`);
  }
});

test("patterns outside the simple subset (flags, an invalid pattern) and µs durations: the bundle answers as the CLI in process", async () => {
  const dir = tmpFiles({
    "crd.yaml": crd({ name: "^(?i)[a-z]+$", host: "^([a-z0-9][a-z0-9-]*\\.)+[a-z]+$" }),
    "widgets.yaml":
      widget("ok", { name: "AbC", host: "a.example.com", period: "5µs" }) +
      widget("bad", { name: "Ab-1", host: "Example", period: "0.5μs" }),
  });
  dirs.push(dir);
  const args = ["validate", "--crds", "crd.yaml", "widgets.yaml"];
  const inProcess = await runCli(...args.map((a) => (a.endsWith(".yaml") ? join(dir, a) : a)));
  const fromBundle = bundled(dir, ...args);
  assert.equal(fromBundle.code, 1, fromBundle.stderr);
  assert.equal(fromBundle.stderr, "");
  assert.match(fromBundle.stdout, /spec\.name: Invalid value: "Ab-1": spec\.name in body should match '\^\(\?i\)\[a-z\]\+\$'/);
  assert.match(fromBundle.stdout, /spec\.period: Invalid value: "0\.5μs": at least a microsecond/);
  assert.match(fromBundle.stdout, /Summary: 2 resources: 1 valid, 1 invalid, 0 skipped/);
  assert.equal(fromBundle.stdout, inProcess.stdout.replaceAll(`${dir}/`, ""));

  // a pattern Go rejects: Go's error text through the bundle too
  const bad = tmpFiles({ "crd.yaml": crd({ name: "a**" }), "widgets.yaml": widget("w", { name: "a" }) });
  dirs.push(bad);
  const rejected = bundled(bad, ...args);
  const rejectedInProcess = await runCli(...args.map((a) => (a.endsWith(".yaml") ? join(bad, a) : a)));
  assert.match(rejected.stdout + rejected.stderr, /error parsing regexp: invalid nested repetition operator: `\*\*`/);
  assert.equal(rejected.code, rejectedInProcess.code);
  assert.equal(rejected.stdout, rejectedInProcess.stdout.replaceAll(`${bad}/`, ""));
});

test("a folder given as --crds and as input: warm runs answer as uncached ones", () => {
  const badCrd = readFileSync(join(ROOT, "examples", "crontab-crd.yaml"), "utf8")
    .replace("name: crontabs.stable.example.com", "name: wrong.stable.example.com")
    .replace("kind: CronTab", "kind: CronTabZ")
    .replace("plural: crontabs", "plural: crontabz")
    .replace("singular: crontab", "singular: crontabz")
    .replace("- ct", "- ctz");
  const dir = tmpFiles({
    "crontab-crd.yaml": readFileSync(join(ROOT, "examples", "crontab-crd.yaml"), "utf8"),
    "crontabs.yaml": readFileSync(join(ROOT, "examples", "crontab-invalid.yaml"), "utf8"),
    // fails the create checks (metadata.name must be <plural>.<group>): no decoded form is cached for it
    "bad-crd.yaml": badCrd,
  });
  const work = tmpFiles({});
  dirs.push(dir, work);
  const env = { ...process.env, XDG_CACHE_HOME: join(work, "cache"), CRDKIT_NO_CACHE: "" };
  const run = (extra: Record<string, string> = {}) =>
    spawnSync(process.execPath, [BIN, "validate", "--crds", ".", "."], { cwd: dir, encoding: "utf8", env: { ...env, ...extra } });
  const uncached = run({ CRDKIT_NO_CACHE: "1" });
  assert.equal(uncached.status, 1, uncached.stderr);
  assert.match(uncached.stdout, /bad-crd\.yaml:\d+:\d+: metadata\.name: Invalid value: "wrong\.stable\.example\.com": must be spec\.names\.plural\+"\."\+spec\.group/);
  assert.match(uncached.stdout, /crontabs\.yaml:\d+:\d+: spec\.replicas: Invalid value: 15: spec\.replicas in body should be less than or equal to 10/);
  for (let i = 0; i < 3; i++) {
    const r = run();
    assert.equal(r.stdout, uncached.stdout, `run ${i + 1}`);
    assert.equal(r.stderr, uncached.stderr);
    assert.equal(r.status, uncached.status);
  }
});

test("README's first command, warm: the CRD (also an input) is compiled from the cache without hashing it (node:crypto not loaded)", () => {
  const work = tmpFiles({});
  dirs.push(work);
  const modules = join(work, "modules.txt");
  const preload = join(work, "preload.cjs");
  writeFileSync(preload, `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(modules)}, process.moduleLoadList.join("\\n")));\n`);
  const env = { ...process.env, XDG_CACHE_HOME: join(work, "cache"), CRDKIT_NO_CACHE: "" };
  // (the checked-out files are older than file-key-memo's RACY_MS: their keys are remembered)
  const run = () => spawnSync(process.execPath, ["-r", preload, BIN, "validate", "--crds", "examples/crontab-crd.yaml", "examples/"], { cwd: ROOT, encoding: "utf8", env });
  const first = run();
  assert.match(first.stdout, /Summary: 7 resources: 4 valid, 3 invalid, 0 skipped/);
  assert.match(readFileSync(modules, "utf8"), /NativeModule crypto\b/, "the first run hashes the file and the CRD");
  for (let i = 0; i < 2; i++) {
    const r = run();
    assert.equal(r.stdout, first.stdout);
    assert.doesNotMatch(readFileSync(modules, "utf8"), /NativeModule crypto\b/);
  }
});
