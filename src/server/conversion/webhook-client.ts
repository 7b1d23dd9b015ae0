/**
 * POSTs a body to a conversion webhook as the API server's webhook REST client does
 * (`apiserver/pkg/util/webhook` ClientManager + client-go `rest`): `clientConfig.url` as given, or a
 * `service` at `https://<name>.<namespace>.svc:<port><path>` whose connection goes to the address a
 * {@link ServiceResolver} names while TLS verifies the certificate for `<name>.<namespace>.svc`; `caBundle`
 * (PEM) is the only trust root when set, the system roots otherwise. Failures are returned as Go's texts
 * (`Post "<url>": dial tcp …: connect: connection refused`, `tls: failed to verify certificate: x509: …`).
 */
import { Agent, request as httpsRequest } from "node:https";
import type { IncomingMessage } from "node:http";

/** Where a service's port is reached (the API server asks its endpoints; crdkit asks this). */
export type ServiceResolver = (namespace: string, name: string, port: number) => { host: string; port: number } | undefined;

/** Kubernetes' `defaultServiceResolver`: the service's cluster DNS name. */
export const defaultServiceResolver: ServiceResolver = (namespace, name, port) => ({ host: `${name}.${namespace}.svc`, port });

/** A CRD's `spec.conversion.webhook.clientConfig`, decoded. */
export interface WebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path: string; port: number };
  /** PEM text of `caBundle` (base64-decoded). */
  caBundle?: string;
}

/** The answer of the webhook, before decoding. */
export interface WebhookAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

export interface PostOptions {
  resolver: ServiceResolver;
  /** Deadline of the call (crdkit's; see README). */
  timeoutMs: number;
  /** Largest answer read (crdkit's bound against a runaway webhook). */
  maxBytes: number;
}

/** Largest webhook answer crdkit reads. */
export const MAX_WEBHOOK_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Go's `time.Duration.String()` of a whole number of milliseconds (`300ms`, `30s`, `1m30s`). */
export function goDurationMs(ms: number): string {
  if (ms === 0) return "0s";
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const sMs = ms % 60_000;
  const s = sMs % 1000 === 0 ? String(sMs / 1000) : (sMs / 1000).toFixed(3).replace(/0+$/, "");
  return `${h > 0 ? `${h}h` : ""}${h > 0 || m > 0 ? `${m}m` : ""}${s}s`;
}

/**
 * The URL the request is sent to, as client-go builds and prints it: the webhook client has a timeout,
 * which the REST client also passes as the `timeout` query parameter (`…/convert?timeout=30s`).
 */
export function webhookUrl(cc: WebhookClientConfig, timeoutMs: number): string {
  const query = `?timeout=${goDurationMs(timeoutMs)}`;
  if (cc.service) {
    const path = cc.service.path === "" ? "/" : cc.service.path.startsWith("/") ? cc.service.path : `/${cc.service.path}`;
    return `https://${cc.service.name}.${cc.service.namespace}.svc:${cc.service.port}${path}${query}`;
  }
  const u = new URL(cc.url ?? "");
  return `${u.protocol}//${u.host}${u.pathname === "" ? "/" : u.pathname}${query}`;
}

/** Keep-alive connections per trust root and server name (the API server caches a REST client per config). */
const agents = new Map<string, Agent>();
const MAX_AGENTS = 64;

function agentFor(ca: string | undefined, servername: string, host: string, port: number): Agent {
  const id = `${ca ?? ""}\u0000${servername}\u0000${host}\u0000${port}`;
  let a = agents.get(id);
  if (!a) {
    a = new Agent({ keepAlive: true, maxSockets: 32, maxFreeSockets: 4, timeout: 60_000 });
    agents.set(id, a);
    if (agents.size > MAX_AGENTS) {
      const [oldest, agent] = agents.entries().next().value as [string, Agent];
      agents.delete(oldest);
      agent.destroy();
    }
  }
  return a;
}

/** A failed call: `message` is Go's error text. */
export class WebhookCallError extends Error {}

/** Go's text for a Node network/TLS error, after `Post "<url>": `. */
function goNetError(e: NodeJS.ErrnoException, addr: string, host: string, peerNames: string): string {
  switch (e.code) {
    case "ECONNREFUSED":
      return `dial tcp ${addr}: connect: connection refused`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `dial tcp: lookup ${host}: no such host`;
    case "ECONNRESET":
      return "EOF";
    case "ETIMEDOUT":
      return `dial tcp ${addr}: i/o timeout`;
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT":
    case "UNABLE_TO_GET_ISSUER_CERT_LOCALLY":
    case "CERT_SIGNATURE_FAILURE":
      return "tls: failed to verify certificate: x509: certificate signed by unknown authority";
    case "CERT_HAS_EXPIRED":
    case "CERT_NOT_YET_VALID":
      return "tls: failed to verify certificate: x509: certificate has expired or is not yet valid";
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `tls: failed to verify certificate: x509: certificate is valid for ${peerNames}, not ${host}`;
    default:
      return e.message;
  }
}

/** The names a certificate is valid for (Go lists them in its hostname error). */
function subjectAltNames(e: NodeJS.ErrnoException & { cert?: { subjectaltname?: string } }): string {
  const san = e.cert?.subjectaltname ?? "";
  return san
    .split(", ")
    .map((s) => s.replace(/^(DNS|IP Address):/, ""))
    .filter((s) => s !== "")
    .join(", ");
}

/** POSTs `body` (JSON) to the webhook; rejects with a {@link WebhookCallError} carrying Go's text. */
export function postToWebhook(cc: WebhookClientConfig, body: string, opts: PostOptions): Promise<WebhookAnswer> {
  const url = webhookUrl(cc, opts.timeoutMs);
  let host: string;
  let port: number;
  let servername: string;
  if (cc.service) {
    servername = `${cc.service.name}.${cc.service.namespace}.svc`;
    const ep = opts.resolver(cc.service.namespace, cc.service.name, cc.service.port);
    if (!ep) return Promise.reject(new WebhookCallError(`Post "${url}": dial tcp: lookup ${servername}: no such host`));
    host = ep.host;
    port = ep.port;
  } else {
    const u = new URL(url);
    host = u.hostname.replace(/^\[(.*)\]$/, "$1");
    port = u.port === "" ? 443 : Number(u.port);
    servername = host;
  }
  if (!url.startsWith("https:")) return Promise.reject(new WebhookCallError(`Post "${url}": unsupported protocol scheme`));
  const addr = host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
  return new Promise<WebhookAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (text: string) => {
      if (settled) return;
      settled = true;
      reject(new WebhookCallError(`Post "${url}": ${text}`));
    };
    const req = httpsRequest(
      {
        host,
        port,
        method: "POST",
        path: new URL(url).pathname + new URL(url).search,
        // Go's TLS verification of an IP address; Node's SNI refuses IPs, so only names are sent.
        servername: /^[\d.]+$|:/.test(servername) ? "" : servername,
        ...(cc.caBundle ? { ca: cc.caBundle } : {}),
        headers: { "Content-Type": "application/json", Accept: "application/json, */*", "Content-Length": Buffer.byteLength(body) },
        agent: agentFor(cc.caBundle, servername, host, port),
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size > opts.maxBytes) {
            res.destroy();
            fail(`crdkit: the webhook's answer is larger than ${opts.maxBytes} bytes`);
            return;
          }
          chunks.push(c);
        });
        res.on("error", (e: NodeJS.ErrnoException) => fail(`unexpected error when reading response body. Please retry. Original error: ${e.message}`));
        res.on("end", () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), body: Buffer.concat(chunks) });
        });
      },
    );
    const timer = setTimeout(() => {
      fail("context deadline exceeded");
      req.destroy();
    }, opts.timeoutMs);
    req.on("error", (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(goNetError(e, addr, servername, subjectAltNames(e)));
    });
    req.end(body);
  });
}
