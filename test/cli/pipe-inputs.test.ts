/**
 * Inputs that can be read only once besides `-`: a pipe named by its path, as a shell's process substitution
 * gives it (`crdkit validate --crds <(…) <(helm template …)` is `/dev/fd/N`), and a named FIFO. Each is read
 * once into a spool, so the first pass (registering the CRDs among the inputs) and the validation both see its
 * documents, and a FIFO is not opened a second time (which would wait for a writer that never comes).
 */
import * as assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";

const main = pathToFileURL(resolve("src/cli/main.ts")).href;
const CRD = readFileSync("examples/crontab-crd.yaml", "utf8");
const INVALID = readFileSync("examples/crontab-invalid.yaml", "utf8");
const FIRST_LINE = "spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10";

/** The node command line that runs `crdkit ARGS` (from the sources), as a shell word list. */
function crdkitWords(args: string): string {
  const code = `import(${JSON.stringify(main)}).then((m) => m.main(process.argv.slice(1))).then((c) => { process.exitCode = c; })`;
  return `${JSON.stringify(process.execPath)} --import tsx -e '${code}' ${args}`;
}

/** Runs a bash command line (process substitution needs bash); killed after 60 s. */
function bash(line: string, env: Record<string, string>): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync("bash", ["-c", line], { encoding: "utf8", timeout: 60_000, env: { ...process.env, ...env } });
  return { code: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? String(r.error ?? "") };
}

const hasBash = spawnSync("bash", ["-c", "true"]).status === 0;

test("a pipe named by its path holding CRD and resource is read once, both passes see it (process substitution)", { skip: !hasBash }, () => {
  const r = bash(`${crdkitWords('validate <(printf "%s\\n---\\n%s" "$CRD" "$INVALID")')}`, { CRD, INVALID });
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stdout.split("\n");
  assert.ok(lines.some((l) => /^\/dev\/fd\/\d+:/.test(l) && l.endsWith(FIRST_LINE)), r.stdout);
  assert.match(r.stdout, /Summary: 4 resources: 1 valid, 3 invalid, 0 skipped/);
});

test("--crds from one pipe, resources from another, also with -j 2 (pipes are read by the main thread)", { skip: !hasBash }, () => {
  for (const extra of ["", "-j 2"]) {
    const r = bash(crdkitWords(`validate ${extra} --crds <(printf "%s" "$CRD") <(printf "%s" "$INVALID") examples/crontab-invalid.yaml`), { CRD, INVALID });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout.split("\n")[0]!, new RegExp(`^/dev/fd/\\d+:9:13: ${FIRST_LINE.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    // the pipe's three documents, then the file's, each reported as the file's own run reports them
    const file = bash(crdkitWords("validate --crds examples/crontab-crd.yaml examples/crontab-invalid.yaml"), {}).stdout.split("\n");
    assert.deepEqual(r.stdout.split("\n").slice(3, 6), file.slice(0, 3));
    assert.deepEqual(
      r.stdout.split("\n").slice(0, 3).map((l) => l.replace(/^\/dev\/fd\/\d+:/, "")),
      file.slice(0, 3).map((l) => l.replace(/^examples\/crontab-invalid\.yaml:/, "")),
    );
  }
});

test("a named FIFO is opened once: its documents are validated and the run ends", { skip: !hasBash }, () => {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-fifo-"));
  try {
    const fifo = join(dir, "in.yaml");
    if (spawnSync("mkfifo", [fifo]).status !== 0) return;
    // The writer: a separate process, as a shell's would be (opening a FIFO waits for the other end).
    const writer = spawn(process.execPath, ["-e", `require("fs").writeFileSync(${JSON.stringify(fifo)}, ${JSON.stringify(`${CRD}\n---\n${INVALID}`)})`], { stdio: "ignore" });
    try {
      const r = bash(crdkitWords(`validate ${JSON.stringify(fifo)}`), {});
      assert.equal(r.code, 1, r.stderr);
      assert.ok(r.stdout.includes(`${fifo}:`) && r.stdout.includes(FIRST_LINE), r.stdout);
    } finally {
      writer.kill("SIGKILL");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
