/**
 * Kills a test's child processes (servers, etcd) when the test process ends without its cleanup: at exit
 * and on SIGTERM/SIGINT. The test runner stops a file that exceeds `--test-timeout` with SIGTERM, which skips
 * 'exit' handlers and would leave the children running. Under `npm test`, test/leak-guard.ts also kills
 * grandchildren then; this covers a file run without it.
 */
import type { ChildProcess } from "node:child_process";

const children = new Set<ChildProcess>();
let installed = false;

function killAll(): void {
  for (const c of children) c.kill("SIGKILL");
  children.clear();
}

/** Registers `child` to be killed when this process ends; forgotten once it exits. */
export function reapOnExit(child: ChildProcess): void {
  if (!installed) {
    installed = true;
    process.on("exit", killAll);
    for (const [signal, code] of [
      ["SIGTERM", 143],
      ["SIGINT", 130],
    ] as const) {
      process.once(signal, () => {
        killAll();
        process.exit(code);
      });
    }
  }
  children.add(child);
  child.once("exit", () => children.delete(child));
}
