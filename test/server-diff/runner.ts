/**
 * Runs the server differential suite's request sequences against an API server (the real
 * apiextensions-apiserver when recording goldens, `crdkit serve` when replaying them) and returns the
 * normalised answers. A sequence is a YAML file under `sequences/`: a list of steps, each an HTTP request, a
 * kubectl command, or a wait for a CRD's controllers (Established, or its names checked).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { connect as h2connect } from "node:http2";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGunzip } from "node:zlib";
import { createHash } from "node:crypto";
import * as yaml from "js-yaml";
import { normalizeIndex, normalizeJson, normalizeKubectl, normalizeText } from "./normalize.js";
import { startConversionWebhook, type ConversionWebhook, type WebhookMode } from "../server/conversion-webhook-fixture.js";
import { createServer as createNetServer } from "node:net";
import { generateCa } from "../../src/server/auth/pki.js";

export const SEQUENCES_DIR = join(dirname(fileURLToPath(import.meta.url)), "sequences");
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface HttpStep {
  name?: string;
  method: string;
  path: string;
  /** A JSON body (sent as JSON text). */
  body?: unknown;
  /** A body sent as is. */
  raw?: string;
  /** A binary body (a protobuf message), base64-encoded, sent as its bytes. */
  rawBase64?: string;
  /** Send `raw` or `body` without expanding `{{name.path}}` in it (real manifests carry templates of their own). */
  literal?: boolean;
  /** A YAML or JSON file (relative to the repository) sent as JSON. */
  bodyFile?: string;
  contentType?: string;
  headers?: Record<string, string>;
  /** Read a watch stream: at most `events` lines, until `timeoutMs` pass without a chunk. */
  watch?: { events: number; timeoutMs?: number };
  /** Keep the parsed answer under this name for `{{name.path.to.value}}` in later paths and bodies. */
  saveAs?: string;
  /**
   * Send `path` as the request target byte for byte (latin-1 characters as their bytes), not normalised by
   * WHATWG URL: `//x`, `*`, `/./x`, `%` escapes, `#`, absolute form.
   */
  rawTarget?: boolean;
  /**
   * Record the body as text (normalised like a message), not parsed: for layout that matters (`?pretty=true`).
   * `layout`: the parsed body with whether the text is indented and ends with a newline (for typed objects,
   * whose key order — Go's struct order, crdkit's sorted keys — the text would show).
   */
  text?: boolean | "layout";
  /** `h2`: send over HTTP/2 (ALPN; the sequence needs `tls: true`), as kubectl and client-go do. */
  protocol?: "h2";
  /** Record the parsed, normalised body as its SHA-256 and length (for large answers that would bloat the recording). */
  digest?: boolean;
  /** More answer headers to compare (lower case; an absent one is recorded as absent). */
  compareHeaders?: string[];
}

export interface KubectlStep {
  name?: string;
  kubectl: string[];
  stdin?: string;
}

export interface WaitStep {
  /**
   * `established`: until the CRD is Established (with `listable`, also until a list of its resource is not
   * refused with 429, see waitListable); `namesChecked`: until its NamesAccepted condition is set (either way);
   * `deleted`: until a GET of the CRD is 404 (its finalizer has deleted it).
   */
  wait: { established: string; listable?: boolean } | { namesChecked: string } | { deleted: string };
}

/** Sets what the sequence's conversion webhook answers from now on (see conversion-webhook-fixture.ts). */
export interface WebhookStep {
  webhook: { mode: WebhookMode };
}

/**
 * Records the last ConversionReview the webhook received that asks for `desiredAPIVersion` and whose first
 * object is named `name` (what the server sends; the API server's watch cache sends the same states too, so
 * the last matching review does not depend on its timing).
 */
export interface WebhookReviewStep {
  name?: string;
  webhookReview: { desiredAPIVersion: string; object: string };
}

export type Step = HttpStep | KubectlStep | WaitStep | WebhookStep | WebhookReviewStep;

export interface Sequence {
  description: string;
  /**
   * Start an HTTPS conversion webhook for the sequence: `{{webhook.url}}`, `{{webhook.caBundle}}`,
   * `{{webhook.otherCaBundle}}` (a CA that did not sign it) and `{{webhook.closedUrl}}` (nothing listens)
   * in steps; in the answers its addresses and CA bundles are masked.
   */
  webhook?: boolean;
  /**
   * Serve crdkit over TLS for this sequence (as the real server always is): its kubectl steps then speak
   * HTTP/2, as they do with the real server, and steps may ask for `protocol: h2`.
   */
  tls?: boolean;
  /**
   * false: replay against crdkit without the collector (its DELETEs still set the GC finalizers): the recorded
   * answers are the standalone API server's, which sets them but has no kube-controller-manager to remove them.
   */
  garbageCollectorController?: boolean;
  steps: Step[];
}

/** One recorded answer. */
export type StepResult =
  | { step: string; status: number; headers: Record<string, string>; body: unknown }
  | { step: string; code: number; stdout: string; stderr: string };

/** How to reach a server. */
export interface Target {
  /** `http://127.0.0.1:PORT` or `https://127.0.0.1:PORT` (TLS certificates are not verified). */
  url: string;
  /** Extra kubectl flags (e.g. `--insecure-skip-tls-verify`, `--token x`). */
  kubectlFlags: string[];
}

/** The headers clients read; others (Date, Audit-Id, X-Kubernetes-Pf-*) are not compared. */
const COMPARED_HEADERS = ["content-type", "warning", "location", "cache-control", "content-encoding"];

export function loadSequences(): Map<string, Sequence> {
  const out = new Map<string, Sequence>();
  for (const f of readdirSync(SEQUENCES_DIR).sort()) {
    if (!f.endsWith(".yaml")) continue;
    out.set(f.slice(0, -".yaml".length), yaml.load(readFileSync(join(SEQUENCES_DIR, f), "utf8")) as Sequence);
  }
  return out;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * The reading window of one answer: `finish` runs once, after 30 s, or for a watch `timeoutMs` after the last chunk
 * (or after the start, when nothing came) or once `events` lines arrived — on a loaded machine events that arrive
 * slowly but steadily are all read, as a quick server sends them. `onData` adds a chunk to the text.
 */
function answerWindow(watch: HttpStep["watch"] | undefined, finish: (text: string) => void): { onData(c: string): void; finish(): void } {
  let text = "";
  let done = false;
  const windowMs = watch ? (watch.timeoutMs ?? 1500) : 30_000;
  const end = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    finish(text);
  };
  let timer = setTimeout(end, windowMs);
  return {
    onData(c: string) {
      text += c;
      if (watch && text.split("\n").filter((l) => l.trim() !== "").length >= watch.events) return end();
      if (watch && !done) {
        clearTimeout(timer);
        timer = setTimeout(end, windowMs);
      }
    },
    finish: end,
  };
}

/** `send` over HTTP/2, on a session of its own (closed with the answer). */
function sendH2(target: Target, method: string, path: string, body: string | Buffer | undefined, headers: Record<string, string>, watch?: HttpStep["watch"]): Promise<RawAnswer> {
  if (!target.url.startsWith("https:")) return Promise.reject(new Error("an h2 step needs a TLS target (sequence `tls: true`)"));
  return new Promise((resolve, reject) => {
    const session = h2connect(target.url, { rejectUnauthorized: false });
    session.on("error", reject);
    const h: Record<string, string> = {};
    for (const [k, v] of Object.entries(headers)) h[k.toLowerCase()] = v;
    if (body !== undefined) h["content-length"] = String(Buffer.byteLength(body));
    const stream = session.request({ ":method": method, ":path": path, ...h });
    let head: Record<string, string | string[] | undefined> | undefined;
    const w = answerWindow(watch, (text) => {
      session.destroy();
      if (head) resolve({ status: Number(head[":status"]), headers: head, text });
      else reject(new Error(`no answer (stream reset with code ${stream.rstCode})`));
    });
    const finish = w.finish;
    stream.on("response", (hs) => {
      head = hs as Record<string, string | string[] | undefined>;
    });
    // The body is read once the head says whether it is gzipped.
    let gunzip: ReturnType<typeof createGunzip> | undefined;
    stream.on("response", () => {
      if (head?.["content-encoding"] === "gzip") gunzip = stream.pipe(createGunzip());
      const src = gunzip ?? stream;
      src.setEncoding("utf8");
      src.on("data", w.onData);
      src.on("end", finish);
      src.on("error", finish);
    });
    // A gzipped body ends when its decompressor has flushed (a truncated one fails there).
    stream.on("close", () => (gunzip ? gunzip.writableEnded || gunzip.end() : finish()));
    stream.on("error", () => (gunzip ? gunzip.writableEnded || gunzip.end() : finish()));
    stream.end(body);
  });
}

function send(target: Target, method: string, path: string, body: string | Buffer | undefined, headers: Record<string, string>, watch?: HttpStep["watch"], rawTarget = false): Promise<RawAnswer> {
  const u = new URL(rawTarget ? "/" : path, target.url);
  const tls = u.protocol === "https:";
  const h: Record<string, string> = { ...headers };
  if (body !== undefined) h["Content-Length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const opts = { method, hostname: u.hostname, port: u.port, path: rawTarget ? path : u.pathname + u.search, headers: h, rejectUnauthorized: false };
    const req = (tls ? httpsRequest : httpRequest)(opts, (res) => {
      const w = answerWindow(watch, (text) => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text });
        res.destroy();
      });
      const finish = w.finish;
      // A gzipped answer (the client sent `Accept-Encoding: gzip`) is compared as its text.
      const body = res.headers["content-encoding"] === "gzip" ? res.pipe(createGunzip()) : res;
      body.setEncoding("utf8");
      body.on("data", w.onData);
      body.on("end", finish);
      body.on("error", finish);
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

function lookup(saved: Map<string, unknown>, expr: string): string {
  const [name, ...path] = expr.split(".");
  let v: unknown = saved.get(name ?? "");
  for (const p of path) v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[p] : undefined;
  // A value the server did not answer is sent as a marker: the step's answer then shows the difference.
  return v === undefined ? "MISSING" : String(v);
}

function expand(s: string, saved: Map<string, unknown>): string {
  return s.replace(/\{\{([^}]+)\}\}/g, (_, e: string) => lookup(saved, e.trim()));
}

function parseBody(text: string, contentType: string): unknown {
  if (contentType === "application/json" && text.startsWith('{\n  "paths": [')) return normalizeIndex(text);
  if (/json/.test(contentType)) {
    try {
      if (/watch|stream/.test(contentType) || text.trim().includes("\n")) {
        const lines = text.split("\n").filter((l) => l.trim() !== "");
        if (lines.length > 1) return lines.map((l) => normalizeJson(JSON.parse(l)));
      }
      return normalizeJson(JSON.parse(text));
    } catch {
      return normalizeText(text);
    }
  }
  return normalizeText(text);
}

function stepBody(step: HttpStep, text: string, contentType: string): unknown {
  if (step.text === "layout") {
    let json: unknown;
    try {
      json = normalizeJson(JSON.parse(text));
    } catch {
      json = parseBody(text, contentType);
    }
    return { indented: /^[[{]\n {2}\S/.test(text), newline: text.endsWith("\n"), json };
  }
  if (step.digest) {
    const json = JSON.stringify(parseBody(text, contentType));
    return { sha256: createHash("sha256").update(json).digest("hex"), length: json.length };
  }
  return step.text ? normalizeText(text) : parseBody(text, contentType);
}

function runKubectl(target: Target, args: string[], stdin: string | undefined, home: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const all = [...args, "--server", target.url, "--cache-dir", join(home, "cache"), ...target.kubectlFlags];
  return new Promise((resolve) => {
    const child = execFile(
      "kubectl",
      all,
      { cwd: REPO_ROOT, env: { PATH: process.env["PATH"] ?? "", HOME: home, KUBECONFIG: join(home, "none") }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === "number" ? ((err as { code: number }).code) : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
    // kubectl may exit before it reads all of its input (an error first): its exit code and output say so.
    child.stdin?.on("error", () => {});
    if (stdin !== undefined) child.stdin?.end(stdin);
    else child.stdin?.end();
  });
}

async function waitEstablished(target: Target, name: string, namesChecked = false, listable = false): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const a = await send(target, "GET", `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`, undefined, {});
    if (a.status === 200) {
      const crd = JSON.parse(a.text) as { status?: { conditions?: { type: string; status: string }[] } };
      const done = namesChecked
        ? crd.status?.conditions?.some((c) => c.type === "NamesAccepted")
        : crd.status?.conditions?.some((c) => c.type === "Established" && c.status === "True");
      if (done) {
        // The real server also waits for its discovery and handler caches; give both the same settle time.
        await new Promise((r) => setTimeout(r, 300));
        if (listable) await waitListable(target, JSON.parse(a.text) as CrdShape);
        return;
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`CRD ${name} not Established after 10 s`);
}

async function waitDeleted(target: Target, name: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const a = await send(target, "GET", `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`, undefined, {});
    if (a.status === 404) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`CRD ${name} not deleted after 10 s`);
}

interface CrdShape {
  spec?: { group?: string; names?: { plural?: string }; versions?: { name: string; served?: boolean }[] };
}

/**
 * Until a list of the CRD's resource is not refused with 429: on an etcd with consistent reads from the watch
 * cache (3.5.13+, 3.6), the real server lists through the resource's watch cache, which may still be
 * initialising (`storage is (re)initializing`) a moment after the CRD is Established.
 */
async function waitListable(target: Target, crd: CrdShape): Promise<void> {
  const version = crd.spec?.versions?.find((v) => v.served)?.name;
  if (!crd.spec?.group || !crd.spec.names?.plural || !version) return;
  for (let i = 0; i < 100; i++) {
    const a = await send(target, "GET", `/apis/${crd.spec.group}/${version}/${crd.spec.names.plural}?limit=1`, undefined, {});
    if (a.status !== 429) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Records the names that servers generated from `metadata.generateName` in an answer. */
function collectGenerated(text: string, out: Map<string, string>): void {
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      const m = o["metadata"] as Record<string, unknown> | undefined;
      // A generated name is generateName and 5 characters of the API server's alphabet (an update may give an
      // object with another name a generateName too).
      const gen = m?.["generateName"];
      const name = m?.["name"];
      // (A generateName over 58 characters is cut to 58.)
      const base = typeof gen === "string" ? gen.slice(0, 58) : "";
      const generated = typeof gen === "string" && typeof name === "string" && name.startsWith(base) && /^[bcdfghjklmnpqrstvwxz2456789]{5}$/.test(name.slice(base.length));
      if (m && generated && !out.has(name)) {
        out.set(name, `${gen}<generated-${out.size + 1}>`);
      }
      Object.values(o).forEach(visit);
    }
  };
  try {
    visit(JSON.parse(text));
  } catch {
    // not JSON
  }
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/** The sequence's webhook and the texts to mask in its answers. */
async function sequenceWebhook(saved: Map<string, unknown>): Promise<{ hook: ConversionWebhook; masks: [string, string][] }> {
  const hook = await startConversionWebhook();
  const other = await generateCa("another-ca");
  const otherCaBundle = Buffer.from(other.cert).toString("base64");
  const closed = await closedPort();
  saved.set("webhook", { url: hook.url, caBundle: hook.caBundle, otherCaBundle, closedUrl: `https://127.0.0.1:${closed}/convert` });
  const masks: [string, string][] = [
    [`127.0.0.1:${hook.port}`, "<webhook-address>"],
    [`127.0.0.1:${closed}`, "<closed-address>"],
    [hook.caBundle, "<caBundle>"],
    [otherCaBundle, "<other-caBundle>"],
  ];
  return { hook, masks };
}

/** Runs one sequence and returns one result per HTTP or kubectl step. */
export async function runSequence(target: Target, seq: Sequence): Promise<StepResult[]> {
  const saved = new Map<string, unknown>();
  const generated = new Map<string, string>();
  let results: StepResult[] = [];
  const home = mkdtempSync(join(tmpdir(), "crdkit-server-diff-"));
  const webhook = seq.webhook ? await sequenceWebhook(saved) : undefined;
  try {
    let n = 0;
    for (const step of seq.steps) {
      n++;
      if ("webhook" in step) {
        if (!webhook) throw new Error("a webhook step in a sequence without `webhook: true`");
        webhook.hook.mode = step.webhook.mode;
        continue;
      }
      if ("webhookReview" in step) {
        if (!webhook) throw new Error("a webhookReview step in a sequence without `webhook: true`");
        const want = step.webhookReview;
        const review = [...webhook.hook.reviews]
          .reverse()
          .find((r) => r.request?.desiredAPIVersion === want.desiredAPIVersion && r.request?.objects?.[0]?.metadata?.name === want.object);
        results.push({ step: step.name ?? `${n}: webhook review ${want.desiredAPIVersion} ${want.object}`, status: review ? 200 : 404, headers: {}, body: normalizeJson(review ?? null) });
        continue;
      }
      if ("wait" in step) {
        const w = step.wait;
        if ("deleted" in w) await waitDeleted(target, w.deleted);
        else await ("namesChecked" in w ? waitEstablished(target, w.namesChecked, true) : waitEstablished(target, w.established, false, w.listable === true));
        continue;
      }
      if ("kubectl" in step) {
        const r = await runKubectl(target, step.kubectl, step.stdin, home);
        results.push({ step: step.name ?? `${n}: kubectl ${step.kubectl.join(" ")}`, code: r.code, stdout: normalizeKubectl(r.stdout), stderr: normalizeKubectl(r.stderr) });
        continue;
      }
      let body: string | Buffer | undefined;
      if (step.rawBase64 !== undefined) body = Buffer.from(step.rawBase64, "base64");
      else if (step.raw !== undefined) body = step.literal ? step.raw : expand(step.raw, saved);
      else if (step.body !== undefined) body = step.literal ? JSON.stringify(step.body) : expand(JSON.stringify(step.body), saved);
      else if (step.bodyFile !== undefined) body = JSON.stringify(yaml.load(readFileSync(join(REPO_ROOT, step.bodyFile), "utf8")));
      const headers: Record<string, string> = { ...(step.headers ?? {}) };
      if (body !== undefined && step.contentType !== "") headers["Content-Type"] = step.contentType ?? "application/json";
      const path = expand(step.path, saved);
      let a: RawAnswer;
      try {
        a = step.protocol === "h2" ? await sendH2(target, step.method, path, body, headers, step.watch) : await send(target, step.method, path, body, headers, step.watch, step.rawTarget);
      } catch (e) {
        // A server that drops the connection answers nothing: recorded as status 0 with the client's error code.
        a = { status: 0, headers: {}, text: `connection error: ${(e as { code?: string }).code ?? (e as Error).message}` };
      }
      const ct = String(a.headers["content-type"] ?? "");
      collectGenerated(a.text, generated);
      if (step.saveAs) {
        try {
          saved.set(step.saveAs, JSON.parse(a.text));
        } catch {
          saved.set(step.saveAs, undefined);
        }
      }
      const hs: Record<string, string> = {};
      for (const h of COMPARED_HEADERS) {
        const v = a.headers[h];
        if (v !== undefined) hs[h] = normalizeText(Array.isArray(v) ? v.join("\n") : v);
      }
      for (const h of step.compareHeaders ?? []) {
        const v = a.headers[h];
        hs[h] = v === undefined ? "<absent>" : normalizeText(Array.isArray(v) ? v.join("\n") : v);
      }
      results.push({ step: step.name ?? `${n}: ${step.method} ${step.path}`, status: a.status, headers: hs, body: stepBody(step, a.text, ct) });
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
    await webhook?.hook.close();
  }
  if (webhook) {
    let text = JSON.stringify(results);
    for (const [from, to] of webhook.masks) text = text.split(from).join(to);
    results = JSON.parse(text) as StepResult[];
  }
  // Names made from generateName are random: number them in order of appearance.
  if (generated.size > 0) {
    let text = JSON.stringify(results);
    for (const [name, mask] of generated) text = text.split(name).join(mask);
    results = JSON.parse(text) as StepResult[];
  }
  return results;
}
