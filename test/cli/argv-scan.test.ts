import assert from "node:assert/strict";
import { test } from "node:test";
import { UsageError, fieldValidationFlag, outputFlag, scanArgv } from "../../src/cli/argv-scan.js";

function scan(argv: string[], valued: string[] = ["--crds", "-o"]) {
  const seen: string[] = [];
  scanArgv(argv, {
    input: (p) => seen.push(`in:${p}`),
    flag: (f, value) => seen.push(valued.includes(f) ? `${f}=${value()}` : f),
  });
  return seen;
}

test("inputs, inline and separate values, '-' and '--'", () => {
  assert.deepEqual(scan(["a.yaml", "--crds", "c", "-o=json", "-", "-v", "--", "--crds", "-x"]), [
    "in:a.yaml",
    "--crds=c",
    "-o=json",
    "in:-",
    "-v",
    "in:--crds",
    "in:-x",
  ]);
  // a value may itself start with '-' and may be empty when inline
  assert.deepEqual(scan(["--crds", "-weird", "--crds="]), ["--crds=-weird", "--crds="]);
});

test("a flag without its value is a usage error", () => {
  assert.throws(() => scan(["--crds"]), (e: unknown) => e instanceof UsageError && e.message === "flag --crds needs a value");
});

test("enum flags in any case; unknown values name the choices", () => {
  assert.equal(outputFlag("JSON"), "json");
  assert.equal(fieldValidationFlag("warn"), "Warn");
  assert.throws(() => outputFlag("xml"), { message: 'unknown output format "xml" (want text, json, junit or github)' });
  assert.throws(() => fieldValidationFlag("loose"), { message: 'unknown --field-validation "loose" (want Strict, Warn or Ignore)' });
});
