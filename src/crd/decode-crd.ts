/**
 * Reading a CustomResourceDefinition from a parsed YAML/JSON value: apiextensions.k8s.io/v1 (and the legacy
 * v1beta1, converted as Kubernetes does), with Go's type checks, strict unknown-field paths, v1 defaulting
 * and conversion to the internal (hoisted) form.
 */
import { goBase64StdDecode } from "../go/base64.js";
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
import { type JsonObject, type JsonValue, isObject } from "../value/json-value.js";
import { DecodeContext, fieldLoc, indexLoc, type Loc, ROOT, StructReader } from "./decode-context.js";
import { decodeSchema } from "./decode-schema.js";
import { applyV1Defaults } from "./defaults.js";
import { type InternalConversion, type InternalCrd, type InternalVersion, v1ToInternal } from "./internal.js";
import { internalToV1, v1beta1Defaults } from "./v1beta1.js";
import { CRD_GROUP } from "./crd-group.js";

// (in a module of its own, which the CLI bundle's core takes without loading this one: scripts/bundle-split.mjs)
export { CRD_GROUP };

/** A decoded CRD. */
export interface DecodedCrd {
  ok: true;
  /** `apiextensions.k8s.io/v1` or `apiextensions.k8s.io/v1beta1`, as written. */
  apiVersion: string;
  /** v1 form after defaulting (v1beta1 input converted to v1). */
  crd: CustomResourceDefinition;
  /** Internal form (v1 → internal hoisting applied), what validation runs on. */
  internal: InternalCrd;
  /** Strict-decoding unknown field paths (`spec.versions[0].foo`). */
  unknownFields: string[];
}

/** A value that could not be decoded as a CRD. */
export interface CrdDecodeFailure {
  ok: false;
  /** `notCrd`: not a CustomResourceDefinition at all; `version`: unsupported apiVersion; `decode`: Go decode error. */
  reason: "notCrd" | "version" | "decode";
  message: string;
}

const META_KNOWN = [
  "name", "generateName", "namespace", "selfLink", "uid", "resourceVersion", "generation", "creationTimestamp",
  "deletionTimestamp", "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields",
];

function decodeMeta(ctx: DecodeContext, m: JsonObject, loc: Loc): ObjectMetaLike {
  const r = new StructReader(ctx, m, "ObjectMeta", loc);
  const out: ObjectMetaLike = {};
  for (const k of ["name", "generateName", "namespace", "selfLink", "uid", "resourceVersion"] as const) {
    const v = r.string(k);
    if (v) out[k] = v;
  }
  const g = r.int("generation");
  if (g !== undefined) out.generation = g;
  const labels = r.stringMap("labels");
  if (labels) out.labels = labels;
  const ann = r.stringMap("annotations");
  if (ann) out.annotations = ann;
  const fin = r.stringArray("finalizers");
  if (fin) out.finalizers = fin;
  for (const k of ["creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds", "ownerReferences", "managedFields"]) {
    const v = r.raw(k);
    if (v !== undefined) out[k] = v;
  }
  r.finish(META_KNOWN);
  return out;
}

function decodeNames(ctx: DecodeContext, o: JsonObject, loc: Loc): CustomResourceDefinitionNames {
  const r = new StructReader(ctx, o, "CustomResourceDefinitionNames", loc);
  const n: CustomResourceDefinitionNames = { plural: r.string("plural") ?? "", kind: r.string("kind") ?? "" };
  const singular = r.string("singular");
  if (singular) n.singular = singular;
  const sn = r.stringArray("shortNames");
  if (sn) n.shortNames = sn;
  const lk = r.string("listKind");
  if (lk) n.listKind = lk;
  const cat = r.stringArray("categories");
  if (cat) n.categories = cat;
  r.finish();
  return n;
}

function decodeValidation(ctx: DecodeContext, r: StructReader, key: string): CustomResourceValidation | undefined {
  const o = r.object(key, "v1.CustomResourceValidation");
  if (!o) return undefined;
  const loc = fieldLoc(r.loc, key);
  const vr = new StructReader(ctx, o, "CustomResourceValidation", loc);
  const out: CustomResourceValidation = {};
  const s = vr.object("openAPIV3Schema", "v1.JSONSchemaProps");
  if (s) out.openAPIV3Schema = decodeSchema(ctx, s, fieldLoc(loc, "openAPIV3Schema"), true);
  vr.finish();
  return out;
}

function decodeSubresources(ctx: DecodeContext, r: StructReader): CustomResourceSubresources | undefined {
  const o = r.object("subresources", "v1.CustomResourceSubresources");
  if (!o) return undefined;
  const loc = fieldLoc(r.loc, "subresources");
  const sr = new StructReader(ctx, o, "CustomResourceSubresources", loc);
  const out: CustomResourceSubresources = {};
  const st = sr.object("status", "v1.CustomResourceSubresourceStatus");
  if (st) {
    new StructReader(ctx, st, "CustomResourceSubresourceStatus", fieldLoc(loc, "status")).finish();
    out.status = {};
  }
  const sc = sr.object("scale", "v1.CustomResourceSubresourceScale");
  if (sc) {
    const scr = new StructReader(ctx, sc, "CustomResourceSubresourceScale", fieldLoc(loc, "scale"));
    out.scale = { specReplicasPath: scr.string("specReplicasPath") ?? "", statusReplicasPath: scr.string("statusReplicasPath") ?? "" };
    const ls = scr.string("labelSelectorPath");
    if (ls !== undefined) out.scale.labelSelectorPath = ls;
    scr.finish();
  }
  sr.finish();
  return out;
}

function decodeColumns(ctx: DecodeContext, r: StructReader, jsonPathKey: string): CustomResourceColumnDefinition[] | undefined {
  const a = r.array("additionalPrinterColumns", "[]v1.CustomResourceColumnDefinition");
  if (!a) return undefined;
  const loc = fieldLoc(r.loc, "additionalPrinterColumns");
  const out: CustomResourceColumnDefinition[] = [];
  a.forEach((x, i) => {
    if (!isObject(x)) {
      if (x !== null) ctx.typeError("CustomResourceDefinitionVersion", loc.go, x, "v1.CustomResourceColumnDefinition", indexLoc(loc, i));
      out.push({ name: "", type: "", jsonPath: "" });
      return;
    }
    const cr = new StructReader(ctx, x, "CustomResourceColumnDefinition", indexLoc(loc, i));
    const c: CustomResourceColumnDefinition = { name: cr.string("name") ?? "", type: cr.string("type") ?? "", jsonPath: cr.string(jsonPathKey) ?? "" };
    const f = cr.string("format");
    if (f) c.format = f;
    const d = cr.string("description");
    if (d) c.description = d;
    const p = cr.int("priority", "int32");
    if (p) c.priority = p;
    cr.finish();
    out.push(c);
  });
  return out;
}

function decodeSelectable(ctx: DecodeContext, r: StructReader): SelectableField[] | undefined {
  const a = r.array("selectableFields", "[]v1.SelectableField");
  if (!a) return undefined;
  const loc = fieldLoc(r.loc, "selectableFields");
  return a.map((x, i) => {
    if (!isObject(x)) {
      if (x !== null) ctx.typeError("CustomResourceDefinitionVersion", loc.go, x, "v1.SelectableField", indexLoc(loc, i));
      return { jsonPath: "" };
    }
    const fr = new StructReader(ctx, x, "SelectableField", indexLoc(loc, i));
    const f = { jsonPath: fr.string("jsonPath") ?? "" };
    fr.finish();
    return f;
  });
}

function decodeVersion(ctx: DecodeContext, x: JsonObject, loc: Loc, jsonPathKey: string): CustomResourceDefinitionVersion {
  const r = new StructReader(ctx, x, "CustomResourceDefinitionVersion", loc);
  const v: CustomResourceDefinitionVersion = { name: r.string("name") ?? "", served: r.bool("served") ?? false, storage: r.bool("storage") ?? false };
  if (r.bool("deprecated")) v.deprecated = true;
  const dw = r.string("deprecationWarning");
  if (dw !== undefined) v.deprecationWarning = dw;
  const schema = decodeValidation(ctx, r, "schema");
  if (schema) v.schema = schema;
  const sr = decodeSubresources(ctx, r);
  if (sr) v.subresources = sr;
  const cols = decodeColumns(ctx, r, jsonPathKey);
  if (cols) v.additionalPrinterColumns = cols;
  const sf = decodeSelectable(ctx, r);
  if (sf) v.selectableFields = sf;
  r.finish();
  return v;
}

function decodeVersions(ctx: DecodeContext, r: StructReader, jsonPathKey: string): CustomResourceDefinitionVersion[] {
  const a = r.array("versions", "[]v1.CustomResourceDefinitionVersion");
  if (!a) return [];
  const loc = fieldLoc(r.loc, "versions");
  return a.map((x, i) => {
    if (!isObject(x)) {
      if (x !== null) ctx.typeError("CustomResourceDefinitionSpec", loc.go, x, "v1.CustomResourceDefinitionVersion", indexLoc(loc, i));
      return { name: "", served: false, storage: false };
    }
    return decodeVersion(ctx, x, indexLoc(loc, i), jsonPathKey);
  });
}

function decodeClientConfig(ctx: DecodeContext, o: JsonObject, loc: Loc): NonNullable<InternalConversion["webhookClientConfig"]> {
  const r = new StructReader(ctx, o, "WebhookClientConfig", loc);
  const cc: NonNullable<InternalConversion["webhookClientConfig"]> = {};
  const url = r.string("url");
  if (url !== undefined) cc.url = url;
  const svc = r.object("service", "v1.ServiceReference");
  if (svc) {
    const sr = new StructReader(ctx, svc, "ServiceReference", fieldLoc(loc, "service"));
    cc.service = { namespace: sr.string("namespace") ?? "", name: sr.string("name") ?? "", port: sr.int("port", "int32") ?? 443 };
    const p = sr.string("path");
    if (p !== undefined) cc.service.path = p;
    sr.finish();
  }
  const ca = r.string("caBundle");
  if (ca !== undefined) {
    // encoding/json decodes []byte with base64.StdEncoding
    const decoded = goBase64StdDecode(ca);
    if (!decoded.ok) ctx.plainError(`illegal base64 data at input byte ${decoded.offset}`, fieldLoc(r.loc, "caBundle"));
    else if (ca !== "") cc.caBundle = ca;
  }
  r.finish();
  return cc;
}

function decodeStatus(ctx: DecodeContext, o: JsonObject, loc: Loc): NonNullable<CustomResourceDefinition["status"]> {
  const r = new StructReader(ctx, o, "CustomResourceDefinitionStatus", loc);
  const st: NonNullable<CustomResourceDefinition["status"]> = {};
  const conds = r.array("conditions", "[]v1.CustomResourceDefinitionCondition");
  if (conds) {
    st.conditions = [];
    conds.forEach((c, i) => {
      if (!isObject(c)) return;
      const cr = new StructReader(ctx, c, "CustomResourceDefinitionCondition", indexLoc(fieldLoc(loc, "conditions"), i));
      const cond: CustomResourceDefinitionCondition = { type: cr.string("type") ?? "", status: cr.string("status") ?? "" };
      const lt = cr.string("lastTransitionTime");
      if (lt) cond.lastTransitionTime = lt;
      const re = cr.string("reason");
      if (re) cond.reason = re;
      const m = cr.string("message");
      if (m) cond.message = m;
      const og = cr.int("observedGeneration");
      if (og !== undefined) cond.observedGeneration = og;
      cr.finish();
      st.conditions!.push(cond);
    });
  }
  const an = r.object("acceptedNames", "v1.CustomResourceDefinitionNames");
  if (an) st.acceptedNames = decodeNames(ctx, an, fieldLoc(loc, "acceptedNames"));
  const sv = r.stringArray("storedVersions");
  if (sv) st.storedVersions = sv;
  r.int("observedGeneration");
  r.finish();
  return st;
}

/**
 * Decodes a parsed YAML/JSON value as a CRD (v1 or v1beta1), applies defaulting and converts it to the
 * internal form. Never throws for bad input.
 */
export function decodeCrd(value: JsonValue): DecodedCrd | CrdDecodeFailure {
  try {
    return decodeCrdUnsafe(value);
  } catch (e) {
    // Nesting deep enough to exhaust the JS stack before Go's 10000-level limit is reached.
    if (e instanceof RangeError) {
      const v = isObject(value) && typeof value["apiVersion"] === "string" ? value["apiVersion"] : `${CRD_GROUP}/v1`;
      return { ok: false, reason: "decode", message: decodeMessage(v, "exceeded max depth") };
    }
    throw e;
  }
}

function decodeCrdUnsafe(value: JsonValue): DecodedCrd | CrdDecodeFailure {
  if (!isObject(value)) return { ok: false, reason: "notCrd", message: "not a CustomResourceDefinition: the document is not an object" };
  const kind = value["kind"];
  const apiVersion = value["apiVersion"];
  if (kind !== "CustomResourceDefinition") {
    return { ok: false, reason: "notCrd", message: `not a CustomResourceDefinition: kind is ${typeof kind === "string" ? JSON.stringify(kind) : "missing"}` };
  }
  if (apiVersion !== `${CRD_GROUP}/v1` && apiVersion !== `${CRD_GROUP}/v1beta1`) {
    const shown = typeof apiVersion === "string" ? JSON.stringify(apiVersion) : "missing";
    return {
      ok: false,
      reason: "version",
      message: `no matches for kind "CustomResourceDefinition" in version ${shown}: apiVersion must be ${CRD_GROUP}/v1 (or the legacy ${CRD_GROUP}/v1beta1)`,
    };
  }
  const beta = apiVersion.endsWith("v1beta1");
  const ctx = new DecodeContext();
  ctx.root = value;
  const top = new StructReader(ctx, value, "CustomResourceDefinition", ROOT);
  top.raw("apiVersion");
  top.raw("kind");
  const metaObj = top.object("metadata", "v1.ObjectMeta");
  const metadata = metaObj ? decodeMeta(ctx, metaObj, fieldLoc(ROOT, "metadata")) : {};
  const specObj = top.object("spec", "v1.CustomResourceDefinitionSpec") ?? {};
  const sloc = fieldLoc(ROOT, "spec");
  const sr = new StructReader(ctx, specObj, "CustomResourceDefinitionSpec", sloc);
  const namesObj = sr.object("names", "v1.CustomResourceDefinitionNames");
  const names = namesObj ? decodeNames(ctx, namesObj, fieldLoc(sloc, "names")) : { plural: "", kind: "" };
  const group = sr.string("group") ?? "";
  const scope = sr.string("scope", "v1.ResourceScope") ?? "";
  const jsonPathKey = beta ? "JSONPath" : "jsonPath";
  const versions = decodeVersions(ctx, sr, jsonPathKey);
  // Go's nil slice: no versions in the body (or null), which errors print as null rather than [].
  const versionsNil = specObj["versions"] === undefined || specObj["versions"] === null;
  const pufRaw = sr.bool("preserveUnknownFields");
  const convObj = sr.object("conversion", "v1.CustomResourceConversion");
  let conversion: InternalConversion | undefined;
  if (convObj) {
    const cloc = fieldLoc(sloc, "conversion");
    const cr = new StructReader(ctx, convObj, "CustomResourceConversion", cloc);
    conversion = { strategy: cr.string("strategy", "v1.ConversionStrategyType") ?? "" };
    if (beta) {
      const cc = cr.object("webhookClientConfig", "v1beta1.WebhookClientConfig");
      if (cc) conversion.webhookClientConfig = decodeClientConfig(ctx, cc, fieldLoc(cloc, "webhookClientConfig"));
      const crv = cr.stringArray("conversionReviewVersions");
      if (crv) conversion.conversionReviewVersions = crv;
    } else {
      const wh = cr.object("webhook", "v1.WebhookConversion");
      if (wh) {
        const wloc = fieldLoc(cloc, "webhook");
        const wr = new StructReader(ctx, wh, "WebhookConversion", wloc);
        const cc = wr.object("clientConfig", "v1.WebhookClientConfig");
        if (cc) conversion.webhookClientConfig = decodeClientConfig(ctx, cc, fieldLoc(wloc, "clientConfig"));
        conversion.conversionReviewVersions = wr.stringArray("conversionReviewVersions") ?? [];
        wr.finish();
      }
    }
    cr.finish();
  }
  // v1beta1-only top-level fields
  let betaTop: { version: string; validation?: CustomResourceValidation; subresources?: CustomResourceSubresources; columns?: CustomResourceColumnDefinition[]; selectable?: SelectableField[] } | undefined;
  if (beta) {
    betaTop = { version: sr.string("version") ?? "" };
    const val = decodeValidation(ctx, sr, "validation");
    if (val) betaTop.validation = val;
    const sub = decodeSubresources(ctx, sr);
    if (sub) betaTop.subresources = sub;
    const cols = decodeColumns(ctx, sr, "JSONPath");
    if (cols) betaTop.columns = cols;
    const sf = decodeSelectable(ctx, sr);
    if (sf) betaTop.selectable = sf;
  }
  sr.finish();
  const statusObj = top.object("status", "v1.CustomResourceDefinitionStatus");
  const status = statusObj ? decodeStatus(ctx, statusObj, fieldLoc(ROOT, "status")) : {};
  top.finish();
  if (ctx.tooDeep) return { ok: false, reason: "decode", message: decodeMessage(apiVersion, "exceeded max depth") };
  if (ctx.errors.length > 0) return { ok: false, reason: "decode", message: decodeMessage(apiVersion, ctx.errors[0]!) };

  if (!beta) {
    const crd: CustomResourceDefinition = {
      apiVersion,
      kind: "CustomResourceDefinition",
      metadata,
      spec: { group, names, scope, versions },
      status,
    };
    if (pufRaw !== undefined) crd.spec.preserveUnknownFields = pufRaw;
    if (conversion) {
      const c: NonNullable<CustomResourceDefinition["spec"]["conversion"]> = { strategy: conversion.strategy };
      if (conversion.webhookClientConfig || conversion.conversionReviewVersions) {
        c.webhook = { conversionReviewVersions: conversion.conversionReviewVersions ?? [] };
        if (conversion.webhookClientConfig) c.webhook.clientConfig = conversion.webhookClientConfig;
      }
      crd.spec.conversion = c;
    }
    applyV1Defaults(crd);
    const internalV1 = v1ToInternal(crd);
    if (versionsNil) internalV1.spec.versionsNil = true;
    return { ok: true, apiVersion, crd, internal: internalV1, unknownFields: ctx.unknownFields };
  }
  const internal: InternalCrd = {
    metadata,
    spec: {
      group,
      version: betaTop!.version,
      names,
      scope,
      versions: versions.map((v): InternalVersion => {
        const iv: InternalVersion = { name: v.name, served: v.served, storage: v.storage, deprecated: v.deprecated ?? false };
        if (v.deprecationWarning !== undefined) iv.deprecationWarning = v.deprecationWarning;
        if (v.schema) iv.schema = v.schema;
        if (v.subresources) iv.subresources = v.subresources;
        if (v.additionalPrinterColumns) iv.additionalPrinterColumns = v.additionalPrinterColumns;
        if (v.selectableFields) iv.selectableFields = v.selectableFields;
        return iv;
      }),
    },
    status: { conditions: status.conditions ?? [], acceptedNames: status.acceptedNames ?? { plural: "", kind: "" }, storedVersions: status.storedVersions ?? [] },
  };
  if (betaTop!.validation) internal.spec.validation = betaTop!.validation;
  if (betaTop!.subresources) internal.spec.subresources = betaTop!.subresources;
  if (betaTop!.columns) internal.spec.additionalPrinterColumns = betaTop!.columns;
  if (betaTop!.selectable) internal.spec.selectableFields = betaTop!.selectable;
  if (conversion) internal.spec.conversion = conversion;
  if (pufRaw !== undefined) internal.spec.preserveUnknownFields = pufRaw;
  v1beta1Defaults(internal);
  if (versionsNil && internal.spec.versions.length === 0) internal.spec.versionsNil = true;
  return { ok: true, apiVersion, crd: internalToV1(internal), internal, unknownFields: ctx.unknownFields };
}

function decodeMessage(apiVersion: string, err: string): string {
  const v = apiVersion.slice(apiVersion.indexOf("/") + 1);
  return `CustomResourceDefinition in version "${v}" cannot be handled as a CustomResourceDefinition: ${err}`;
}

/** The strict-decoding error text for unknown fields (kubectl's default `--validate=strict`). */
export function strictDecodingMessage(apiVersion: string, unknownFields: readonly string[]): string {
  return decodeMessage(apiVersion, `strict decoding error: ${unknownFields.map((f) => `unknown field "${f}"`).join(", ")}`);
}
