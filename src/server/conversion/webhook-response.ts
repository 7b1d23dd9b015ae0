/**
 * Decodes a conversion webhook's HTTP answer as client-go's `Result.Into` does for the webhook client
 * (`rest/request.go` transformResponse, `errors.NewGenericServerResponse`): non-2xx answers become the
 * generic server-response texts (or the message of a Status in the body), 2xx answers are decoded by
 * media type (JSON or YAML) into the review version that was sent.
 */
import { parse as parseYaml } from "yaml";
import { decodeJsonStream } from "../../io/json-decode.js";
import { goJsonMarshal } from "../../go/json.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { REVIEW_GROUP } from "./conversion-review.js";
import type { WebhookAnswer } from "./webhook-client.js";

const MAX_UNSTRUCTURED_RESPONSE_TEXT_BYTES = 2048;

/** `errors.NewGenericServerResponse(code, "POST", {}, "", serverMessage, 0, true).Error()`. */
export function genericServerResponse(code: number, serverMessage: string): string {
  switch (code) {
    case 409:
      return "the server reported a conflict";
    case 404:
      return "the server could not find the requested resource";
    case 400:
      return "the server rejected our request for an unknown reason";
    case 401:
      return "the server has asked for the client to provide credentials";
    case 403:
    case 415:
      return serverMessage;
    case 406:
      return serverMessage === "" || serverMessage === "unknown" ? "the server was unable to respond with a content type that the client supports" : serverMessage;
    case 405:
      return "the server does not allow this method on the requested resource";
    case 422:
      return "the server rejected our request due to an error in our request";
    case 503:
      return "the server is currently unable to handle the request";
    case 504:
      return "the server was unable to return a response in the time allotted, but may still be processing the request";
    case 429:
      return "the server has received too many requests and has asked us to try again later";
    default:
      if (code >= 500) return `an error on the server (${goQuoted(serverMessage)}) has prevented the request from succeeding`;
      return `the server responded with the status code ${code} but did not return more information`;
  }
}

/** Go's `%q` of a string (valid UTF-8 text; control characters escaped). */
function goQuoted(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-7][0-9a-f])/g, "\\x$1");
}

/** The media type of a Content-Type header (`mime.ParseMediaType`, lower-cased), or undefined when invalid. */
function mediaTypeOf(contentType: string): string | undefined {
  const t = contentType.split(";")[0]!.trim().toLowerCase();
  return /^[!#$%&'*+\-.^_`|~0-9a-z]+\/[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(t) ? t : undefined;
}

type Decoded = { ok: true; value: JsonValue } | { ok: false; message: string };

/** The body decoded as the media type says (JSON or YAML); Go's messages for what does not decode. */
function decodeBody(media: string, body: Buffer): Decoded {
  const text = body.toString("utf8");
  if (media === "application/yaml") {
    try {
      return { ok: true, value: parseYaml(text) as JsonValue };
    } catch (e) {
      return { ok: false, message: `error converting YAML to JSON: ${e instanceof Error ? e.message : String(e)}` };
    }
  }
  const r = decodeJsonStream(text);
  if (r.problem) return { ok: false, message: `couldn't get version/kind; json parse error: ${r.problem.message}` };
  const doc = r.documents[0];
  if (!doc) return { ok: false, message: "couldn't get version/kind; json parse error: unexpected end of JSON input" };
  return { ok: true, value: doc.value };
}

/** A decoded `Status` with status Failure: its message (the error client-go returns for it). */
function failureStatusMessage(v: JsonValue): string | undefined {
  if (!isObject(v) || v["kind"] !== "Status") return undefined;
  if (v["status"] !== "Failure") return undefined;
  return typeof v["message"] === "string" ? v["message"] : "";
}

/**
 * The review the webhook answered, or the error text `r.Into(response)` gives. A review of another
 * version than the one sent decodes into a different object, so the one the converter reads stays empty.
 */
export function decodeWebhookAnswer(answer: WebhookAnswer, reviewVersion: "v1" | "v1beta1"): { ok: true; review: JsonObject } | { ok: false; message: string } {
  const contentType = answer.contentType === "" ? "application/json" : answer.contentType;
  const media = mediaTypeOf(contentType);
  if (media === undefined) return { ok: false, message: `Internal error occurred: mime: invalid media parameter` };
  const decodable = media === "application/json" || media === "application/yaml";
  const success = answer.status >= 200 && answer.status <= 206;
  if (!success) {
    const isText = answer.contentType === "" || media.startsWith("text/");
    let body = answer.body;
    if (body.length > MAX_UNSTRUCTURED_RESPONSE_TEXT_BYTES) body = body.subarray(0, MAX_UNSTRUCTURED_RESPONSE_TEXT_BYTES);
    const generic = genericServerResponse(answer.status, isText ? body.toString("utf8").trim() : "unknown");
    if (decodable && answer.body.length > 0) {
      const d = decodeBody(media, answer.body);
      if (d.ok) {
        const m = failureStatusMessage(d.value);
        if (m !== undefined) return { ok: false, message: m };
      }
    }
    return { ok: false, message: generic };
  }
  if (!decodable) return { ok: false, message: `serializer for ${contentType} doesn't exist` };
  if (answer.body.length === 0) return { ok: false, message: `0-length response with status code: ${answer.status} and content type: ${contentType}` };
  const d = decodeBody(media, answer.body);
  if (!d.ok) return d;
  const v = d.value;
  if (!isObject(v) || typeof v["kind"] !== "string" || v["kind"] === "") {
    return { ok: false, message: `Object 'Kind' is missing in '${answer.body.toString("utf8")}'` };
  }
  const m = failureStatusMessage(v);
  if (m !== undefined) return { ok: false, message: m };
  const apiVersion = typeof v["apiVersion"] === "string" && v["apiVersion"] !== "" ? v["apiVersion"] : `${REVIEW_GROUP}/${reviewVersion}`;
  const other = reviewVersion === "v1" ? "v1beta1" : "v1";
  if (apiVersion === `${REVIEW_GROUP}/${other}` && v["kind"] === "ConversionReview") {
    // Decoded into the review type that was sent: the scheme has no conversion between the two.
    return { ok: false, message: `converting (${other}.ConversionReview) to (${reviewVersion}.ConversionReview): unknown conversion` };
  }
  if (apiVersion !== `${REVIEW_GROUP}/${reviewVersion}` || v["kind"] !== "ConversionReview") return { ok: true, review: {} };
  return { ok: true, review: { ...v, apiVersion } };
}

/** `unstructured.UnmarshalJSON` of one converted object: an object with a kind, or Go's error. */
export function convertedObject(v: JsonValue): { ok: true; obj: JsonObject } | { ok: false; message: string } {
  if (v !== null && !isObject(v)) {
    const type = Array.isArray(v) ? "array" : typeof v === "string" ? "string" : typeof v === "boolean" ? "bool" : "number";
    return { ok: false, message: `json: cannot unmarshal ${type} into Go value of type map[string]interface {}` };
  }
  if (v === null || typeof v["kind"] !== "string" || v["kind"] === "") return { ok: false, message: `Object 'Kind' is missing in '${goJsonMarshal(v)}'` };
  return { ok: true, obj: v };
}
