/**
 * `/healthz`, `/livez`, `/readyz` as the API server's healthz handler answers them: `ok` when every check
 * passes (`?verbose` lists them: `[+]ping ok` … `healthz check passed`), else 500 with the list, failed
 * checks as `[-]etcd failed: reason withheld`, and `healthz check failed`. Checks: `ping`, and `etcd` on
 * the etcd store (a read within kube-apiserver's default `--etcd-healthcheck-timeout` of 2 s), or on SQLite
 * the damage the store found while serving.
 */
import { EtcdStore } from "../storage/etcd/etcd-store.js";
import type { Store } from "../storage/types.js";
import type { RestResponse } from "./endpoints/rest-common.js";

const ETCD_HEALTHCHECK_TIMEOUT_MS = 2000;

async function etcdOk(store: Store): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ETCD_HEALTHCHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([store.currentRevision().then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function healthCheck(endpoint: string, store: Store, verbose: boolean, fault?: string): Promise<RestResponse> {
  const checks: [string, boolean][] = [["ping", true]];
  if (store instanceof EtcdStore) checks.push(["etcd", await etcdOk(store)]);
  // A damaged SQLite database (storeFault) fails the etcd check of /healthz and /readyz; /livez reports the
  // process alive (restarting would not repair the file).
  else if (fault !== undefined && endpoint !== "livez") checks.push(["etcd", false]);
  const failed = checks.some(([, ok]) => !ok);
  const text = "text/plain; charset=utf-8";
  if (!failed && !verbose) return { code: 200, body: "ok", contentType: text };
  const lines = checks.map(([name, ok]) => (ok ? `[+]${name} ok\n` : `[-]${name} failed: reason withheld\n`)).join("");
  if (failed) return { code: 500, body: `${lines}${endpoint} check failed\n`, contentType: text };
  return { code: 200, body: `${lines}${endpoint} check passed\n`, contentType: text };
}
