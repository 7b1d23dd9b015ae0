/**
 * The `ConversionReview` exchanged with a CRD's conversion webhook (apiextensions `webhook_converter.go`):
 * the review version is the first of `conversionReviewVersions` the server knows (v1beta1 or v1), and the
 * answer is checked as `getConvertedObjectsFromResponse` does (v1: kind and uid; both: a response, a
 * `Success` result, else the webhook's message).
 */
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";

export const REVIEW_GROUP = "apiextensions.k8s.io";

/** The review version Kubernetes picks: the first known one in the CRD's list. */
export function pickReviewVersion(conversionReviewVersions: readonly string[]): "v1" | "v1beta1" | undefined {
  for (const v of conversionReviewVersions) if (v === "v1" || v === "v1beta1") return v;
  return undefined;
}

/** The request body (Go's struct order; the empty `response` is sent too, as the API server does). */
export function conversionReviewRequest(version: "v1" | "v1beta1", uid: string, desiredAPIVersion: string, objects: JsonObject[]): JsonObject {
  return {
    kind: "ConversionReview",
    apiVersion: `${REVIEW_GROUP}/${version}`,
    request: { uid, desiredAPIVersion, objects },
    response: { uid: "", convertedObjects: null, result: { metadata: {} } },
  };
}

/** `schema.GroupVersionKind.String()` of a decoded object's apiVersion and kind. */
export function gvkString(apiVersion: string, kind: string): string {
  const i = apiVersion.indexOf("/");
  const group = i < 0 ? "" : apiVersion.slice(0, i);
  const version = i < 0 ? apiVersion : apiVersion.slice(i + 1);
  return `${group}/${version}, Kind=${kind}`;
}

/** `getConvertedObjectsFromResponse`: the converted objects, or the error text. */
export function convertedObjectsOf(
  version: "v1" | "v1beta1",
  expectedUid: string,
  review: JsonObject,
): { ok: true; objects: JsonValue[] } | { ok: false; message: string } {
  if (version === "v1") {
    const apiVersion = typeof review["apiVersion"] === "string" ? review["apiVersion"] : "";
    const kind = typeof review["kind"] === "string" ? review["kind"] : "";
    if (apiVersion !== `${REVIEW_GROUP}/v1` || kind !== "ConversionReview") {
      return { ok: false, message: `expected webhook response of ${REVIEW_GROUP}/v1, Kind=ConversionReview, got ${gvkString(apiVersion, kind)}` };
    }
  }
  const response = review["response"];
  if (!isObject(response)) return { ok: false, message: "no response provided" };
  if (version === "v1") {
    const uid = typeof response["uid"] === "string" ? response["uid"] : "";
    if (uid !== expectedUid) return { ok: false, message: `expected response.uid=${JSON.stringify(expectedUid)}, got ${JSON.stringify(uid)}` };
  }
  const result = isObject(response["result"]) ? response["result"] : {};
  const status = typeof result["status"] === "string" ? result["status"] : "";
  if (status !== "Success") {
    const message = typeof result["message"] === "string" ? result["message"] : "";
    if (message.length > 0) return { ok: false, message };
    return { ok: false, message: `response.result.status was '${status}', not 'Success'` };
  }
  const converted = response["convertedObjects"];
  return { ok: true, objects: Array.isArray(converted) ? converted : [] };
}
