/**
 * `crdkit serve --service-endpoint NAMESPACE/NAME[:PORT]=HOST:PORT` (repeatable): where a conversion webhook
 * given as `clientConfig.service` is reached. The API server asks the service's endpoints; crdkit has no
 * Services, so each one a CRD names is mapped here (without a mapping the service's cluster DNS name
 * `NAME.NAMESPACE.svc` is dialled, as Kubernetes' default resolver). TLS still verifies the webhook's
 * certificate for `NAME.NAMESPACE.svc`, as the API server does.
 */
import type { ServiceResolver } from "../server/conversion/webhook-client.js";

export const WEBHOOK_USAGE = `  --service-endpoint NS/NAME[:PORT]=HOST:PORT   reach the conversion webhook service NS/NAME (port PORT,
                                default every port) at HOST:PORT (repeatable)
`;

export interface ServiceEndpoint {
  namespace: string;
  name: string;
  /** Undefined: every port of the service. */
  port?: number;
  host: string;
  targetPort: number;
}

export function isWebhookFlag(flag: string): boolean {
  return flag === "--service-endpoint";
}

/** Parses one `--service-endpoint` value into `into`; returns an error text for a bad value. */
export function setWebhookFlag(into: ServiceEndpoint[], value: string | undefined): string | undefined {
  const m = value ? /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\/([a-z0-9]([-a-z0-9]*[a-z0-9])?)(?::(\d{1,5}))?=(\[[^\]]+\]|[^:=\s]+):(\d{1,5})$/.exec(value) : null;
  if (!m || Number(m[5] ?? 1) > 65535 || Number(m[7]) > 65535 || Number(m[7]) === 0) {
    return `invalid --service-endpoint ${JSON.stringify(value ?? "")}: want NAMESPACE/NAME[:PORT]=HOST:PORT`;
  }
  const e: ServiceEndpoint = { namespace: m[1]!, name: m[3]!, host: m[6]!.replace(/^\[|\]$/g, ""), targetPort: Number(m[7]) };
  if (m[5] !== undefined) e.port = Number(m[5]);
  into.push(e);
  return undefined;
}

/** The resolver of the given endpoints (a port-specific mapping wins), or undefined when there are none. */
export function serviceResolverOf(endpoints: readonly ServiceEndpoint[]): ServiceResolver | undefined {
  if (endpoints.length === 0) return undefined;
  return (namespace, name, port) => {
    const match = (e: ServiceEndpoint) => e.namespace === namespace && e.name === name;
    const e = endpoints.find((x) => match(x) && x.port === port) ?? endpoints.find((x) => match(x) && x.port === undefined);
    return e ? { host: e.host, port: e.targetPort } : { host: `${name}.${namespace}.svc`, port };
  };
}
