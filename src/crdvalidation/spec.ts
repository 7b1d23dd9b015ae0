/**
 * `validateCustomResourceDefinitionSpec` (§1.1 step 2) and its helpers: group, scope, schema presence,
 * defaults vs preserveUnknownFields, versions, top-level/per-version exclusivity, names, subresources,
 * printer columns, selectable fields, conversion.
 */
import type { InternalConversion, InternalSpec, InternalVersion } from "../crd/internal.js";
import { semanticEqual } from "../crd/semantic-equal.js";
import type {
  CustomResourceColumnDefinition, CustomResourceDefinitionNames, CustomResourceSubresources, JSONSchemaProps, SelectableField,
} from "../crd/types.js";
import { type FieldError, fieldError } from "../errors/field-error.js";
import { FieldPath } from "../errors/field-path.js";
import { cachedStructural, StructuralError } from "../structural/new-structural.js";
import type { Structural } from "../structural/structural.js";
import type { JsonValue } from "../value/json-value.js";
import { validFieldPath } from "./field-path.js";
import { goJsonValue, goVersions } from "./go-marshal.js";
import { isDNS1035Label, isDNS1123Subdomain } from "../objectmeta/names.js";
import type { CrdSchemaOptions } from "./schema-validation.js";
import { validateCustomResourceValidation } from "./schema-validation.js";
import { validateCABundle, validateWebhookService, validateWebhookURL } from "./webhook.js";
import { schemaHas } from "./schema-walk.js";

export const MAX_SELECTABLE_FIELDS = 8;

/** Options of one validation run (`validationOptions`). */
export interface SpecOptions extends CrdSchemaOptions {
  requireRecognizedConversionReviewVersion: boolean;
  requireImmutableNames: boolean;
  requireOpenAPISchema: boolean;
  allowInvalidCABundle: boolean;
  versionsWithUnchangedSchemas: ReadonlySet<string>;
  /** Version name ("" = top level) → too many selectable fields allowed (unchanged from the old CRD). */
  allowTooManySelectableFields: ReadonlySet<string>;
}

function suppressFor(opts: SpecOptions, version: string): SpecOptions {
  return opts.versionsWithUnchangedSchemas.has(version) ? { ...opts, suppressPerExpressionCost: true } : opts;
}

function validateDeprecationWarning(deprecated: boolean, w: string | undefined): string[] {
  if (!deprecated && w !== undefined) return ["can only be set for deprecated versions"];
  if (w === undefined) return [];
  const errs: string[] = [];
  const bytes = new TextEncoder().encode(w);
  if (bytes.length > 256) errs.push("must be <= 256 characters long");
  if (w.length === 0) errs.push("must not be an empty string");
  let byteIndex = 0;
  for (const ch of w) {
    const cp = ch.codePointAt(0)!;
    const isControl = cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
    const printable = !isControl && (cp === 0x20 || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch)) && !(cp >= 0xd800 && cp <= 0xdfff);
    if (!printable) {
      errs.push(`must only contain printable UTF-8 characters; non-printable character found at index ${byteIndex}`);
      break;
    }
    byteIndex += new TextEncoder().encode(ch).length;
  }
  return errs;
}

/** `validateSimpleJSONPath`. */
function simpleJSONPath(s: string, p: FieldPath): FieldError[] {
  if (s.length === 0) return [fieldError.invalid(p, s, "must not be empty")];
  if (s[0] !== ".") return [fieldError.invalid(p, s, "must be a simple json path starting with .")];
  return [];
}

/** `ValidateCustomResourceDefinitionSubresources`. */
export function validateSubresources(sr: CustomResourceSubresources | undefined, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const sc = sr?.scale;
  if (!sc) return errs;
  const sp = p.child("scale.specReplicasPath");
  if (sc.specReplicasPath.length === 0) errs.push(fieldError.required(sp, ""));
  else {
    const e = simpleJSONPath(sc.specReplicasPath, sp);
    if (e.length > 0) errs.push(...e);
    else if (!sc.specReplicasPath.startsWith(".spec.")) errs.push(fieldError.invalid(sp, sc.specReplicasPath, "should be a json path under .spec"));
  }
  const stp = p.child("scale.statusReplicasPath");
  if (sc.statusReplicasPath.length === 0) errs.push(fieldError.required(stp, ""));
  else {
    const e = simpleJSONPath(sc.statusReplicasPath, stp);
    if (e.length > 0) errs.push(...e);
    else if (!sc.statusReplicasPath.startsWith(".status.")) errs.push(fieldError.invalid(stp, sc.statusReplicasPath, "should be a json path under .status"));
  }
  const ls = sc.labelSelectorPath;
  if (ls !== undefined && ls.length > 0) {
    const lp = p.child("scale.labelSelectorPath");
    const e = simpleJSONPath(ls, lp);
    if (e.length > 0) errs.push(...e);
    else if (!ls.startsWith(".spec.") && !ls.startsWith(".status.")) errs.push(fieldError.invalid(lp, goJsonValue(ls), "should be a json path under either .spec or .status"));
  }
  return errs;
}

const COLUMN_TYPES = "boolean,date,integer,number,string";
const COLUMN_FORMATS = ["byte", "date", "date-time", "double", "float", "int32", "int64", "password"];

/** `ValidateCustomResourceColumnDefinition`. */
export function validateColumn(c: CustomResourceColumnDefinition, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (c.name.length === 0) errs.push(fieldError.required(p.child("name"), ""));
  if (c.type.length === 0) errs.push(fieldError.required(p.child("type"), `must be one of ${COLUMN_TYPES}`));
  else if (!COLUMN_TYPES.split(",").includes(c.type)) errs.push(fieldError.invalid(p.child("type"), c.type, `must be one of ${COLUMN_TYPES}`));
  if (c.format && !COLUMN_FORMATS.includes(c.format)) errs.push(fieldError.invalid(p.child("format"), c.format, `must be one of ${COLUMN_FORMATS.join(",")}`));
  if (c.jsonPath.length === 0) errs.push(fieldError.required(p.child("JSONPath"), ""));
  else errs.push(...simpleJSONPath(c.jsonPath, p.child("JSONPath")));
  return errs;
}

/** `ValidateCustomResourceSelectableFields`. */
export function validateSelectableFields(fields: SelectableField[], schema: Structural | undefined, p: FieldPath, allowTooMany: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const unique = new Set<string>();
  fields.forEach((f, i) => {
    const jp = p.index(i).child("jsonPath");
    if (f.jsonPath.length === 0) {
      errs.push(fieldError.required(jp, ""));
      return;
    }
    const r = schema ? validFieldPath(f.jsonPath, schema, false) : { error: "does not refer to a valid field" };
    if ("error" in r) {
      errs.push(fieldError.invalid(jp, f.jsonPath, `is an invalid path: ${r.error}`));
      return;
    }
    if (r.path && r.path.root().toString() === "metadata") errs.push(fieldError.invalid(jp, f.jsonPath, "must not point to fields in metadata"));
    const t = r.schema?.type;
    if (t !== "string" && t !== "boolean" && t !== "integer") {
      errs.push(fieldError.invalid(jp, f.jsonPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."));
    }
    const key = r.path ? r.path.toString() : "<nil>";
    if (unique.has(key)) errs.push(fieldError.duplicate(jp, f.jsonPath));
    else unique.add(key);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS && !allowTooMany) errs.push(fieldError.tooMany(p, unique.size, MAX_SELECTABLE_FIELDS));
  return errs;
}

/** `ValidateCustomResourceDefinitionNames`. */
export function validateNames(n: CustomResourceDefinitionNames, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const join = (e: string[]) => e.join(",");
  if (n.plural.length > 0) {
    const e = isDNS1035Label(n.plural);
    if (e.length > 0) errs.push(fieldError.invalid(p.child("plural"), n.plural, join(e)));
  }
  const singular = n.singular ?? "";
  if (singular.length > 0) {
    const e = isDNS1035Label(singular);
    if (e.length > 0) errs.push(fieldError.invalid(p.child("singular"), singular, join(e)));
  }
  if (n.kind.length > 0) {
    const e = isDNS1035Label(n.kind.toLowerCase());
    if (e.length > 0) errs.push(fieldError.invalid(p.child("kind"), n.kind, "may have mixed case, but should otherwise match: " + join(e)));
  }
  const listKind = n.listKind ?? "";
  if (listKind.length > 0) {
    const e = isDNS1035Label(listKind.toLowerCase());
    if (e.length > 0) errs.push(fieldError.invalid(p.child("listKind"), listKind, "may have mixed case, but should otherwise match: " + join(e)));
  }
  (n.shortNames ?? []).forEach((s, i) => {
    const e = isDNS1035Label(s);
    if (e.length > 0) errs.push(fieldError.invalid(p.child("shortNames").index(i), s, join(e)));
  });
  if (n.kind.length > 0 && n.kind === listKind) errs.push(fieldError.invalid(p.child("listKind"), listKind, "kind and listKind may not be the same"));
  (n.categories ?? []).forEach((c, i) => {
    const e = isDNS1035Label(c);
    if (e.length > 0) errs.push(fieldError.invalid(p.child("categories").index(i), c, join(e)));
  });
  return errs;
}

/** `validateConversionReviewVersions`. */
function validateReviewVersions(versions: string[], requireRecognized: boolean, p: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  if (versions.length < 1) return [fieldError.required(p, "")];
  const seen = new Set<string>();
  let accepted = false;
  versions.forEach((v, i) => {
    if (seen.has(v)) {
      errs.push(fieldError.invalid(p.index(i), v, "duplicate version"));
      return;
    }
    seen.add(v);
    for (const e of isDNS1035Label(v)) errs.push(fieldError.invalid(p.index(i), v, e));
    if (v === "v1" || v === "v1beta1") accepted = true;
  });
  if (requireRecognized && !accepted) errs.push(fieldError.invalid(p, versions, "must include at least one of v1, v1beta1"));
  return errs;
}

/** `validateCustomResourceConversion`. */
function validateConversion(c: InternalConversion | undefined, requireRecognized: boolean, p: FieldPath, opts: SpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (!c) return errs;
  if (c.strategy === "") errs.push(fieldError.required(p.child("strategy"), ""));
  else if (c.strategy !== "None" && c.strategy !== "Webhook") errs.push(fieldError.notSupported(p.child("strategy"), c.strategy, ["None", "Webhook"]));
  if (c.strategy === "Webhook") {
    const cp = p.child("webhookClientConfig");
    const cc = c.webhookClientConfig;
    if (!cc) errs.push(fieldError.required(cp, "required when strategy is set to Webhook"));
    else {
      if ((cc.url === undefined) === (cc.service === undefined)) errs.push(fieldError.required(cp, "exactly one of url or service is required"));
      else if (cc.url !== undefined) errs.push(...validateWebhookURL(cp.child("url"), cc.url));
      // Upstream quirk, reproduced: apiextensions passes (name, namespace) to ValidateWebhookService(namespace, name),
      // so a missing name is reported as `service.namespace: Required value` and vice versa.
      else if (cc.service) errs.push(...validateWebhookService(cp.child("service"), cc.service.name, cc.service.namespace, cc.service.path, cc.service.port));
      if (cc.caBundle && !opts.allowInvalidCABundle) errs.push(...validateCABundle(cp.child("caBundle"), cc.caBundle));
    }
    errs.push(...validateReviewVersions(c.conversionReviewVersions ?? [], requireRecognized, p.child("conversionReviewVersions")));
  } else {
    if (c.webhookClientConfig) errs.push(fieldError.forbidden(p.child("webhookClientConfig"), "should not be set when strategy is not set to Webhook"));
    if ((c.conversionReviewVersions ?? []).length > 0) errs.push(fieldError.forbidden(p.child("conversionReviewVersions"), "should not be set when strategy is not set to Webhook"));
  }
  return errs;
}

function hasStatus(sr: CustomResourceSubresources | undefined): boolean {
  return sr?.status !== undefined;
}

function subresourcesFor(spec: InternalSpec, name: string): CustomResourceSubresources | undefined {
  if (!spec.versions.some((v) => v.subresources !== undefined)) return spec.subresources;
  return spec.versions.find((v) => v.name === name)?.subresources;
}

function identical<T>(versions: InternalVersion[], get: (v: InternalVersion) => T | undefined, present: (x: T | undefined) => boolean): boolean {
  if (versions.length === 0) return false;
  const first = get(versions[0]!);
  return versions.every((v) => present(get(v)) && semanticEqual(get(v) as JsonValue | undefined, first as JsonValue | undefined));
}

/** All schemas of the spec (top level and per version). */
export function specSchemas(spec: InternalSpec): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  if (spec.validation?.openAPIV3Schema) out.push(spec.validation.openAPIV3Schema);
  for (const v of spec.versions) if (v.schema?.openAPIV3Schema) out.push(v.schema.openAPIV3Schema);
  return out;
}

function specHas(spec: InternalSpec, pred: (s: JSONSchemaProps) => boolean): boolean {
  return specSchemas(spec).some((s) => schemaHas(s, pred));
}

function structuralOrUndefined(s: JSONSchemaProps | undefined): { ss?: Structural; err?: string } {
  if (!s) return {};
  const r = cachedStructural(s);
  return r instanceof StructuralError ? { err: r.message } : { ss: r };
}

/** `validateCustomResourceDefinitionSpec`. */
export function validateSpec(spec: InternalSpec, optsIn: SpecOptions, p: FieldPath): FieldError[] {
  let opts = optsIn;
  const errs: FieldError[] = [];
  if (spec.group.length === 0) errs.push(fieldError.required(p.child("group"), ""));
  else {
    const e = isDNS1123Subdomain(spec.group);
    if (e.length > 0) errs.push(fieldError.invalid(p.child("group"), spec.group, e.join(",")));
    else if (spec.group.split(".").length < 2) errs.push(fieldError.invalid(p.child("group"), spec.group, "should be a domain with at least one dot"));
  }
  if (spec.scope === "") errs.push(fieldError.required(p.child("scope"), ""));
  else if (spec.scope !== "Cluster" && spec.scope !== "Namespaced") errs.push(fieldError.notSupported(p.child("scope"), spec.scope, ["Cluster", "Namespaced"]));
  const puf = spec.preserveUnknownFields;
  if (puf !== true) opts = { ...opts, requireStructuralSchema: true };
  const topSchema = spec.validation?.openAPIV3Schema;
  if (opts.requireOpenAPISchema) {
    if (!topSchema) {
      spec.versions.forEach((v, i) => {
        if (!v.schema?.openAPIV3Schema) errs.push(fieldError.required(p.child("versions").index(i).child("schema").child("openAPIV3Schema"), ""));
      });
    }
  } else if (puf !== true && !topSchema) {
    spec.versions.forEach((v, i) => {
      if (v.served && !v.schema?.openAPIV3Schema) errs.push(fieldError.required(p.child("versions").index(i).child("schema", "openAPIV3Schema"), "because otherwise all fields are pruned"));
    });
  }
  if (opts.allowDefaults && specHas(spec, (s) => s.default !== undefined)) {
    opts = { ...opts, requireStructuralSchema: true };
    if (puf === undefined || puf) errs.push(fieldError.invalid(p.child("preserveUnknownFields"), true, "must be false in order to use defaults in the schema"));
  }
  if (specHas(spec, hasKubernetesExtensions)) opts = { ...opts, requireStructuralSchema: true };
  let storageCount = 0;
  const names = new Set<string>();
  let unique = true;
  spec.versions.forEach((v, i) => {
    const vp = p.child("versions").index(i);
    if (v.storage) storageCount++;
    if (names.has(v.name)) unique = false;
    else names.add(v.name);
    const e = isDNS1035Label(v.name);
    if (e.length > 0) errs.push(fieldError.invalid(vp.child("name"), v.name, e.join(",")));
    errs.push(...validateVersion(v, vp, hasStatus(subresourcesFor(spec, v.name)), opts));
  });
  const perVersionSchema = spec.versions.some((v) => v.schema !== undefined);
  if (spec.validation !== undefined && perVersionSchema) errs.push(fieldError.forbidden(p.child("validation"), "top-level and per-version schemas are mutually exclusive"));
  if (spec.subresources !== undefined && spec.versions.some((v) => v.subresources !== undefined)) {
    errs.push(fieldError.forbidden(p.child("subresources"), "top-level and per-version subresources are mutually exclusive"));
  }
  if ((spec.additionalPrinterColumns ?? []).length > 0 && spec.versions.some((v) => (v.additionalPrinterColumns ?? []).length > 0)) {
    errs.push(fieldError.forbidden(p.child("additionalPrinterColumns"), "top-level and per-version additionalPrinterColumns are mutually exclusive"));
  }
  const vv = () => (spec.versionsNil ? null : goVersions(spec.versions));
  if (identical(spec.versions, (v) => v.schema, (x) => x !== undefined)) {
    errs.push(fieldError.invalid(p.child("versions"), vv(), "per-version schemas may not all be set to identical values (top-level validation should be used instead)"));
  }
  if (identical(spec.versions, (v) => v.subresources, (x) => x !== undefined)) {
    errs.push(fieldError.invalid(p.child("versions"), vv(), "per-version subresources may not all be set to identical values (top-level subresources should be used instead)"));
  }
  if (identical(spec.versions, (v) => v.additionalPrinterColumns, (x) => x !== undefined && x.length > 0)) {
    errs.push(fieldError.invalid(p.child("versions"), vv(), "per-version additionalPrinterColumns may not all be set to identical values (top-level additionalPrinterColumns should be used instead)"));
  }
  if (!unique) errs.push(fieldError.invalid(p.child("versions"), vv(), "must contain unique version names"));
  if (storageCount !== 1) errs.push(fieldError.invalid(p.child("versions"), vv(), "must have exactly one version marked as storage version"));
  if (spec.version.length !== 0) {
    const e = isDNS1035Label(spec.version);
    if (e.length > 0) errs.push(fieldError.invalid(p.child("version"), spec.version, e.join(",")));
    if (spec.versions.length >= 1 && spec.versions[0]!.name !== spec.version) errs.push(fieldError.invalid(p.child("version"), spec.version, "must match the first version in spec.versions"));
  }
  const np = p.child("names");
  if (spec.names.plural.length === 0) errs.push(fieldError.required(np.child("plural"), ""));
  if ((spec.names.singular ?? "").length === 0) errs.push(fieldError.required(np.child("singular"), ""));
  if (spec.names.kind.length === 0) errs.push(fieldError.required(np.child("kind"), ""));
  if ((spec.names.listKind ?? "").length === 0) errs.push(fieldError.required(np.child("listKind"), ""));
  errs.push(...validateNames(spec.names, np));
  const anyStatus = hasStatus(spec.subresources) || spec.versions.some((v) => hasStatus(v.subresources));
  errs.push(...validateCustomResourceValidation(spec.validation, anyStatus, suppressFor(opts, spec.version), p.child("validation")));
  errs.push(...validateSubresources(spec.subresources, p.child("subresources")));
  (spec.additionalPrinterColumns ?? []).forEach((c, i) => {
    errs.push(...validateColumn(c, p.child("additionalPrinterColumns").index(i)));
  });
  if ((spec.selectableFields ?? []).length > 0) {
    if (!spec.validation) errs.push(fieldError.invalid(p.child("selectableFields"), "", "may only be set when validations.schema is included"));
    else {
      const r = structuralOrUndefined(spec.validation.openAPIV3Schema);
      if (r.err) errs.push(fieldError.invalid(p.child("schema.openAPIV3Schema"), "", r.err));
      errs.push(...validateSelectableFields(spec.selectableFields!, r.ss, p.child("selectableFields"), opts.allowTooManySelectableFields.has("")));
    }
  }
  if (spec.conversion && spec.conversion.strategy !== "None" && (puf === undefined || puf)) {
    errs.push(fieldError.invalid(p.child("conversion").child("strategy"), spec.conversion.strategy, "must be None if spec.preserveUnknownFields is true"));
  }
  errs.push(...validateConversion(spec.conversion, opts.requireRecognizedConversionReviewVersion, p.child("conversion"), opts));
  return errs;
}

function hasKubernetesExtensions(s: JSONSchemaProps): boolean {
  return (
    s["x-kubernetes-embedded-resource"] === true || s["x-kubernetes-preserve-unknown-fields"] !== undefined || s["x-kubernetes-int-or-string"] === true ||
    (s["x-kubernetes-list-map-keys"] ?? []).length > 0 || s["x-kubernetes-list-type"] !== undefined || (s["x-kubernetes-validations"] ?? []).length > 0
  );
}

/** `validateCustomResourceDefinitionVersion`. */
function validateVersion(v: InternalVersion, p: FieldPath, statusEnabled: boolean, opts: SpecOptions): FieldError[] {
  const errs: FieldError[] = [];
  for (const e of validateDeprecationWarning(v.deprecated, v.deprecationWarning)) {
    errs.push(fieldError.invalid(p.child("deprecationWarning"), goJsonValue(v.deprecationWarning), e));
  }
  const o = suppressFor(opts, v.name);
  errs.push(...validateCustomResourceValidation(v.schema, statusEnabled, o, p.child("schema")));
  errs.push(...validateSubresources(v.subresources, p.child("subresources")));
  (v.additionalPrinterColumns ?? []).forEach((c, i) => {
    errs.push(...validateColumn(c, p.child("additionalPrinterColumns").index(i)));
  });
  if ((v.selectableFields ?? []).length > 0) {
    if (!v.schema?.openAPIV3Schema) {
      errs.push(fieldError.invalid(p.child("selectableFields"), "", "may only be set when `version.schema.openAPIV3Schema` is not included"));
    } else {
      const r = structuralOrUndefined(v.schema.openAPIV3Schema);
      if (r.err) errs.push(fieldError.invalid(p.child("schema.openAPIV3Schema"), "", r.err));
      errs.push(...validateSelectableFields(v.selectableFields!, r.ss, p.child("selectableFields"), opts.allowTooManySelectableFields.has(v.name)));
    }
  }
  return errs;
}

export { FieldPath };
