/**
 * Request authentication as kube-apiserver's union authenticator with `FailOnError`: client certificates
 * (verified by the TLS layer against `--client-ca-file`; CN = user, O = groups), then bearer tokens from
 * the token file, then — only with `--anonymous-auth=true` — the anonymous user. Credentials that are
 * presented but wrong (an unknown token, a certificate the CAs do not verify) are refused even when
 * anonymous requests are allowed. Authenticated users get `system:authenticated`.
 */
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { anonymousUser, type UserInfo, withAuthenticatedGroup } from "./user-info.js";

export interface AuthenticatorOptions {
  /** Bearer tokens (`--token-auth-file`). */
  tokens?: Map<string, UserInfo>;
  /** Client certificates are requested and verified by the TLS server (`--client-ca-file`). */
  clientCertificates?: boolean;
  /** `--anonymous-auth`. */
  anonymous: boolean;
}

/** The verdict: a user, or why the request is unauthenticated (the client gets 401 `Unauthorized`). */
export type AuthResult = { user: UserInfo } | { error: string };

/** `O` / `CN` of a peer certificate subject: Node gives a string, or an array for repeated attributes. */
function attrValues(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

export class Authenticator {
  constructor(private readonly opts: AuthenticatorOptions) {}

  authenticate(req: IncomingMessage): AuthResult {
    const cert = this.opts.clientCertificates ? this.certificateUser(req) : undefined;
    if (cert) return "error" in cert ? cert : { user: withAuthenticatedGroup(cert.user) };
    const token = this.opts.tokens ? this.tokenUser(req) : undefined;
    if (token) return "error" in token ? token : { user: withAuthenticatedGroup(token.user) };
    if (this.opts.anonymous) return { user: anonymousUser() };
    return { error: "no credentials" };
  }

  /** x509 `Authenticator.AuthenticateRequest`: undefined when no certificate was presented. */
  private certificateUser(req: IncomingMessage): AuthResult | undefined {
    const socket = req.socket as TLSSocket;
    if (typeof socket.getPeerCertificate !== "function") return undefined;
    const peer = socket.getPeerCertificate();
    if (!peer || Object.keys(peer).length === 0 || !peer.raw) return undefined;
    if (!socket.authorized) return { error: `verifying certificate failed: ${String(socket.authorizationError ?? "unknown authority")}` };
    const subject = peer.subject as unknown as Record<string, string | string[] | undefined>;
    const cn = attrValues(subject["CN"])[0] ?? "";
    // CommonNameUserConversion: a certificate without a CN does not authenticate.
    if (cn === "") return { error: "common name of client certificate is empty" };
    return { user: { name: cn, uid: "", groups: attrValues(subject["O"]) } };
  }

  /** bearertoken + tokenfile: a malformed header is no credential; an unknown token is an error. */
  private tokenUser(req: IncomingMessage): AuthResult | undefined {
    const auth = (req.headers.authorization ?? "").trim();
    if (auth === "") return undefined;
    const parts = auth.split(" ");
    if (parts.length < 2 || parts[0]!.toLowerCase() !== "bearer") return undefined;
    const token = parts[1]!;
    if (token === "") return undefined;
    const u = this.opts.tokens!.get(token);
    if (!u) return { error: "invalid bearer token" };
    return { user: { ...u, groups: [...u.groups] } };
  }
}
