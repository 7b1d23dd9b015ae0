/**
 * kube-apiserver's etcd flags for `crdkit serve`: `--etcd-servers` selects the etcd store (else SQLite),
 * `--etcd-prefix`, `--etcd-cafile/--etcd-certfile/--etcd-keyfile`, `--etcd-compaction-interval` (Go
 * duration, default 5m, 0 disables) and `--request-timeout` (Go duration, default 1m0s: the deadline of
 * each etcd call, after which the request answers 504, and of every request that is not long-running, on
 * any store: filters/request-deadline.ts).
 */
import { parseGoDuration } from "../go/time.js";
import type { EtcdStoreOptions } from "../storage/etcd/etcd-store.js";

export const ETCD_USAGE = `  --etcd-servers URLS           store in etcd v3 at these comma-separated http(s)://host:port URLs
  --etcd-prefix PREFIX          key prefix in etcd (default /registry)
  --etcd-cafile/--etcd-certfile/--etcd-keyfile FILE   TLS to etcd
  --etcd-compaction-interval D  compact etcd history every D (default 5m; 0 disables)
  --request-timeout D           deadline of a request (not watches) and of each etcd call (default 1m0s)
`;

export interface EtcdFlags {
  servers?: string[];
  prefix?: string;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  compactionIntervalMs?: number;
  requestTimeoutMs?: number;
}

const FLAGS = new Set([
  "--etcd-servers",
  "--etcd-prefix",
  "--etcd-cafile",
  "--etcd-certfile",
  "--etcd-keyfile",
  "--etcd-compaction-interval",
  "--request-timeout",
]);

/** Whether `flag` is one of the etcd flags. */
export function isEtcdFlag(flag: string): boolean {
  return FLAGS.has(flag);
}

/** Records one etcd flag's value; returns an error text for a bad value. */
export function setEtcdFlag(f: EtcdFlags, flag: string, value: string | undefined): string | undefined {
  if (value === undefined || value === "") return `flag ${flag} needs a value`;
  switch (flag) {
    case "--etcd-servers": {
      const servers = value.split(",").map((s) => s.trim()).filter((s) => s !== "");
      for (const s of servers) {
        if (!/^https?:\/\/[^/\s]+\/?$/.test(s)) return `invalid --etcd-servers URL ${JSON.stringify(s)}: want http(s)://host:port`;
      }
      f.servers = servers;
      return undefined;
    }
    case "--etcd-prefix":
      f.prefix = value;
      return undefined;
    case "--etcd-cafile":
      f.caFile = value;
      return undefined;
    case "--etcd-certfile":
      f.certFile = value;
      return undefined;
    case "--etcd-keyfile":
      f.keyFile = value;
      return undefined;
    default: {
      const ns = parseGoDuration(value);
      if (ns === undefined || ns < 0n) return `invalid ${flag} ${JSON.stringify(value)}: want a duration such as 5m or 30s`;
      const ms = Number(ns / 1_000_000n);
      if (flag === "--request-timeout") {
        if (ms <= 0) return `invalid ${flag} ${JSON.stringify(value)}: must be positive`;
        f.requestTimeoutMs = ms;
      } else f.compactionIntervalMs = ms;
      return undefined;
    }
  }
}

/** The etcd store options, or undefined when `--etcd-servers` was not given (or an error text). */
export function etcdStoreOptions(f: EtcdFlags): EtcdStoreOptions | undefined | string {
  if (!f.servers) {
    if (f.prefix !== undefined || f.caFile !== undefined || f.certFile !== undefined || f.keyFile !== undefined) {
      return "--etcd-prefix and the --etcd-*file flags need --etcd-servers";
    }
    return undefined;
  }
  if ((f.certFile === undefined) !== (f.keyFile === undefined)) return "--etcd-certfile and --etcd-keyfile go together";
  return {
    servers: f.servers,
    ...(f.prefix !== undefined ? { prefix: f.prefix } : {}),
    ...(f.caFile !== undefined ? { caFile: f.caFile } : {}),
    ...(f.certFile !== undefined ? { certFile: f.certFile } : {}),
    ...(f.keyFile !== undefined ? { keyFile: f.keyFile } : {}),
    ...(f.compactionIntervalMs !== undefined ? { compactionIntervalMs: f.compactionIntervalMs } : {}),
    ...(f.requestTimeoutMs !== undefined ? { callTimeoutMs: f.requestTimeoutMs } : {}),
  };
}
