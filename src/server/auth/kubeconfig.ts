/**
 * The kubeconfig `crdkit serve --write-kubeconfig FILE` writes: the server URL, the CA to trust, and —
 * when authentication is on — an administrator credential (a client certificate `CN=crdkit-admin`,
 * `O=system:masters`, signed by the server's own client CA), usable by kubectl and client libraries as is.
 */
import { stringify } from "yaml";
import { generateClientCert } from "./pki.js";
import type { Security } from "./security.js";
import { SYSTEM_MASTERS } from "./user-info.js";

export const ADMIN_USER = "crdkit-admin";

function b64(pem: string): string {
  return Buffer.from(pem, "utf8").toString("base64");
}

/** A reachable URL for a server bound to a wildcard address. */
function clientUrl(url: string): string {
  return url.replace("://0.0.0.0:", "://127.0.0.1:").replace("://[::]:", "://[::1]:");
}

/** The kubeconfig text for a server at `url` running with `security`. */
export async function kubeconfigFor(url: string, security: Security): Promise<string> {
  const cluster: Record<string, string> = { server: clientUrl(url) };
  if (security.trustedCa) cluster["certificate-authority-data"] = b64(security.trustedCa);
  const user: Record<string, string> = {};
  if (security.authenticator && security.clientSigner) {
    const cert = await generateClientCert(security.clientSigner, ADMIN_USER, [SYSTEM_MASTERS]);
    user["client-certificate-data"] = b64(cert.cert);
    user["client-key-data"] = b64(cert.key);
  }
  return stringify({
    apiVersion: "v1",
    kind: "Config",
    clusters: [{ name: "crdkit", cluster }],
    contexts: [{ name: "crdkit", context: { cluster: "crdkit", user: ADMIN_USER, namespace: "default" } }],
    "current-context": "crdkit",
    preferences: {},
    users: [{ name: ADMIN_USER, user }],
  });
}
