/**
 * Conversion of custom resources between the versions of a CRD, as the custom resource handler does it:
 * objects are stored in the storage version; converting sets `apiVersion` (`strategy: None`) or asks the
 * CRD's conversion webhook (`strategy: Webhook`, webhook-converter.ts), then prunes the object to the
 * target version's schema (`schemaCoercingConverter`); decoding from storage applies the stored version's
 * defaults (`unstructuredDefaulter`). The request version's defaults are not applied to what is served
 * (measured against the real server: test/server-diff/sequences/06-versions).
 */
import { applyDefaults } from "../../defaulting/default.js";
import { applySchemaCoercion } from "../../defaulting/schema-coercer.js";
import type { CompileResult, CompiledVersion } from "../../pipeline/compile.js";
import { isObject, type JsonObject } from "../../value/json-value.js";
import { defaultServiceResolver, MAX_WEBHOOK_RESPONSE_BYTES, type ServiceResolver, type WebhookClientConfig } from "./webhook-client.js";
import { convertWithWebhook, type WebhookConversion } from "./webhook-converter.js";
import { ConvertedCache } from "./converted-cache.js";

export { ConversionFailure } from "./webhook-converter.js";

/** Converts one CRD's objects between its versions. */
export interface VersionConverter {
  /** The version objects are stored in. */
  readonly storageVersion: string;
  /** True when converting calls a webhook. */
  readonly webhook: boolean;
  /** Webhook CRDs: the objects last converted (the watch cache's view, used by updates and deletes). */
  readonly converted?: ConvertedCache;
  /** An object admitted in some version, as it is stored. */
  toStorage(obj: JsonObject): Promise<JsonObject>;
  /** A stored object as served in `version`. */
  fromStorage(obj: JsonObject, version: string): Promise<JsonObject>;
  /**
   * An object of `version` converted to the storage version and back, without defaulting: what survives
   * storage, in the request version's fields (field ownership is computed on it).
   */
  roundTrip(obj: JsonObject, version: string): Promise<JsonObject>;
}

/** How the server reaches conversion webhooks. */
export interface WebhookSettings {
  /** Where `clientConfig.service` endpoints are (default: `<name>.<namespace>.svc`). */
  serviceResolver?: ServiceResolver;
  /** Deadline of one webhook call (default 30 s). */
  timeoutMs?: number;
}

/** Default deadline of a conversion webhook call. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 30_000;

function versionOf(apiVersion: unknown): string {
  if (typeof apiVersion !== "string") return "";
  const i = apiVersion.indexOf("/");
  return i < 0 ? apiVersion : apiVersion.slice(i + 1);
}

/** `spec.conversion.webhook` of a Webhook-strategy CRD, decoded (caBundle as PEM text). */
export function webhookConversionOf(crd: JsonObject): WebhookConversion | undefined {
  const spec = isObject(crd["spec"]) ? crd["spec"] : {};
  const conv = isObject(spec["conversion"]) ? spec["conversion"] : {};
  if (conv["strategy"] !== "Webhook") return undefined;
  const wh = isObject(conv["webhook"]) ? conv["webhook"] : {};
  const cc = isObject(wh["clientConfig"]) ? wh["clientConfig"] : {};
  const clientConfig: WebhookClientConfig = {};
  if (typeof cc["url"] === "string") clientConfig.url = cc["url"];
  if (isObject(cc["service"])) {
    const s = cc["service"];
    clientConfig.service = {
      namespace: typeof s["namespace"] === "string" ? s["namespace"] : "",
      name: typeof s["name"] === "string" ? s["name"] : "",
      path: typeof s["path"] === "string" ? s["path"] : "",
      port: typeof s["port"] === "number" ? s["port"] : 443,
    };
  }
  if (typeof cc["caBundle"] === "string" && cc["caBundle"] !== "") clientConfig.caBundle = Buffer.from(cc["caBundle"], "base64").toString("utf8");
  const versions = Array.isArray(wh["conversionReviewVersions"]) ? wh["conversionReviewVersions"].filter((v): v is string => typeof v === "string") : [];
  return { clientConfig, conversionReviewVersions: versions };
}

/** Builds the converter of `crd` from its compilation; a CRD the engine cannot compile is not pruned. */
export function versionConverter(
  crd: JsonObject,
  compiled: CompileResult,
  group: string,
  kind: string,
  storageVersion: string,
  settings: WebhookSettings = {},
): VersionConverter {
  const ctx = compiled.ok ? compiled.compiled.ctx : undefined;
  const version = (name: string): CompiledVersion | undefined => ctx?.versions.get(name);
  const hook = webhookConversionOf(crd);
  const post = {
    resolver: settings.serviceResolver ?? defaultServiceResolver,
    timeoutMs: settings.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS,
    maxBytes: MAX_WEBHOOK_RESPONSE_BYTES,
  };
  /** The delegate converter (nop or webhook), then prune and coerce to the target's schema. */
  const convert = async (obj: JsonObject, target: string): Promise<JsonObject> => {
    const out = hook ? await convertWithWebhook(hook, obj, `${group}/${target}`, post) : obj;
    out["apiVersion"] = `${group}/${target}`;
    if (!ctx) return out;
    applySchemaCoercion(out, {
      group,
      kind,
      schemaFor: (v) => version(v)?.structural,
      preserveUnknownFields: ctx.preserveUnknownFields,
      dropInvalidMetadata: true,
    });
    return out;
  };
  return {
    storageVersion,
    webhook: hook !== undefined,
    ...(hook ? { converted: new ConvertedCache() } : {}),
    async toStorage(obj) {
      if (versionOf(obj["apiVersion"]) !== storageVersion) return convert(obj, storageVersion);
      return obj;
    },
    async roundTrip(obj, target) {
      const stored = versionOf(obj["apiVersion"]) !== storageVersion ? await convert(obj, storageVersion) : obj;
      return versionOf(stored["apiVersion"]) !== target ? convert(stored, target) : stored;
    },
    async fromStorage(obj, target) {
      const stored = versionOf(obj["apiVersion"]);
      if (ctx && !ctx.versions.has(stored)) throw new StoredVersionError(`${group}/${stored}`);
      const s = version(stored)?.structural;
      if (s) applyDefaults(obj, s);
      // Converting for the response prunes to the target version; its defaults are not applied.
      if (stored !== target) return convert(obj, target);
      return obj;
    },
  };
}

/** A stored object whose version the CRD no longer has (the API server answers 500 "corrupt object"). */
export class StoredVersionError extends Error {
  constructor(readonly groupVersion: string) {
    super(`request to convert CR from an invalid group/version: ${groupVersion}`);
  }
}
