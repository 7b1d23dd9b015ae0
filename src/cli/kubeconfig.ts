/**
 * Reading a kubeconfig file (client-go's `clientcmd` format) to reach a cluster: the context (`--context`
 * or `current-context`), its cluster's `server`, CA and TLS settings, and its user's bearer token, client
 * certificate or basic credentials. Relative file paths are resolved against the kubeconfig's directory,
 * as client-go does. `exec` credential plugins are run (./exec-credential.ts); the legacy `auth-provider`
 * plugins are not supported (a clear error says so).
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { decodeDocuments } from "../io/decode.js";
import { type JsonObject, type JsonValue, getKey, isObject } from "../value/json-value.js";
import { runExecCredential } from "./exec-credential.js";
import { InputError } from "./files.js";

/** How to reach a cluster. */
export interface ClusterAccess {
  /** The context used. */
  context: string;
  /** `https://host:port` (or http), without a trailing slash. */
  server: string;
  ca?: Buffer;
  insecureSkipTlsVerify: boolean;
  tlsServerName?: string;
  token?: string;
  cert?: Buffer;
  key?: Buffer;
  username?: string;
  password?: string;
}

function named(list: JsonValue | undefined, name: string, what: string, path: string): JsonObject {
  if (Array.isArray(list)) {
    for (const e of list) {
      if (isObject(e) && getKey(e, "name") === name) {
        const body = getKey(e, what);
        return isObject(body) ? body : {};
      }
    }
  }
  throw new InputError(`kubeconfig ${path}: ${what} "${name}" not found`);
}

function strField(o: JsonObject, k: string): string | undefined {
  const v = getKey(o, k);
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** Reads the kubeconfig at `path` for `context` (default: its current-context). Throws InputError. */
export function readKubeconfig(path: string, context?: string): ClusterAccess {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new InputError(`cannot read kubeconfig ${path}: ${(e as Error).message}`);
  }
  const docs = decodeDocuments(text);
  const doc = docs[0];
  if (!doc || doc.problem || !isObject(doc.value)) {
    throw new InputError(`kubeconfig ${path}: ${doc?.problem?.message ?? "not a kubeconfig (expected a YAML mapping)"}`);
  }
  const cfg = doc.value;
  const ctxName = context ?? strField(cfg, "current-context");
  if (ctxName === undefined) throw new InputError(`kubeconfig ${path}: no current-context (use --context)`);
  const ctx = named(getKey(cfg, "contexts"), ctxName, "context", path);
  const clusterName = strField(ctx, "cluster");
  if (clusterName === undefined) throw new InputError(`kubeconfig ${path}: context "${ctxName}" has no cluster`);
  const cluster = named(getKey(cfg, "clusters"), clusterName, "cluster", path);
  const userName = strField(ctx, "user");
  const user = userName === undefined ? {} : named(getKey(cfg, "users"), userName, "user", path);

  const base = dirname(path);
  const file = (p: string): Buffer => {
    const full = isAbsolute(p) ? p : resolve(base, p);
    try {
      return readFileSync(full);
    } catch (e) {
      throw new InputError(`kubeconfig ${path}: cannot read ${full}: ${(e as Error).message}`);
    }
  };
  const data = (o: JsonObject, dataKey: string, fileKey: string): Buffer | undefined => {
    const d = strField(o, dataKey);
    if (d !== undefined) return Buffer.from(d, "base64");
    const f = strField(o, fileKey);
    return f === undefined ? undefined : file(f);
  };

  const server = strField(cluster, "server");
  if (server === undefined) throw new InputError(`kubeconfig ${path}: cluster "${clusterName}" has no server`);
  if (getKey(user, "auth-provider") !== undefined) {
    throw new InputError(`kubeconfig ${path}: user "${userName}" uses an auth-provider plugin, which crdkit does not run; use a token, a client certificate or an exec plugin`);
  }
  const access: ClusterAccess = {
    context: ctxName,
    server: server.replace(/\/+$/, ""),
    insecureSkipTlsVerify: getKey(cluster, "insecure-skip-tls-verify") === true,
  };
  const ca = data(cluster, "certificate-authority-data", "certificate-authority");
  if (ca) access.ca = ca;
  const sni = strField(cluster, "tls-server-name");
  if (sni !== undefined) access.tlsServerName = sni;
  const tokenFile = strField(user, "tokenFile");
  const token = strField(user, "token") ?? (tokenFile === undefined ? undefined : file(tokenFile).toString("utf8").trim());
  if (token !== undefined) access.token = token;
  const cert = data(user, "client-certificate-data", "client-certificate");
  const key = data(user, "client-key-data", "client-key");
  if (cert) access.cert = cert;
  if (key) access.key = key;
  const exec = getKey(user, "exec");
  if (isObject(exec) && access.token === undefined && access.cert === undefined) {
    const cred = runExecCredential(exec, base, `kubeconfig ${path}: user "${userName}"`);
    if (cred.token !== undefined) access.token = cred.token;
    if (cred.cert) access.cert = cred.cert;
    if (cred.key) access.key = cred.key;
  }
  const username = strField(user, "username");
  if (username !== undefined) {
    access.username = username;
    access.password = strField(user, "password") ?? "";
  }
  return access;
}
