/**
 * `npm test` preloads this module (`--import ./test/leak-guard.ts`) into the runner and so into every test
 * file's process, in place of `--test-force-exit`: that flag exits a file's process as soon as its reporter
 * stream closes, before all its events have reached the runner (nodejs/node#64833), so the totals varied.
 *
 * Without the flag a file's process ends when nothing is left to do; a leaked server, socket, timer or child
 * would keep it, and `npm test`, alive. So once every test of the file has finished and been reported, and
 * its root-level `after` hooks have run, this arms an unref'd timer of {@link GRACE_MS} (of no output to the
 * runner): a file that ends by itself never sees it fire. Likewise each test gets an unref'd timer of {@link TEST_LIMIT_MS}. If one
 * fires, the guard writes why and what still keeps the process alive (node's active resources, the child
 * processes) to stderr, kills those children (grandchildren too), lets node:test finish its report as at a
 * natural end (a test still running is reported as cancelled), waits until that report has been handed to
 * the runner, and exits with 1: the file fails with that message instead of hanging. When the runner stops
 * a file (SIGTERM at `--test-timeout`) or on Ctrl-C it kills the file's children and grandchildren.
 *
 * It acts only in a test file's own process (node:test's runner starts each with NODE_TEST_CONTEXT=child-v8);
 * the runner itself and any process a test starts with the same execArgv (a cluster worker, a worker
 * thread) are left alone.
 */
import { AsyncResource } from "node:async_hooks";
import { readdirSync, readFileSync } from "node:fs";
import { relative } from "node:path";
import type { Readable } from "node:stream";
import { after, afterEach, beforeEach } from "node:test";
import { isMainThread } from "node:worker_threads";

/**
 * How long a file may take to end by itself after its last `after` hook, counted from when its output to the
 * runner stops flowing (node:test's reporter can still be writing a big file's events through a pipe the
 * runner reads slowly: the largest file, test/golden, went on for 2.3 s on a loaded machine), but at most
 * {@link LEAK_LIMIT_MS} in all (a leaked timer that logs forever must not keep it going).
 */
const GRACE_MS = Number(process.env["CRDKIT_LEAK_GRACE_MS"] ?? 10_000);
const LEAK_LIMIT_MS = 6 * GRACE_MS;

/**
 * How long one test (with its beforeEach/afterEach hooks) may run. node:test's `--test-timeout` bounds only
 * a whole file in Node 20 (the runner's timer; a file's process ignores the flag), and that bound must leave
 * room for the Go build the interop files wait for while loading (test/interop/go-tools.ts). The slowest test
 * takes about 30 s on a loaded machine.
 */
const TEST_LIMIT_MS = Number(process.env["CRDKIT_TEST_LIMIT_MS"] ?? 300_000);

/** How long the guard waits for stdout to drain before it exits anyway. */
const FLUSH_LIMIT_MS = 10_000;

/** The pids of this process's descendants with their command lines, children before grandchildren (Linux `/proc`). */
function descendants(root: number): { pid: number; cmd: string }[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const siblings = children.get(ppid);
      if (siblings) siblings.push(pid);
      else children.set(ppid, [pid]);
    } catch {
      // the process ended meanwhile
    }
  }
  const found: { pid: number; cmd: string }[] = [];
  const queue = [...(children.get(root) ?? [])];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    let cmd = "?";
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim().slice(0, 200);
    } catch {
      // ended meanwhile
    }
    // tsx's esbuild service (unref'd; it ends with this process)
    if (/esbuild\S* --service=/.test(cmd)) continue;
    found.push({ pid, cmd });
    queue.push(...(children.get(pid) ?? []));
  }
  return found;
}

/** node:test's reporter stream in this process: it pipes into stdout, which announces it with a 'pipe' event. */
let reporterStream: Readable | undefined;

/**
 * Exits with 1 once node:test's reporter stream has ended and everything it wrote to stdout has been handed
 * to the runner (or after a bound). The stream's last events pass the pipe to the runner only as fast as the
 * runner reads: exiting earlier would lose them (the bug of `--test-force-exit`).
 */
function exitWhenFlushed(): void {
  const exit = () => process.exit(1);
  setTimeout(exit, FLUSH_LIMIT_MS).unref();
  // the callback of a write runs after every earlier write has completed
  const flushStdout = () => process.stdout.write("", exit);
  if (reporterStream === undefined || reporterStream.readableEnded) setImmediate(flushStdout);
  else reporterStream.once("end", flushStdout);
}

/** Node's names of what keeps this process alive, without the pipes or TTYs of stdout and stderr. */
function activeResources(): string[] {
  const stdio = [process.stdout, process.stderr]; // both opened, so both are among the handles
  const found = process.getActiveResourcesInfo();
  for (const _ of stdio) {
    const i = found.findIndex((r) => r === "PipeWrap" || r === "TTYWrap");
    if (i >= 0) found.splice(i, 1);
  }
  return found;
}

/** Kills every descendant of this process; returns them. */
function killDescendants(): { pid: number; cmd: string }[] {
  const kids = descendants(process.pid);
  for (const k of kids) {
    try {
      process.kill(k.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return kids;
}

let fired = false;

/** Reports why the file is stopped and what was still active, kills the children, fails the file. */
function fire(why: string, advice: string): void {
  if (fired) return;
  fired = true;
  const file = relative(process.cwd(), process.argv[1] ?? "?");
  const resources = activeResources();
  const kids = killDescendants();
  const lines = [
    `leak-guard: ${file}: ${why}; still active: ${resources.join(", ") || "(nothing node reports)"}`,
    ...kids.map((k) => `leak-guard: killed child process ${k.pid}: ${k.cmd}`),
    `leak-guard: ${advice}; failing the file`,
  ];
  process.stderr.write(`${lines.join("\n")}\n`);
  process.exitCode = 1;
  // The harness reports tests still running as cancelled, and the root test's diagnostics, on 'beforeExit',
  // which the leak or the hung test keeps from coming.
  process.emit("beforeExit", 1);
  exitWhenFlushed();
}

const testFile = /\.test\.[cm]?[jt]s$/.test(process.argv[1] ?? "");
if (process.env["NODE_TEST_CONTEXT"] === "child-v8" && isMainThread && testFile) {
  // Before the first call into node:test, which sets up its reporter.
  process.stdout.once("pipe", (source: Readable) => {
    reporterStream = source;
  });
  // Created before any test, so hooks registered inside it belong to the root test, not to a running hook.
  const outside = new AsyncResource("leak-guard");
  // The first root-level `after` hook (this module loads before the test file) runs once every test has
  // finished and been reported; it queues the timer behind the file's own root-level `after` hooks.
  const watchForLeak = () => {
    const start = Date.now();
    let idleSince = start;
    let written = process.stdout.bytesWritten;
    const poll = setInterval(() => {
      const now = Date.now();
      if (process.stdout.bytesWritten !== written || process.stdout.writableLength > 0) {
        written = process.stdout.bytesWritten;
        idleSince = now;
      }
      if (now - idleSince < GRACE_MS && now - start < LEAK_LIMIT_MS) return;
      clearInterval(poll);
      fire(
        `did not end ${GRACE_MS / 1000} s after its last test and after hook finished`,
        "close servers, stores, sockets and timers and stop child processes in the test's finally/after",
      );
    }, 250).unref();
  };
  after(() => {
    outside.runInAsyncScope(() => after(watchForLeak));
  });
  // Every test inherits the root's beforeEach/afterEach hooks; they bound each test by TEST_LIMIT_MS.
  const limits = new Map<object, NodeJS.Timeout>();
  beforeEach((t) => {
    const hung = () => fire(`test "${t.name}" did not end within ${TEST_LIMIT_MS / 1000} s`, "bound every wait in the test");
    limits.set(t, setTimeout(hung, TEST_LIMIT_MS).unref());
  });
  afterEach((t) => {
    clearTimeout(limits.get(t));
    limits.delete(t);
  });
  // The runner stops a file that exceeds --test-timeout with SIGTERM (Ctrl-C sends SIGINT): its children and
  // their children must not outlive it (a grandchild holding the file's stdout open would keep the runner
  // waiting). reapOnExit (test/reap-children.ts) still covers a file run without this preload.
  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    process.once(signal, () => {
      killDescendants();
      process.exit(code);
    });
  }
}
