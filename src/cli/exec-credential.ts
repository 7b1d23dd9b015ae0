/**
 * A kubeconfig user's `exec` credential plugin (client-go's `ExecCredential` protocol, as used by
 * `aws eks get-token`, `gke-gcloud-auth-plugin`, `kubelogin`): runs the command non-interactively with
 * `KUBERNETES_EXEC_INFO` set and reads `status.token` or `status.clientCertificateData`/`clientKeyData`
 * from its JSON output.
 */
import { execFileSync } from "node:child_process";
import { isAbsolute, resolve } from "node:path";
import { type JsonObject, getKey, isObject } from "../value/json-value.js";
import { InputError } from "./files.js";

export interface ExecCredential {
  token?: string;
  cert?: Buffer;
  key?: Buffer;
}

const TIMEOUT_MS = 60_000;

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

/** Runs the plugin described by `exec` (a kubeconfig `users[].user.exec`); `base` is the kubeconfig's folder. */
export function runExecCredential(exec: JsonObject, base: string, where: string): ExecCredential {
  const command = getKey(exec, "command");
  if (typeof command !== "string" || command === "") throw new InputError(`${where}: exec plugin without a command`);
  const apiVersion = getKey(exec, "apiVersion");
  const version = typeof apiVersion === "string" ? apiVersion : "client.authentication.k8s.io/v1";
  const env: Record<string, string | undefined> = { ...process.env };
  const list = getKey(exec, "env");
  if (Array.isArray(list)) {
    for (const e of list) {
      if (isObject(e) && typeof getKey(e, "name") === "string") env[getKey(e, "name") as string] = String(getKey(e, "value") ?? "");
    }
  }
  env["KUBERNETES_EXEC_INFO"] = JSON.stringify({ kind: "ExecCredential", apiVersion: version, spec: { interactive: false } });
  // as client-go: a command with a path separator is relative to the kubeconfig's folder
  const file = command.includes("/") && !isAbsolute(command) ? resolve(base, command) : command;
  let out: string;
  try {
    out = execFileSync(file, strings(getKey(exec, "args")), { env, encoding: "utf8", timeout: TIMEOUT_MS, stdio: ["ignore", "pipe", "pipe"] });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    const detail = typeof err.stderr === "string" && err.stderr.trim() !== "" ? err.stderr.trim().split("\n")[0] : err.message;
    throw new InputError(`${where}: exec plugin ${command} failed: ${detail}`);
  }
  let status: unknown;
  try {
    status = (JSON.parse(out) as { status?: unknown }).status;
  } catch {
    throw new InputError(`${where}: exec plugin ${command} did not print an ExecCredential (JSON)`);
  }
  if (!isObject(status as JsonObject)) throw new InputError(`${where}: exec plugin ${command}: ExecCredential without status`);
  const s = status as Record<string, unknown>;
  const cred: ExecCredential = {};
  if (typeof s["token"] === "string" && s["token"] !== "") cred.token = s["token"];
  if (typeof s["clientCertificateData"] === "string") cred.cert = Buffer.from(s["clientCertificateData"]);
  if (typeof s["clientKeyData"] === "string") cred.key = Buffer.from(s["clientKeyData"]);
  if (cred.token === undefined && cred.cert === undefined) throw new InputError(`${where}: exec plugin ${command}: no token or client certificate in its status`);
  return cred;
}
