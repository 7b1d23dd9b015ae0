/**
 * apiextensions.k8s.io/v1 defaulting (`v1/defaults.go`): `names.singular` = lower(kind), `names.listKind` =
 * kind + "List", `conversion` = {strategy: None}, webhook service port 443, `status.storedVersions` = the
 * first storage version when empty.
 */
import type { CustomResourceDefinition } from "./types.js";

/** Applies v1 defaulting in place. */
export function applyV1Defaults(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (!spec.names.singular) spec.names.singular = spec.names.kind.toLowerCase();
  if (!spec.names.listKind && spec.names.kind.length > 0) spec.names.listKind = spec.names.kind + "List";
  if (!spec.conversion) spec.conversion = { strategy: "None" };
  const svc = spec.conversion.webhook?.clientConfig?.service;
  if (svc && svc.port === undefined) svc.port = 443;
  crd.status ??= {};
  if (!crd.status.storedVersions || crd.status.storedVersions.length === 0) {
    const storage = spec.versions.find((v) => v.storage);
    if (storage) crd.status.storedVersions = [storage.name];
  }
}
