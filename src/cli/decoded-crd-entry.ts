/**
 * A decoded CRD ({@link DecodedCrd}) as a plain JSON-able entry of the compiled-CRD cache, and back: the
 * form that was decoded (v1: the defaulted v1 CRD; v1beta1: the internal form) is stored, and the other
 * form is derived from it again on reading exactly as `decodeCrd` derives it, so that the objects the
 * two forms share (schemas, names, metadata) are shared again. Reading an entry costs a JSON parse,
 * instead of decoding every schema node with Go's type checks.
 */
import { CRD_GROUP, type DecodedCrd } from "../crd/decode-crd.js";
import { type InternalCrd, v1ToInternal } from "../crd/internal.js";
import type { CustomResourceDefinition } from "../crd/types.js";
import { internalToV1 } from "../crd/v1beta1.js";
import type { JsonValue } from "../value/json-value.js";

const V1 = `${CRD_GROUP}/v1`;
const V1BETA1 = `${CRD_GROUP}/v1beta1`;

/** The entry of a decoded CRD: its apiVersion, unknown fields and the form it was decoded into. */
export function decodedCrdEntry(d: DecodedCrd): { apiVersion: string; unknownFields: string[]; form: CustomResourceDefinition | InternalCrd } {
  return { apiVersion: d.apiVersion, unknownFields: d.unknownFields, form: d.apiVersion === V1BETA1 ? d.internal : d.crd };
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** The decoded CRD of an entry written by {@link decodedCrdEntry}; undefined for anything else. */
export function decodedCrdFromEntry(entry: JsonValue): DecodedCrd | undefined {
  if (!isObj(entry)) return undefined;
  const { apiVersion, unknownFields, form } = entry;
  if ((apiVersion !== V1 && apiVersion !== V1BETA1) || !Array.isArray(unknownFields) || !unknownFields.every((f) => typeof f === "string")) return undefined;
  if (!isObj(form) || !isObj(form["spec"]) || !Array.isArray(form["spec"]["versions"]) || !isObj(form["metadata"])) return undefined;
  if (apiVersion === V1) {
    const crd = form as unknown as CustomResourceDefinition;
    return { ok: true, apiVersion, crd, internal: v1ToInternal(crd), unknownFields: unknownFields as string[] };
  }
  if (!isObj(form["status"])) return undefined;
  const internal = form as unknown as InternalCrd;
  return { ok: true, apiVersion, crd: internalToV1(internal), internal, unknownFields: unknownFields as string[] };
}
