/**
 * `webhookConverter.Convert` for one object (apiextensions `webhook_converter.go`): sends the object in a
 * `ConversionReview`, checks the answer and the converted object (group/version, kind, name, namespace,
 * uid), and keeps the original metadata except labels and annotations (`restoreObjectMeta`), which are
 * validated when the webhook changed them. Every failure is an {@link ConversionFailure} with Kubernetes' text.
 */
import { randomUUID } from "node:crypto";
import { aggregateMessage } from "../../errors/field-error.js";
import { FieldPath } from "../../errors/field-path.js";
import { validateAnnotations, validateLabels } from "../../objectmeta/validate-meta.js";
import { deepClone, isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { conversionReviewRequest, convertedObjectsOf, gvkString, pickReviewVersion } from "./conversion-review.js";
import { type PostOptions, postToWebhook, WebhookCallError, type WebhookClientConfig } from "./webhook-client.js";
import { convertedObject, decodeWebhookAnswer } from "./webhook-response.js";
import { goJsonMarshal } from "../../go/json.js";

/** A conversion that failed; the message is the API server's. */
export class ConversionFailure extends Error {}

/** One CRD's conversion webhook. */
export interface WebhookConversion {
  clientConfig: WebhookClientConfig;
  conversionReviewVersions: string[];
}

function str(o: JsonObject, k: string): string {
  return typeof o[k] === "string" ? (o[k] as string) : "";
}

function metaOf(o: JsonObject): JsonObject {
  return isObject(o["metadata"]) ? o["metadata"] : {};
}

/** `validateConvertedObject`. */
function sameIdentity(inObj: JsonObject, out: JsonObject): string | undefined {
  const pairs: [string, string, string][] = [
    ["kind", str(inObj, "kind"), str(out, "kind")],
    ["name", str(metaOf(inObj), "name"), str(metaOf(out), "name")],
    ["namespace", str(metaOf(inObj), "namespace"), str(metaOf(out), "namespace")],
    ["UID", str(metaOf(inObj), "uid"), str(metaOf(out), "uid")],
  ];
  for (const [what, e, a] of pairs) if (e !== a) return `must have the same ${what}: ${e} != ${a}`;
  return undefined;
}

/** Go's `%T` of a decoded JSON value. */
function goType(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return "<nil>";
  if (Array.isArray(v)) return "[]interface {}";
  if (isObject(v)) return "map[string]interface {}";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  return Number.isInteger(v) ? "int64" : "float64";
}

/** `restoreObjectMeta`: the original metadata with the webhook's labels and annotations; an error text. */
function restoreObjectMeta(original: JsonObject, converted: JsonObject): string | undefined {
  const response = converted["metadata"];
  if (response === undefined) return "missing metadata in converted object";
  if (!isObject(response)) return `invalid metadata of type ${goType(response)} in converted object`;
  const restored: JsonObject = isObject(original["metadata"]) ? deepClone(original["metadata"]) : {};
  converted["metadata"] = restored;
  for (const fld of ["labels", "annotations"]) {
    const got = response[fld];
    if (got === undefined || got === null) {
      delete restored[fld];
      continue;
    }
    if (!isObject(got)) return `invalid metadata.${fld} of type ${goType(got)} in converted object`;
    const orig = restored[fld];
    if (orig !== undefined && orig !== null && !isObject(orig)) return `invalid metadata.${fld} of type ${goType(orig)} in original object`;
    const before = isObject(orig) ? orig : {};
    let changed = Object.keys(before).length !== Object.keys(got).length;
    const values = new Map<string, string>();
    for (const [k, v] of Object.entries(got)) {
      if (typeof v !== "string") return `metadata.${fld}[${k}] must be a string, but is ${goType(v)} in converted object`;
      if (before[k] !== v) changed = true;
      values.set(k, v);
    }
    if (changed) {
      const errs =
        fld === "labels" ? validateLabels(values, FieldPath.of("metadata", "labels")) : validateAnnotations(values, FieldPath.of("metadata", "annotation"));
      if (errs.length > 0) return aggregateMessage(errs);
    }
    restored[fld] = got;
  }
  return undefined;
}

/**
 * Converts `obj` to `group/version` through the webhook. Objects already in that version, and objects
 * with nothing but apiVersion and kind, are returned as they are (no call).
 */
export async function convertWithWebhook(hook: WebhookConversion, obj: JsonObject, desiredAPIVersion: string, opts: PostOptions): Promise<JsonObject> {
  const keys = Object.keys(obj);
  if (keys.length === 2 && "kind" in obj && "apiVersion" in obj) {
    obj["apiVersion"] = desiredAPIVersion;
    return obj;
  }
  if (str(obj, "apiVersion") === desiredAPIVersion) return obj;
  const gvk = gvkString(str(obj, "apiVersion"), str(obj, "kind"));
  const reviewVersion = pickReviewVersion(hook.conversionReviewVersions);
  if (!reviewVersion) throw new ConversionFailure("no supported conversion review versions");
  const uid = randomUUID();
  const body = goJsonMarshal(conversionReviewRequest(reviewVersion, uid, desiredAPIVersion, [obj]));
  let review: JsonObject;
  try {
    const answer = await postToWebhook(hook.clientConfig, body, opts);
    const d = decodeWebhookAnswer(answer, reviewVersion);
    if (!d.ok) throw new ConversionFailure(`conversion webhook for ${gvk} failed: ${d.message}`);
    review = d.review;
  } catch (e) {
    if (e instanceof WebhookCallError) throw new ConversionFailure(`conversion webhook for ${gvk} failed: ${e.message}`);
    throw e;
  }
  const got = convertedObjectsOf(reviewVersion, uid, review);
  if (!got.ok) throw new ConversionFailure(`conversion webhook for ${gvk} failed: ${got.message}`);
  if (got.objects.length !== 1) throw new ConversionFailure(`conversion webhook for ${gvk} returned ${got.objects.length} objects, expected 1`);
  const c = convertedObject(got.objects[0]!);
  if (!c.ok) throw new ConversionFailure(c.message);
  const out = c.obj;
  const outGv = str(out, "apiVersion");
  if (outGv !== desiredAPIVersion) {
    throw new ConversionFailure(`conversion webhook for ${gvk} returned invalid object at index 0: invalid groupVersion (expected ${desiredAPIVersion}, received ${outGv})`);
  }
  if (str(out, "kind") !== str(obj, "kind")) {
    throw new ConversionFailure(`conversion webhook for ${gvk} returned invalid object at index 0: invalid kind (expected ${str(obj, "kind")}, received ${str(out, "kind")})`);
  }
  const identity = sameIdentity(obj, out);
  if (identity) throw new ConversionFailure(`conversion webhook for ${gvk} returned invalid object: ${identity}`);
  const meta = restoreObjectMeta(obj, out);
  if (meta) throw new ConversionFailure(`conversion webhook for ${gvk} returned invalid metadata: ${meta}`);
  return out;
}
