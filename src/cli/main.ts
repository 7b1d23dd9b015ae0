/**
 * The `crdkit` command: `crdkit validate ...`, `crdkit check ...` (CRD checks, ./check.ts) and
 * `crdkit serve ...` (the API server, ./serve.ts). The only place besides storage/server that touches files and the process.
 */
import { CrdkitError } from "../errors/crdkit-error.js";
import { UsageError, VALIDATE_USAGE, parseValidateArgs } from "./args.js";
import { loadBuiltinSchemas } from "./builtin-loader.js";
import { builtinRelease } from "./builtin-release.js";
import { runCheck } from "./check.js";
import { InputError, expandPaths } from "./files.js";
import { globMatcher } from "./glob.js";
import { formatGithub, githubWarning } from "./output/github.js";
import { type RunWarning, formatJson } from "./output/json.js";
import { formatJunit } from "./output/junit.js";
import { type Formatter, StreamingOutput } from "./output/stream.js";
import { formatText } from "./output/text.js";
import { progressReporter } from "./progress.js";
import { type Summary, summarize } from "./results.js";
import { runValidate } from "./run-validate.js";
import { cacheFor } from "./schema-cache.js";
import { versionLine } from "./version.js";
import { runValidateParallel, threadsFor } from "./workers.js";

// for bin/load-cli.js: whether the run wrote compiled-CRD cache entries (which V8 code-cache entry it may write)
export { cacheFilled } from "./cache-filled.js";

const USAGE = `Usage: crdkit <command> [flags]

Commands:
  validate   validate custom resources against their CRDs as the API server would
  check      check CustomResourceDefinitions as the API server would on create
  serve      run a kubectl-compatible API server for CRDs and custom resources
  version    print the crdkit version
  help       show this help ("crdkit help <command>" for a command's flags)

Run "crdkit <command> --help" for the flags of a command.
`;

/** Output sinks, injectable for tests. */
export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTTY: boolean;
  /** Whether stderr is a terminal (progress is shown only then). Default false. */
  stderrIsTTY?: boolean;
}

const defaultIo: CliIo = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  isTTY: process.stdout.isTTY === true,
  stderrIsTTY: process.stderr.isTTY === true,
};

async function readClusterCrds(kubeconfig: string, context: string | undefined) {
  const [{ fetchClusterCrds }, { readKubeconfig }] = await Promise.all([import("./cluster-crds.js"), import("./kubeconfig.js")]);
  return fetchClusterCrds(readKubeconfig(kubeconfig, context));
}

/** `crdkit validate`; returns the exit code. */
export async function validateCommand(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  let args: ReturnType<typeof parseValidateArgs>;
  try {
    args = parseValidateArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`crdkit validate: ${e.message}\n\n${VALIDATE_USAGE}`);
      return 2;
    }
    throw e;
  }
  if (args.help) {
    io.stdout(VALIDATE_USAGE);
    return 0;
  }
  if (args.inputs.length === 0) {
    io.stderr(`crdkit validate: no input paths (use "-" for standard input)\n\n${VALIDATE_USAGE}`);
    return 2;
  }
  const color = args.color ?? (io.isTTY && !process.env["NO_COLOR"]);
  const runWarnings: RunWarning[] = [];
  const format: Formatter =
    args.output === "json"
      ? (rs, s) => formatJson(rs, s, runWarnings)
      : args.output === "junit"
        ? formatJunit
        : args.output === "github"
          ? formatGithub
          : (rs, s) => formatText(rs, s, { color, verbose: args.verbose });
  let summary: Summary;
  const progress = progressReporter({ write: io.stderr, isTTY: io.stderrIsTTY === true, env: process.env, now: Date.now });
  try {
    // only --kubeconfig needs the network; the common path stays synchronous
    // (loaded on demand: node:https alone costs a cold start ~6 ms)
    const clusterCrds = args.kubeconfig === undefined ? undefined : await readClusterCrds(args.kubeconfig, args.context);
    // built-in kinds: a requested release is checked here (the default, the newest, needs no check: the
    // schema bundle is then read only if a built-in kind is met); a plain string for worker threads
    const kubernetesVersion = args.kubernetesVersion === undefined ? "" : builtinRelease(loadBuiltinSchemas(), args.kubernetesVersion);
    const opts = {
      ...args,
      kubernetesVersion,
      cache: cacheFor(args.noCache),
      ...(clusterCrds ? { clusterCrds } : {}),
      onWarning: (w: string, at: { file: string; line: number }) => {
        progress.clear();
        io.stderr(`crdkit validate: warning: ${w}\n`);
        runWarnings.push({ message: w, file: at.file, line: at.line });
        // a GitHub annotation too, on the CRD that is used
        if (args.output === "github") io.stdout(`${githubWarning(at.file, at.line, w)}\n`);
      },
      // without progress, worker threads need not report each file
      ...(progress.enabled ? { onFileDone: progress.update } : {}),
    };
    const exclude = args.exclude.length > 0 ? globMatcher(args.exclude) : undefined;
    const threads = threadsFor(args.jobs, opts, expandPaths(args.inputs, exclude));
    if (threads > 1) {
      const results = await runValidateParallel(opts, threads);
      summary = summarize(results);
      io.stdout(format(results, summary));
    } else {
      // one thread: results are written as they come and not kept; the output starts with the first
      // result, when the run-level warnings (CRDs defined twice) are known
      let out: StreamingOutput | undefined;
      runValidate(opts, (r) => (out ??= new StreamingOutput(format, io.stdout)).add(r));
      summary = (out ??= new StreamingOutput(format, io.stdout)).end();
    }
    progress.end();
  } catch (e) {
    progress.end();
    if (e instanceof InputError || e instanceof CrdkitError) {
      io.stderr(`crdkit validate: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  if (summary.resources === 0) {
    // no silent pass on an empty input (kubectl apply says "error: no objects passed to apply")
    io.stderr("crdkit validate: no objects passed to validate\n");
    return 1;
  }
  return summary.invalid > 0 ? 1 : 0;
}

/** Entry point: dispatches the sub-command and returns the exit code. */
export async function main(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    switch (cmd) {
      case "validate":
        return await validateCommand(rest, io);
      case "version":
      case "--version":
        io.stdout(versionLine());
        return 0;
      case "check":
        return await runCheck(rest, io);
      case "serve": {
        // loaded lazily: the server (and its storage) is not needed by the other commands
        const { runServe } = await import("./serve.js");
        return await runServe(rest, io);
      }
      case "help":
        if (rest.length > 0) return await main([rest[0]!, "--help"], io);
        io.stdout(USAGE);
        return 0;
      case undefined:
      case "-h":
      case "--help":
        io.stdout(USAGE);
        return cmd === undefined ? 2 : 0;
      default:
        io.stderr(`crdkit: unknown command "${cmd}"\n\n${USAGE}`);
        return 2;
    }
  } catch (e) {
    io.stderr(`crdkit: internal error: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  }
}
