/**
 * The body of a PUT to a custom resource's `/scale`: decoded as the API server's scale handler decodes it, into an
 * `autoscaling/v1` Scale (the only kind its scheme has: a missing apiVersion or kind defaults to it). A body that
 * does not decode — another kind or version, a field of the wrong type (replicas beyond int32, a fraction, a
 * string), metadata that is no ObjectMeta, an unknown or duplicate field under fieldValidation=Strict — is answered
 * with the error the handler's decode-error path produces for that scheme ("no kind is registered for the type
 * v1.Scale"); under Warn, unknown and duplicate fields are warnings. Missing replicas decode as 0.
 */
import { getObjectMeta } from "../../objectmeta/get-set.js";
import { isObject, kindOf, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { apiErrors } from "./errors.js";

/** What of a Scale the update uses. */
export interface ScaleBody {
  name: string;
  namespace: string;
  resourceVersion: string;
  replicas: number;
  /**
   * Whether the body names its apiVersion: without one the decoded Scale has no group-version-kind, so the
   * field manager cannot convert it and keeps the managed fields as they were (`UpdateNoErrors`).
   */
  hasApiVersion: boolean;
  /** Strict-decoding problems (`unknown field "spec.extra"`, `duplicate field "spec.replicas"`). */
  strictErrors: string[];
}

const NOT_DECODED = 'no kind is registered for the type v1.Scale in scheme "pkg/runtime/scheme.go:111"';
const INT32_MAX = 2 ** 31 - 1;

function int32(v: JsonValue | undefined): boolean {
  return v === undefined || v === null || (kindOf(v) === "integer" && Number(v) >= -INT32_MAX - 1 && Number(v) <= INT32_MAX);
}

const SCALE_FIELDS = ["apiVersion", "kind", "metadata", "spec", "status"];

/** The fields of `o` other than `known`, as `<prefix>.<field>` unknown-field errors. */
function unknownFields(o: JsonObject, known: string[], prefix: string): string[] {
  return Object.keys(o)
    .filter((k) => !known.includes(k))
    .map((k) => `unknown field "${prefix}${k}"`);
}

/**
 * The Scale in `value` (a decoded JSON or YAML body; `duplicates`: the decoder's duplicate-field errors), or the
 * handler's 400.
 */
export function decodeScaleBody(value: JsonValue, duplicates: string[], fieldValidation: "Strict" | "Warn" | "Ignore"): ScaleBody {
  const fail = () => apiErrors.badRequest(NOT_DECODED);
  const obj: JsonObject = value === null ? {} : isObject(value) ? value : {};
  if (value !== null && !isObject(value)) throw fail();
  const av = obj["apiVersion"];
  const kind = obj["kind"];
  if ((av !== undefined && av !== null && typeof av !== "string") || (kind !== undefined && kind !== null && typeof kind !== "string")) throw fail();
  if ((typeof av === "string" && av !== "" && av !== "autoscaling/v1") || (typeof kind === "string" && kind !== "" && kind !== "Scale")) throw fail();
  // The unknown fields in the order the decoder meets them: the body's fields in order, each one's own inside it.
  const unknownIn = new Map<string, string[]>();
  let name = "";
  let namespace = "";
  let resourceVersion = "";
  if (obj["metadata"] !== undefined && obj["metadata"] !== null) {
    const m = getObjectMeta(obj, { returnUnknownFieldPaths: true });
    if (m.error !== undefined || !m.meta) throw fail();
    unknownIn.set("metadata", m.unknownPaths.map((p) => `unknown field "${p}"`));
    name = m.meta.name ?? "";
    namespace = m.meta.namespace ?? "";
    resourceVersion = m.meta.resourceVersion ?? "";
  }
  const spec = obj["spec"];
  if (spec !== undefined && spec !== null && !isObject(spec)) throw fail();
  const replicas = isObject(spec) ? spec["replicas"] : undefined;
  if (!int32(replicas)) throw fail();
  if (isObject(spec)) unknownIn.set("spec", unknownFields(spec, ["replicas"], "spec."));
  const status = obj["status"];
  if (status !== undefined && status !== null && !isObject(status)) throw fail();
  if (isObject(status)) {
    if (!int32(status["replicas"])) throw fail();
    const sel = status["selector"];
    if (sel !== undefined && sel !== null && typeof sel !== "string") throw fail();
    unknownIn.set("status", unknownFields(status, ["replicas", "selector"], "status."));
  }
  const strict: string[] = [...duplicates];
  for (const k of Object.keys(obj)) {
    if (!SCALE_FIELDS.includes(k)) strict.push(`unknown field "${k}"`);
    else strict.push(...(unknownIn.get(k) ?? []));
  }
  if (strict.length > 0 && fieldValidation === "Strict") throw fail();
  return {
    name,
    namespace,
    resourceVersion,
    replicas: replicas === undefined || replicas === null ? 0 : Number(replicas),
    hasApiVersion: typeof av === "string" && av !== "",
    strictErrors: fieldValidation === "Warn" ? strict : [],
  };
}
