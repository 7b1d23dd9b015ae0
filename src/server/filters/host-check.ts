/**
 * DNS-rebinding and cross-site protection for a server bound to a loopback address (a crdkit addition;
 * the API server has no such check, it relies on authentication). A web page can make a browser send
 * requests to 127.0.0.1 — through a DNS name that rebinds to it (the Host header then names the attacker's
 * domain) or directly with a body that needs no CORS preflight (the Origin header then names the page).
 * Such requests are refused with 403 unless Host and Origin name a loopback host or the listen address.
 */
import type { IncomingHttpHeaders } from "node:http";
import { isIP } from "node:net";
import { type ApiError, apiErrors } from "../endpoints/errors.js";

/** localhost (and `*.localhost`, which resolvers keep on loopback), 127.0.0.0/8, ::1 (also IPv4-mapped). */
export function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  if (isIP(h) === 6) {
    // WHATWG URL serialises IPv6 canonically: ::1, and IPv4-mapped 127.x.y.z as ::ffff:7fxx:yyzz.
    const canon = new URL(`http://[${h}]`).hostname;
    return canon === "[::1]" || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(canon);
  }
  return false;
}

/** The host name of a `Host` header value (`name[:port]`, `[v6][:port]`), or undefined if malformed. */
function hostName(value: string): string | undefined {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]]+)(?::\d{1,5})?$/.exec(value.trim());
  return m ? m[1] : undefined;
}

/** The host of an `Origin` header (`scheme://host[:port]`), or undefined (`null`, malformed). */
function originHost(value: string): string | undefined {
  try {
    const u = new URL(value);
    return u.protocol === "http:" || u.protocol === "https:" ? u.hostname : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A check for a server listening on `listenHost`: undefined when the server is not bound to loopback (no
 * check), else a function answering the 403 to send, or undefined to let the request through.
 */
export function loopbackRequestGuard(listenHost: string): ((headers: IncomingHttpHeaders) => ApiError | undefined) | undefined {
  if (!isLoopbackName(listenHost)) return undefined;
  const listen = listenHost.toLowerCase().replace(/^\[|\]$/g, "");
  const allowed = (name: string) => isLoopbackName(name) || name.toLowerCase().replace(/^\[|\]$/g, "") === listen;
  // The last Host value let through: a client sends the same one on every request of a connection.
  let lastHost: string | undefined;
  return (headers) => {
    // HTTP/2 names the host in `:authority` (Go's Request.Host), HTTP/1.1 in Host.
    const host = headers.host ?? (headers[":authority"] as string | undefined);
    if (host !== undefined && host !== lastHost) {
      const name = hostName(host);
      if (name === undefined || !allowed(name)) {
        return apiErrors.forbidden(
          `crdkit: Host ${JSON.stringify(host)} is not a loopback address: a server listening on ${listenHost} only answers requests for localhost, 127.0.0.0/8 or [::1] (DNS rebinding protection)`,
        );
      }
      lastHost = host;
    }
    const origin = headers.origin;
    if (origin !== undefined) {
      const name = originHost(origin);
      if (name === undefined || !allowed(name)) {
        return apiErrors.forbidden(
          `crdkit: Origin ${JSON.stringify(origin)} is not a loopback origin: a server listening on ${listenHost} refuses requests from web pages of other sites`,
        );
      }
    }
    return undefined;
  };
}
