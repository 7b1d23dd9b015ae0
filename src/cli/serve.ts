/**
 * `crdkit serve [--data DIR] [--listen HOST:PORT] [--quiet]`: runs the API server until SIGINT/SIGTERM,
 * then shuts down gracefully. Logs are JSON lines on stderr; the first stdout line says where it listens.
 */
import { writeFileSync } from "node:fs";
import { kubeconfigFor } from "../server/auth/kubeconfig.js";
import { parseSecurityFlag, SECURITY_USAGE } from "../server/auth/security-flags.js";
import type { SecurityOptions } from "../server/auth/security.js";
import { startServer, type LogRecord } from "../server/server.js";
import { EtcdStore } from "../storage/etcd/etcd-store.js";
import { ETCD_USAGE, etcdStoreOptions, type EtcdFlags, isEtcdFlag, setEtcdFlag } from "./etcd-flags.js";
import { isServeWorker, reportListening, runServeWorkers, workersFlagError } from "./serve-workers.js";
import { isWebhookFlag, type ServiceEndpoint, serviceResolverOf, setWebhookFlag, WEBHOOK_USAGE } from "./webhook-flags.js";
import { untilStopped } from "./until-stopped.js";
import { tierServerSooner } from "./serve-tiering.js";
import { HTTP2_USAGE, isHttp2Flag, setHttp2Flag } from "./http2-flags.js";
import type { Http2ServingOptions } from "../server/http2-serving.js";

/** Where `runServe` writes. */
export interface ServeIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const USAGE = `Usage: crdkit serve [--data DIR] [--listen HOST:PORT] [--quiet] [--no-ui]

Runs a kubectl-compatible API server for CRDs and custom resources.

  --data DIR           keep the database in DIR/crdkit.db (default: in memory, lost on exit)
  --listen HOST:PORT   address to bind (default 127.0.0.1:8080; port 0 picks a free one)
  --quiet              do not log requests
  --no-ui              do not serve the playground page at /ui/
  --namespace-lifecycle=false
                       accept namespaced objects in namespaces that do not exist (default true:
                       NamespaceLifecycle admission, as kube-apiserver; create namespaces first)
  --enable-garbage-collector=false
                       no garbage collector, as envtest (default true, as kube-controller-manager:
                       objects owned through metadata.ownerReferences are deleted with their owners,
                       and DELETE's propagationPolicy Foreground/Orphan is honoured)
  --workers N          run N server processes on the port, replicas on one etcd (needs --etcd-servers)
${ETCD_USAGE}${WEBHOOK_USAGE}
${SECURITY_USAGE}${HTTP2_USAGE}`;

interface ServeArgs {
  data?: string;
  host: string;
  port: number;
  quiet: boolean;
  help: boolean;
  etcd: EtcdFlags;
  security: SecurityOptions;
  writeKubeconfig?: string;
  noUi?: boolean;
  namespaceLifecycle?: boolean;
  garbageCollector?: boolean;
  workers: number;
  serviceEndpoints: ServiceEndpoint[];
  http2: Http2ServingOptions;
}

function parseServeArgs(argv: readonly string[]): ServeArgs | string {
  const a: ServeArgs = { host: "127.0.0.1", port: 8080, quiet: false, help: false, etcd: {}, security: {}, workers: 1, serviceEndpoints: [], http2: {} };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string | undefined => (eq > 0 ? arg.slice(eq + 1) : argv[++i]);
    if (flag === "--help" || flag === "-h") a.help = true;
    else if (flag === "--quiet") a.quiet = true;
    else if (flag === "--no-ui") a.noUi = true;
    else if (flag === "--namespace-lifecycle") {
      const v = eq > 0 ? arg.slice(eq + 1) : "true";
      if (v !== "true" && v !== "false") return `invalid --namespace-lifecycle value ${JSON.stringify(v)}: want true or false`;
      a.namespaceLifecycle = v === "true";
    } else if (flag === "--enable-garbage-collector") {
      const v = eq > 0 ? arg.slice(eq + 1) : "true";
      if (v !== "true" && v !== "false") return `invalid --enable-garbage-collector value ${JSON.stringify(v)}: want true or false`;
      a.garbageCollector = v === "true";
    }
    else if (flag === "--data") {
      const v = value();
      if (!v) return "flag --data needs a directory";
      a.data = v;
    } else if (flag === "--listen") {
      const v = value();
      const m = v ? /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(v) : null;
      if (!m || Number(m[2]) > 65535) return `invalid --listen address ${JSON.stringify(v ?? "")}: want HOST:PORT`;
      a.host = m[1]!.replace(/^\[|\]$/g, "");
      a.port = Number(m[2]);
    } else if (isEtcdFlag(flag)) {
      const err = setEtcdFlag(a.etcd, flag, value());
      if (err) return err;
    } else if (flag === "--workers") {
      const v = value();
      if (!v || !/^\d{1,3}$/.test(v) || Number(v) < 1) return `invalid --workers ${JSON.stringify(v ?? "")}: want a count from 1`;
      a.workers = Number(v);
    } else if (isWebhookFlag(flag)) {
      const err = setWebhookFlag(a.serviceEndpoints, value());
      if (err) return err;
    } else if (isHttp2Flag(flag)) {
      const err = setHttp2Flag(a.http2, flag, eq > 0 ? arg.slice(eq + 1) : undefined, () => argv[++i]);
      if (err) return err;
    } else if (flag === "--write-kubeconfig") {
      const v = value();
      if (!v) return "flag --write-kubeconfig needs a file";
      a.writeKubeconfig = v;
    } else {
      const sec = parseSecurityFlag(flag, eq > 0 ? arg.slice(eq + 1) : undefined, () => argv[++i], a.security);
      if (sec === false) return `unknown flag ${JSON.stringify(arg)}`;
      if (typeof sec === "string") return sec;
    }
  }
  return a;
}

/** Runs `crdkit serve`; resolves with the exit code after a signal-triggered shutdown. */
export async function runServe(args: readonly string[], io: ServeIo, signal?: AbortSignal): Promise<number> {
  const parsed = parseServeArgs(args);
  if (typeof parsed === "string") {
    io.stderr(`crdkit serve: ${parsed}\n${USAGE}`);
    return 2;
  }
  if (parsed.help) {
    io.stdout(USAGE);
    return 0;
  }
  const log = (r: LogRecord) => {
    if (parsed.quiet && r["msg"] === "request") return;
    io.stderr(JSON.stringify({ time: new Date().toISOString(), ...r }) + "\n");
  };
  const etcd = etcdStoreOptions(parsed.etcd);
  if (typeof etcd === "string" || (etcd && parsed.data !== undefined)) {
    io.stderr(`crdkit serve: ${typeof etcd === "string" ? etcd : "--data and --etcd-servers exclude each other"}\n${USAGE}`);
    return 2;
  }
  if (parsed.workers > 1 && !isServeWorker()) {
    const sec = parsed.security;
    const err = workersFlagError(parsed.workers, etcd !== undefined, parsed.writeKubeconfig !== undefined, Object.keys(sec).length > 0 || !/^(127\.|localhost$|::1$)/.test(parsed.host), sec.tlsCertFile !== undefined);
    if (err) {
      io.stderr(`crdkit serve: ${err}\n`);
      return 2;
    }
    return runServeWorkers(parsed.workers, args, io, signal);
  }
  tierServerSooner();
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    const store = etcd
      ? new EtcdStore({ ...etcd, onCompactionError: (e) => log({ level: "warn", msg: "etcd compaction failed", error: String(e) }) })
      : undefined;
    server = await startServer({
      ...(parsed.data !== undefined ? { dataDir: parsed.data } : {}),
      ...(store ? { store } : {}),
      host: parsed.host,
      port: parsed.port,
      log,
      logRequests: !parsed.quiet,
      security: parsed.security,
      http2: parsed.http2,
      ...(parsed.noUi ? { ui: false as const } : {}),
      ...(parsed.namespaceLifecycle === false ? { namespaceLifecycle: false } : {}),
      ...(parsed.garbageCollector === false ? { garbageCollector: false } : {}),
      ...(parsed.etcd.requestTimeoutMs !== undefined ? { requestTimeoutMs: parsed.etcd.requestTimeoutMs } : {}),
      ...(parsed.serviceEndpoints.length > 0 ? { conversionWebhooks: { serviceResolver: serviceResolverOf(parsed.serviceEndpoints)! } } : {}),
    });
  } catch (e) {
    io.stderr(`crdkit serve: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
  if (parsed.writeKubeconfig !== undefined) {
    try {
      writeFileSync(parsed.writeKubeconfig, await kubeconfigFor(server.url, server.security), { mode: 0o600 });
    } catch (e) {
      io.stderr(`crdkit serve: cannot write kubeconfig: ${e instanceof Error ? e.message : String(e)}\n`);
      await server.close();
      return 1;
    }
  }
  if (isServeWorker()) reportListening(server.url);
  else io.stdout(`crdkit serve: listening on ${server.url}\n`);
  await untilStopped(signal);
  await server.close();
  return 0;
}
