/**
 * bin/load-cli.js scans the command line before the CLI is loaded (to tell a short run from a long one) and
 * keeps its own list of the options that take a value: importing src/cli/args.ts there would cost a module
 * load per run. This test keeps the two in step: every option of `crdkit validate`'s usage text takes a
 * value in `parseValidateArgs` exactly when the list has it, and `check`'s valued options are in the list.
 */
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { VALIDATE_USAGE, parseValidateArgs } from "../../src/cli/args.js";
import { CHECK_USAGE } from "../../src/cli/check.js";

const { VALUE_OPTIONS } = createRequire(import.meta.url)("../../bin/load-cli.js") as { VALUE_OPTIONS: Set<string> };

/** The options named in a usage text's option list (lines indented 2–8 spaces starting with a dash). */
function usageOptions(usage: string): string[] {
  const out = new Set<string>();
  for (const line of usage.split("\n")) {
    const m = /^ {2,8}(-[^ ].*?)(?: {2,}|$)/.exec(line);
    for (const opt of m?.[1]?.matchAll(/--?[a-z][a-z-]*/g) ?? []) out.add(opt[0]);
  }
  return [...out];
}

/** Whether `parseValidateArgs` takes the argument after `flag` as its value (or rejects it as one). */
function takesValue(flag: string): boolean {
  try {
    // --context needs --kubeconfig; "k" is its value either way
    return !parseValidateArgs(["--kubeconfig", "k", flag, "in.yaml"]).inputs.includes("in.yaml");
  } catch {
    return true;
  }
}

test("validate: the options bin/load-cli.js skips a value after are those parseValidateArgs reads one for", () => {
  // --crd: an accepted spelling of --crds that the usage text does not show
  const options = [...usageOptions(VALIDATE_USAGE), "--crd"];
  assert.ok(options.length >= 15, `${options.length} options found in the usage text`);
  const valued = options.filter(takesValue).sort();
  assert.deepEqual(valued, [...VALUE_OPTIONS].sort());
});

test("check: its options that take a value are in bin/load-cli.js's list", () => {
  const options = usageOptions(CHECK_USAGE);
  for (const o of ["-o", "--old", "--field-validation"]) assert.ok(options.includes(o), `${o} in check's usage`);
  for (const o of options.filter((o) => ["-o", "--output", "--old", "--field-validation"].includes(o))) assert.ok(VALUE_OPTIONS.has(o), o);
});
