/** Runs the CLI in-process with captured output. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(...argv: string[]): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    isTTY: false,
  });
  return { code, stdout, stderr };
}

/** A fresh temporary directory with the given files. */
export function tmpFiles(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-test-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
