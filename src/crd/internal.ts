/**
 * The internal (hub) form of a CRD, `pkg/apis/apiextensions/types.go`: what Kubernetes validates. v1 CRDs
 * reach it through defaulting and {@link v1ToInternal}, which hoists per-version schema / subresources /
 * printer columns / selectable fields to the top level when they are identical in every version.
 */
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  CustomResourceValidation,
  ObjectMetaLike,
  SelectableField,
} from "./types.js";
import { semanticEqual } from "./semantic-equal.js";
import type { JsonValue } from "../value/json-value.js";

export interface InternalServiceReference {
  namespace: string;
  name: string;
  path?: string;
  port: number;
}

export interface InternalWebhookClientConfig {
  url?: string;
  service?: InternalServiceReference;
  /** base64 as written (decoded bytes are only checked by the CA bundle validation). */
  caBundle?: string;
}

export interface InternalConversion {
  strategy: string;
  webhookClientConfig?: InternalWebhookClientConfig;
  conversionReviewVersions?: string[];
}

export interface InternalVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated: boolean;
  deprecationWarning?: string;
  schema?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

export interface InternalSpec {
  group: string;
  /** `spec.version` = versions[0].name. */
  version: string;
  names: CustomResourceDefinitionNames;
  scope: string;
  validation?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  versions: InternalVersion[];
  /** No versions were given (Go's nil slice, printed as null in errors; empty `versions: []` prints []). */
  versionsNil?: true;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
  conversion?: InternalConversion;
  preserveUnknownFields?: boolean;
}

export interface InternalCrd {
  metadata: ObjectMetaLike;
  spec: InternalSpec;
  status: {
    conditions: CustomResourceDefinitionCondition[];
    acceptedNames: CustomResourceDefinitionNames;
    storedVersions: string[];
  };
}

function versionToInternal(v: CustomResourceDefinitionVersion): InternalVersion {
  const out: InternalVersion = { name: v.name, served: v.served, storage: v.storage, deprecated: v.deprecated ?? false };
  if (v.deprecationWarning !== undefined) out.deprecationWarning = v.deprecationWarning;
  if (v.schema !== undefined) out.schema = v.schema;
  if (v.subresources !== undefined) out.subresources = v.subresources;
  if (v.additionalPrinterColumns !== undefined) out.additionalPrinterColumns = v.additionalPrinterColumns;
  if (v.selectableFields !== undefined) out.selectableFields = v.selectableFields;
  return out;
}

/** `Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition` (input already defaulted). */
export function v1ToInternal(crd: CustomResourceDefinition): InternalCrd {
  const s = crd.spec;
  const versions = s.versions.map(versionToInternal);
  const spec: InternalSpec = { group: s.group, version: "", names: s.names, scope: s.scope, versions };
  // v1 `preserveUnknownFields` is a plain bool: the internal pointer is always set.
  spec.preserveUnknownFields = s.preserveUnknownFields ?? false;
  if (s.conversion) {
    const c: InternalConversion = { strategy: s.conversion.strategy };
    const wh = s.conversion.webhook;
    if (wh) {
      if (wh.conversionReviewVersions !== undefined) c.conversionReviewVersions = wh.conversionReviewVersions;
      if (wh.clientConfig) {
        const cc: InternalWebhookClientConfig = {};
        if (wh.clientConfig.url !== undefined) cc.url = wh.clientConfig.url;
        if (wh.clientConfig.caBundle !== undefined) cc.caBundle = wh.clientConfig.caBundle;
        const svc = wh.clientConfig.service;
        if (svc) {
          const sr: InternalServiceReference = { namespace: svc.namespace, name: svc.name, port: svc.port ?? 443 };
          if (svc.path !== undefined) sr.path = svc.path;
          cc.service = sr;
        }
        c.webhookClientConfig = cc;
      }
    }
    spec.conversion = c;
  }
  if (versions.length > 0) {
    spec.version = versions[0]!.name;
    const first = versions[0]!;
    const same = (get: (v: InternalVersion) => unknown) =>
      versions.every((v) => semanticEqual(get(v) as JsonValue | undefined, get(first) as JsonValue | undefined));
    if (same((v) => v.subresources)) {
      if (first.subresources !== undefined) spec.subresources = first.subresources;
      for (const v of versions) delete v.subresources;
    }
    if (same((v) => v.schema)) {
      if (first.schema !== undefined) spec.validation = first.schema;
      for (const v of versions) delete v.schema;
    }
    if (same((v) => v.additionalPrinterColumns)) {
      if (first.additionalPrinterColumns !== undefined) spec.additionalPrinterColumns = first.additionalPrinterColumns;
      for (const v of versions) delete v.additionalPrinterColumns;
    }
    if (same((v) => v.selectableFields)) {
      if (first.selectableFields !== undefined) spec.selectableFields = first.selectableFields;
      for (const v of versions) delete v.selectableFields;
    }
  }
  return {
    metadata: crd.metadata,
    spec,
    status: {
      conditions: crd.status?.conditions ?? [],
      acceptedNames: crd.status?.acceptedNames ?? { plural: "", kind: "" },
      storedVersions: crd.status?.storedVersions ?? [],
    },
  };
}

/** `GetSchemaForVersion`: the per-version schema, else the top-level one. */
export function schemaForVersion(crd: InternalCrd, version: string): CustomResourceValidation | undefined {
  const v = crd.spec.versions.find((x) => x.name === version);
  if (v?.schema) return v.schema;
  return crd.spec.validation;
}

/** Per-version subresources, else the top-level ones. */
export function subresourcesForVersion(crd: InternalCrd, version: string): CustomResourceSubresources | undefined {
  if (!crd.spec.versions.some((v) => v.subresources !== undefined)) return crd.spec.subresources;
  return crd.spec.versions.find((x) => x.name === version)?.subresources;
}

/** True when the named condition has status True. */
export function isConditionTrue(crd: InternalCrd, type: string): boolean {
  return crd.status.conditions.some((c) => c.type === type && c.status === "True");
}
