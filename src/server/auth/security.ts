/**
 * Turns kube-apiserver's security flags into what the server runs with: TLS serving (given files, or a
 * CA and serving certificate generated into `DIR/pki` and reused on restart), the authenticator (client
 * certificates, token file, anonymous) and the authorization mode. Without any flag on a loopback
 * address the server stays open (plain HTTP, every request allowed), as before.
 */
import { createPrivateKey, X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname, networkInterfaces } from "node:os";
import { isIP } from "node:net";
import { join } from "node:path";
import { CrdkitError } from "../../errors/index.js";
import { Authenticator } from "./authenticator.js";
import type { AuthorizationMode } from "./authorizer.js";
import { generateCa, generateServingCert, type KeyPair } from "./pki.js";
import { readTokenFile } from "./token-file.js";

/** kube-apiserver's flags. */
export interface SecurityOptions {
  tlsCertFile?: string;
  tlsPrivateKeyFile?: string;
  clientCaFile?: string;
  tokenAuthFile?: string;
  /** `--anonymous-auth` (default false when authentication is on). */
  anonymousAuth?: boolean;
  authorizationMode?: AuthorizationMode;
}

/** What the server runs with. */
export interface Security {
  /** TLS serving options, or undefined for plain HTTP. */
  tls?: { cert: string; key: string; ca?: string[]; requestCert: boolean };
  /** PEM of what clients should trust (kubeconfig `certificate-authority-data`). */
  trustedCa?: string;
  /** The CA whose client certificates are accepted and that signs `--write-kubeconfig`'s admin certificate. */
  clientSigner?: KeyPair;
  /** Undefined: open server (no authentication, everything allowed). */
  authenticator?: Authenticator;
  authorizationMode: AuthorizationMode;
  /** Human description for the first log line. */
  summary: string;
  /** Warnings found while reading the flags' files (e.g. duplicate tokens). */
  warnings: string[];
}

/** A problem with a security flag or its file: the server does not start. */
export class SecurityConfigError extends CrdkitError {
  constructor(message: string) {
    super("security-config", message);
  }
}

function readPem(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    throw new SecurityConfigError(`unable to load ${what} file ${JSON.stringify(path)}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Whether `host` is a loopback address or name. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The names and addresses a generated serving certificate covers for a server bound to `host`. */
function servingHosts(host: string): string[] {
  const hosts = ["localhost", "127.0.0.1", "::1", hostname()];
  if (host === "0.0.0.0" || host === "::" || host === "") {
    for (const addrs of Object.values(networkInterfaces())) for (const a of addrs ?? []) hosts.push(a.address.replace(/%.*$/, ""));
  } else hosts.push(host);
  return [...new Set(hosts.filter((h) => h !== ""))];
}

function covers(certPem: string, hosts: readonly string[]): boolean {
  try {
    const c = new X509Certificate(certPem);
    if (new Date(c.validTo).getTime() < Date.now() + 86_400_000) return false;
    return hosts.every((h) => (isIP(h) ? c.checkIP(h) !== undefined : c.checkHost(h) !== undefined));
  } catch {
    return false;
  }
}

/** The CA and serving certificate in `DIR/pki` (created, or reused when still valid for the hosts). */
async function selfSigned(dataDir: string | undefined, host: string): Promise<{ ca: KeyPair; serving: KeyPair }> {
  const hosts = servingHosts(host);
  const dir = dataDir === undefined ? undefined : join(dataDir, "pki");
  const file = (n: string) => join(dir!, n);
  let ca: KeyPair | undefined;
  if (dir && existsSync(file("ca.crt")) && existsSync(file("ca.key"))) ca = { cert: readPem(file("ca.crt"), "CA"), key: readPem(file("ca.key"), "CA key") };
  let serving: KeyPair | undefined;
  if (ca && dir && existsSync(file("serving.crt")) && existsSync(file("serving.key"))) {
    const s = { cert: readPem(file("serving.crt"), "serving certificate"), key: readPem(file("serving.key"), "serving key") };
    if (covers(s.cert, hosts)) serving = s;
  }
  if (!ca) {
    ca = await generateCa(`crdkit-ca@${Math.floor(Date.now() / 1000)}`);
    if (dir) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(file("ca.crt"), ca.cert);
      writeFileSync(file("ca.key"), ca.key, { mode: 0o600 });
    }
  }
  if (!serving) {
    serving = await generateServingCert(ca, hosts);
    if (dir) {
      writeFileSync(file("serving.crt"), serving.cert);
      writeFileSync(file("serving.key"), serving.key, { mode: 0o600 });
    }
  }
  return { ca, serving };
}

/** Whether any authentication or authorization flag is set. */
function authFlags(o: SecurityOptions): boolean {
  return o.tokenAuthFile !== undefined || o.clientCaFile !== undefined || o.anonymousAuth !== undefined || o.authorizationMode !== undefined;
}

/** Reads the flags' files and generates what is missing. */
export async function setupSecurity(o: SecurityOptions, host: string, dataDir: string | undefined): Promise<Security> {
  if ((o.tlsCertFile === undefined) !== (o.tlsPrivateKeyFile === undefined)) {
    throw new SecurityConfigError("--tls-cert-file and --tls-private-key-file must be given together");
  }
  const given = o.tlsCertFile !== undefined ? { cert: readPem(o.tlsCertFile, "serving certificate"), key: readPem(o.tlsPrivateKeyFile!, "serving key") } : undefined;
  if (given) checkKeyPair(given);
  const authOn = authFlags(o) || !isLoopback(host);
  if (!authOn) {
    const base = { authorizationMode: "AlwaysAllow" as const, warnings: [] };
    if (!given) return { ...base, summary: "no authentication or authorization (loopback only): every request is allowed" };
    return { ...base, tls: { ...given, requestCert: false }, trustedCa: lastCertificate(given.cert), summary: "TLS; no authentication or authorization (loopback only): every request is allowed" };
  }
  const generated = await selfSigned(dataDir, host);
  const serving = given ?? generated.serving;
  const clientCas = [generated.ca.cert];
  if (o.clientCaFile !== undefined) {
    const pem = readPem(o.clientCaFile, "client CA");
    if (certificates(pem).length === 0) throw new SecurityConfigError(`unable to load client CA file ${JSON.stringify(o.clientCaFile)}: data does not contain any valid certificates`);
    for (const c of certificates(pem)) {
      try {
        new X509Certificate(c);
      } catch (e) {
        throw new SecurityConfigError(`unable to load client CA file ${JSON.stringify(o.clientCaFile)}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    clientCas.push(pem);
  }
  const warnings: string[] = [];
  let tokens: Map<string, import("./user-info.js").UserInfo> | undefined;
  if (o.tokenAuthFile !== undefined) {
    try {
      const tf = readTokenFile(o.tokenAuthFile);
      tokens = tf.tokens;
      warnings.push(...tf.warnings);
    } catch (e) {
      throw new SecurityConfigError(e instanceof Error ? e.message : String(e));
    }
  }
  const anonymous = o.anonymousAuth === true;
  const mode = o.authorizationMode ?? "AlwaysAllow";
  if (anonymous && mode === "AlwaysAllow") warnings.push("--anonymous-auth=true with --authorization-mode=AlwaysAllow: requests without credentials may do everything");
  const parts = ["TLS", "client certificates", ...(tokens ? ["token file"] : []), anonymous ? "anonymous allowed" : "anonymous refused", `authorization ${mode}`];
  return {
    tls: { cert: serving.cert, key: serving.key, ca: clientCas, requestCert: true },
    trustedCa: given ? lastCertificate(given.cert) : generated.ca.cert,
    clientSigner: generated.ca,
    authenticator: new Authenticator({ ...(tokens ? { tokens } : {}), clientCertificates: true, anonymous }),
    authorizationMode: mode,
    summary: parts.join(", "),
    warnings,
  };
}

/** The PEM certificates in a file's text. */
function certificates(pem: string): string[] {
  return pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
}

/** The last certificate of a PEM chain (the one closest to the root), what a kubeconfig should trust. */
function lastCertificate(pem: string): string {
  const all = certificates(pem);
  return all.length > 0 ? `${all[all.length - 1]!}\n` : pem;
}

/** The serving certificate parses and matches its key (`tls.X509KeyPair`). */
function checkKeyPair(kp: KeyPair): void {
  try {
    const first = certificates(kp.cert)[0];
    if (!first) throw new Error("tls: failed to find any PEM data in certificate input");
    const cert = new X509Certificate(first);
    if (!cert.checkPrivateKey(createPrivateKey(kp.key))) throw new Error("tls: private key does not match public key");
  } catch (e) {
    throw new SecurityConfigError(`unable to load server certificate: ${e instanceof Error ? e.message : String(e)}`);
  }
}
