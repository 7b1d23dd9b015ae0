/**
 * The typed decoder's reading of a body's `apiVersion` and `kind` (a resource backed by a Go type, such as CRDs):
 * missing parts are taken from the request's resource (`gvkWithDefaults`), the type is looked up in the scheme
 * and converted to the resource's internal type. JSON `null` decodes as the zero object.
 */
import { goQuote } from "../../go/fmt.js";
import { isObject, type JsonObject } from "../../value/json-value.js";
import type { ResourceType } from "../registry/resource-type.js";
import type { TypedScheme } from "../registry/typed-scheme.js";
import { apiErrors } from "./errors.js";
import { unrecognizedBody } from "./http-io.js";
import { bodyGvk } from "../../pipeline/body-gvk.js";

/**
 * The decoded object of a typed resource's body (`value`: a JSON object or null), with the apiVersion and kind it
 * was decoded as; throws the handler's 400 when the body names a type the scheme does not know or cannot convert.
 */
export function typedBody(rt: ResourceType, scheme: TypedScheme, value: JsonObject | null, body: Buffer): JsonObject {
  const obj = value ?? {};
  const av = typeof obj["apiVersion"] === "string" ? obj["apiVersion"] : "";
  const gvk = bodyGvk(obj, { group: rt.group, version: rt.version, kind: rt.kind });
  if (gvk === undefined) throw unrecognizedBody(rt.kind, `unexpected GroupVersion string: ${av}`, body);
  const { group, version, kind } = gvk;
  const goType = scheme.goType(group, version, kind);
  const prefix = `${kind} in version ${goQuote(version)} cannot be handled as a ${rt.kind}: `;
  const gvText = group === "" ? version : `${group}/${version}`;
  if (goType === undefined) {
    throw apiErrors.badRequest(`${prefix}no kind ${goQuote(kind)} is registered for version ${goQuote(gvText)} in scheme "pkg/runtime/scheme.go:111"`);
  }
  if (!scheme.converts(goType)) throw apiErrors.badRequest(`${prefix}converting (${goType}) to (${scheme.internalType}): unknown conversion`);
  if (!isObject(value)) return { apiVersion: gvText, kind };
  obj["apiVersion"] = gvText;
  obj["kind"] = kind;
  return obj;
}
