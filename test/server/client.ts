/** A small HTTP client for server tests, and a CRD fixture. */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { reapOnExit } from "../reap-children.js";

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: test helper returns parsed JSON of any shape
  json: any;
}

/** Sends one request; `body` objects are sent as JSON. */
export async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  const h: Record<string, string> = { ...headers };
  let payload: string | undefined;
  if (body !== undefined) {
    payload = typeof body === "string" ? body : JSON.stringify(body);
    h["Content-Type"] ??= "application/json";
  }
  const res = await fetch(base + path, { method, headers: h, ...(payload !== undefined ? { body: payload } : {}) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** A namespaced CRD `widgets.test.example.com` with status and scale subresources. */
export function widgetCrd(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.test.example.com" },
    spec: {
      group: "test.example.com",
      scope: "Namespaced",
      names: { plural: "widgets", singular: "widget", kind: "Widget", shortNames: ["wd"], categories: ["all"] },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  properties: { count: { type: "integer" }, color: { type: "string" }, replicas: { type: "integer" } },
                },
                status: { type: "object", properties: { replicas: { type: "integer" } } },
              },
            },
          },
          subresources: { status: {}, scale: { specReplicasPath: ".spec.replicas", statusReplicasPath: ".status.replicas" } },
          selectableFields: [{ jsonPath: ".spec.color" }],
          additionalPrinterColumns: [{ name: "Color", type: "string", jsonPath: ".spec.color" }],
          ...extra,
        },
      ],
    },
  };
}

export function widget(name: string, spec: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: "test.example.com/v1", kind: "Widget", metadata: { name, ...meta }, spec };
}

export const WIDGETS = "/apis/test.example.com/v1/namespaces/default/widgets";

/** Polls `probe` until `ok` (at most 30 s; then fails with the last answer). */
export async function until(probe: () => Promise<ApiResponse>, ok: (r: ApiResponse) => boolean, what: string): Promise<ApiResponse> {
  const t0 = Date.now();
  for (;;) {
    const r = await probe();
    if (ok(r)) return r;
    if (Date.now() - t0 > 30_000) throw new Error(`${what}: not reached in 30 s; last answer ${r.status} ${r.text}`);
    await new Promise((res) => setTimeout(res, 25));
  }
}

const CHILD = join(dirname(fileURLToPath(import.meta.url)), "serve-child.ts");

/** Starts `crdkit serve` in a child process; resolves with its URL once it listens. */
export function spawnServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  return spawnServerWith(["--data", dataDir]);
}

/**
 * Starts `crdkit serve FLAGS --listen 127.0.0.1:0 --quiet` in a child process. Rejects when it exits first, or
 * when it does not listen within `startMs` (then it is killed): a test never waits for a server without bound.
 */
export function spawnServerWith(flags: string[], startMs = 120_000): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, ...flags, "--listen", "127.0.0.1:0", "--quiet"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Never leave a server behind, even when the test process ends without cleanup.
  reapOnExit(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not listen within ${startMs} ms: ${out}${err}`));
    }, startMs);
    child.stderr!.on("data", (d: Buffer) => {
      err += d.toString();
    });
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (https?:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]! });
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${err}`));
    });
  });
}

/**
 * Sends `signal` and resolves once the process is gone: at once when it had exited already, SIGKILL after
 * `graceMs` when it does not stop (a test's cleanup never waits without bound).
 */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM", graceMs = 30_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** One watch event as the server streams it (NDJSON). */
export interface WatchEvent {
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: test helper returns parsed JSON of any shape
  object: { metadata: Record<string, any>; [k: string]: unknown };
}

/** Reads NDJSON watch events from `base + path` until `n` arrived (or the stream ends); `abort` closes it. */
export function watchEvents(base: string, path: string, n: number, headers: Record<string, string> = {}): { events: Promise<WatchEvent[]>; abort: () => void } {
  let abort = () => {};
  const events = new Promise<WatchEvent[]>((resolve, reject) => {
    const req = request(base + path, { headers }, (res) => {
      let buf = "";
      const got: WatchEvent[] = [];
      // A failure is a rejection, never a throw inside this handler (that would leave the test's promise
      // pending): an answer other than a watch stream, or a line that is not JSON.
      if (res.statusCode !== 200) {
        let text = "";
        res.on("data", (d: Buffer) => (text += d.toString()));
        res.on("end", () => reject(new Error(`watch answered ${res.statusCode}: ${text}`)));
        return;
      }
      res.on("data", (d: Buffer) => {
        buf += d.toString();
        for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          try {
            got.push(JSON.parse(line));
          } catch {
            reject(new Error(`watch event is not JSON: ${line}`));
            req.destroy();
            return;
          }
          if (got.length === n) {
            resolve(got);
            req.destroy();
          }
        }
      });
      res.on("end", () => resolve(got));
    });
    req.on("error", (e) => (e.message.includes("socket hang up") ? undefined : reject(e)));
    abort = () => req.destroy();
    req.end();
  });
  return { events, abort };
}

/**
 * Asserts a CRD's managedFields after its create by "node" and the naming controller's status write. Kubernetes
 * sorts the entries by operation, then by time in whole seconds, then by manager: the status entry comes first,
 * unless the status write fell into a later second than the create.
 */
export function assertCreateThenStatusEntries(managedFields: Record<string, string>[]): void {
  const status = ["kube-apiserver", "Update", "status"];
  const create = ["node", "Update", undefined];
  const sameSecond = managedFields.every((m) => m["time"] === managedFields[0]!["time"]);
  assert.deepEqual(
    managedFields.map((m) => [m["manager"], m["operation"], m["subresource"]]),
    sameSecond ? [status, create] : [create, status],
  );
}
