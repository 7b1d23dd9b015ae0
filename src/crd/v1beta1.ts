/**
 * The legacy apiextensions.k8s.io/v1beta1 form: its defaulting (`v1beta1/defaults.go`: scope Namespaced,
 * versions from `version`, `preserveUnknownFields: true`, webhook conversionReviewVersions [v1beta1]) and the
 * internal → v1 conversion (top-level schema / subresources / columns / selectable fields copied into every
 * version).
 */
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from "./types.js";
import type { InternalCrd } from "./internal.js";

/** v1beta1 defaulting, applied to the internal form built from a v1beta1 object. */
export function v1beta1Defaults(crd: InternalCrd): void {
  const spec = crd.spec;
  if (!spec.scope) spec.scope = "Namespaced";
  if (!spec.names.singular) spec.names.singular = spec.names.kind.toLowerCase();
  if (!spec.names.listKind && spec.names.kind.length > 0) spec.names.listKind = spec.names.kind + "List";
  if (spec.versions.length === 0 && spec.version) spec.versions = [{ name: spec.version, served: true, storage: true, deprecated: false }];
  if (!spec.version && spec.versions.length > 0) spec.version = spec.versions[0]!.name;
  if (!spec.conversion) spec.conversion = { strategy: "None" };
  if (spec.conversion.strategy === "Webhook" && (spec.conversion.conversionReviewVersions ?? []).length === 0) {
    spec.conversion.conversionReviewVersions = ["v1beta1"];
  }
  if (spec.preserveUnknownFields === undefined) spec.preserveUnknownFields = true;
  if (crd.status.storedVersions.length === 0) {
    const storage = spec.versions.find((v) => v.storage);
    if (storage) crd.status.storedVersions = [storage.name];
  }
}

/** `Convert_apiextensions_CustomResourceDefinition_To_v1_CustomResourceDefinition`. */
export function internalToV1(crd: InternalCrd, apiVersion = "apiextensions.k8s.io/v1"): CustomResourceDefinition {
  const s = crd.spec;
  let versions: CustomResourceDefinitionVersion[] = s.versions.map((v) => {
    const out: CustomResourceDefinitionVersion = { name: v.name, served: v.served, storage: v.storage };
    if (v.deprecated) out.deprecated = true;
    if (v.deprecationWarning !== undefined) out.deprecationWarning = v.deprecationWarning;
    if (v.schema) out.schema = v.schema;
    if (v.subresources) out.subresources = v.subresources;
    if (v.additionalPrinterColumns) out.additionalPrinterColumns = v.additionalPrinterColumns;
    if (v.selectableFields) out.selectableFields = v.selectableFields;
    return out;
  });
  if (versions.length === 0 && s.version) versions = [{ name: s.version, served: true, storage: true }];
  for (const v of versions) {
    if (s.subresources) v.subresources = s.subresources;
    if (s.validation) v.schema = s.validation;
    if (s.additionalPrinterColumns) v.additionalPrinterColumns = s.additionalPrinterColumns;
    if (s.selectableFields) v.selectableFields = s.selectableFields;
  }
  const out: CustomResourceDefinition = {
    apiVersion,
    kind: "CustomResourceDefinition",
    metadata: crd.metadata,
    spec: { group: s.group, names: s.names, scope: s.scope, versions },
    status: { conditions: crd.status.conditions, acceptedNames: crd.status.acceptedNames, storedVersions: crd.status.storedVersions },
  };
  if (s.preserveUnknownFields !== undefined) out.spec.preserveUnknownFields = s.preserveUnknownFields;
  if (s.conversion) {
    const c: NonNullable<CustomResourceDefinition["spec"]["conversion"]> = { strategy: s.conversion.strategy };
    if (s.conversion.webhookClientConfig || s.conversion.conversionReviewVersions) {
      c.webhook = { conversionReviewVersions: s.conversion.conversionReviewVersions ?? [] };
      if (s.conversion.webhookClientConfig) c.webhook.clientConfig = s.conversion.webhookClientConfig;
    }
    out.spec.conversion = c;
  }
  return out;
}
