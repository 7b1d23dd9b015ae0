/** Parsing of kube-apiserver's security flags for `crdkit serve`. */
import type { SecurityOptions } from "./security.js";

export const SECURITY_USAGE = `
Security (kube-apiserver's flags; without any, a loopback server is open: plain HTTP, all allowed):
  --tls-cert-file FILE, --tls-private-key-file FILE
                       serve TLS with this certificate (default when authentication is on or the
                       address is not loopback: a CA and certificate generated into DIR/pki)
  --client-ca-file FILE
                       accept client certificates signed by these CAs (CN = user, O = groups)
  --token-auth-file FILE
                       bearer tokens, CSV lines token,user,uid,"group1,group2"
  --anonymous-auth=true|false
                       allow requests without credentials as system:anonymous (default false)
  --authorization-mode=AlwaysAllow|RBAC
                       RBAC: Roles/ClusterRoles/bindings decide; system:masters may do everything
  --write-kubeconfig FILE
                       write a kubeconfig for this server (with an admin client certificate when
                       authentication is on)
`;

/**
 * Applies one flag to `out`: true when consumed, false when not a security flag, a message when its value
 * is wrong. `inline` is the `=value` part, `next` reads the following argument.
 */
export function parseSecurityFlag(flag: string, inline: string | undefined, next: () => string | undefined, out: SecurityOptions): boolean | string {
  const file = (k: "tlsCertFile" | "tlsPrivateKeyFile" | "clientCaFile" | "tokenAuthFile"): true | string => {
    const v = inline ?? next();
    if (!v) return `flag ${flag} needs a file`;
    out[k] = v;
    return true;
  };
  switch (flag) {
    case "--tls-cert-file":
      return file("tlsCertFile");
    case "--tls-private-key-file":
      return file("tlsPrivateKeyFile");
    case "--client-ca-file":
      return file("clientCaFile");
    case "--token-auth-file":
      return file("tokenAuthFile");
    case "--anonymous-auth": {
      // A boolean flag: `--anonymous-auth` alone means true; a value only with `=` (as pflag).
      const v = inline ?? "true";
      if (v !== "true" && v !== "false") return `invalid argument ${JSON.stringify(v)} for "--anonymous-auth" flag: want true or false`;
      out.anonymousAuth = v === "true";
      return true;
    }
    case "--authorization-mode": {
      const v = inline ?? next();
      if (v !== "AlwaysAllow" && v !== "RBAC") return `authorization-mode ${JSON.stringify(v ?? "")} is not supported: want AlwaysAllow or RBAC`;
      out.authorizationMode = v;
      return true;
    }
    default:
      return false;
  }
}
