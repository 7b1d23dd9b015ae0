/**
 * Where the shared real-world corpus lives: `$CRDKIT_CORPUS`, else `shared/corpus` beside the repository
 * (as in CI's clone), else the workspace's `/work/shared/corpus`.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function corpusRoot(): string {
  const env = process.env["CRDKIT_CORPUS"];
  if (env) return env;
  const beside = resolve(repo, "..", "shared", "corpus");
  return existsSync(beside) ? beside : "/work/shared/corpus";
}
