/**
 * V8's optimising compiler (TurboFan) starts on a function once a budget of its bytecode has run. A server
 * runs long and spends its first few thousand requests in the same few hundred functions, so `crdkit serve`
 * lowers the budget to a quarter of Node 20's default (67,584): the request path is optimised within its
 * first few hundred requests instead of a few thousand (the mirror image of `validate`'s short runs, which
 * raise it, bin/load-cli.js). Measured with bench/serve/ab-cpu.bench.ts, same build with and without, two
 * runs: server CPU per create over creates 501–1,500 after start 1.01 and 1.15 ms instead of 1.43 and 1.55 ms,
 * later rounds within the noise. Set before the server's code first runs (V8 gives each function the
 * budget current when its feedback is allocated); a budget given to node itself is kept.
 */
import { setFlagsFromString } from "node:v8";

const NODE20_INTERRUPT_BUDGET = 67584;

/** Lowers V8's interrupt budget for a server process; false when node was given one (nothing changed). */
export function tierServerSooner(execArgv: readonly string[] = process.execArgv, setFlags: (flags: string) => void = setFlagsFromString): boolean {
  if (execArgv.some((a) => /interrupt[-_]budget/.test(a))) return false;
  setFlags(`--interrupt-budget=${NODE20_INTERRUPT_BUDGET / 4}`);
  return true;
}
