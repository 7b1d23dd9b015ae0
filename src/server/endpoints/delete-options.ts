/**
 * `metav1.DeleteOptions` of a DELETE (one object or a collection), read as the API server's delete handlers
 * read them: from the body when there is one (any apiVersion, kind `DeleteOptions`; the query is then
 * ignored), else from the query parameters (`gracePeriodSeconds`, `orphanDependents`, `propagationPolicy`,
 * `dryRun`), then checked by `ValidateDeleteOptions` (422 `DeleteOptions.meta.k8s.io "" is invalid: …`).
 */
import { FieldPath } from "../../errors/field-path.js";
import { type FieldError, fieldError } from "../../errors/field-error.js";
import { goQuote } from "../../go/fmt.js";
import { decodeJsonStream } from "../../io/json-decode.js";
import { type Float64, isObject, kindOf, type JsonObject, type JsonValue, RawNumber } from "../../value/json-value.js";
import { goJsonNumberText } from "../../go/json.js";
import { type ApiError, apiErrors } from "./errors.js";
import { queryBool, parseGoInt64 } from "./query-params.js";
import type { QueryParams } from "./request-url.js";

export interface DeleteOptions {
  dryRun: string[];
  gracePeriodSeconds?: number;
  orphanDependents?: boolean;
  propagationPolicy?: string;
  preconditions: { uid?: string; resourceVersion?: string };
}

/** Whether the options ask for a dry run (`dryRun: [All]`; validation refused any other value). */
export function isDryRunDelete(o: DeleteOptions): boolean {
  return o.dryRun.length > 0;
}

/** The options of a JSON body (already read; not empty). */
export function deleteOptionsFromJson(text: string): DeleteOptions {
  // (a number beyond float64 fails only where a field converts it: the struct's number fields)
  const r = decodeJsonStream(text, { recordRangeErrors: true });
  const doc = r.documents[0];
  if (r.problem || !doc) throw apiErrors.badRequest(`couldn't get version/kind; json parse error: ${r.problem?.message ?? "unexpected end of JSON input"}`);
  try {
    return optionsOf(doc.value);
  } catch (e) {
    // encoding/json names a number field's literal as it was sent (`number 1.0`, `number 1e400`)
    const sent = e instanceof NumberFieldError ? decodeJsonStream(text, { recordRangeErrors: true, rawNumbers: true }).documents[0]?.value : undefined;
    if (e instanceof NumberFieldError && isObject(sent) && sent[e.field] instanceof RawNumber) throw apiErrors.badRequest(e.message.replace(/number \S+/, `number ${(sent[e.field] as RawNumber).text}`));
    throw e instanceof NumberFieldError ? apiErrors.badRequest(e.message) : e;
  }
}

/** An int64 field given another number (its text Go's rendering of the value, until the raw text replaces it). */
class NumberFieldError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** The options of a decoded body (JSON or YAML). */
export function deleteOptionsFromValue(v: JsonValue): DeleteOptions {
  try {
    return optionsOf(v);
  } catch (e) {
    throw e instanceof NumberFieldError ? apiErrors.badRequest(e.message) : e;
  }
}

function optionsOf(v: JsonValue): DeleteOptions {
  if (v !== null && !isObject(v)) {
    // The serializer first reads apiVersion and kind into a struct.
    const what = JSON_KIND[kindOf(v)] ?? "value";
    throw apiErrors.badRequest(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${what} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const o = isObject(v) ? v : {};
  // … whose string fields take no other type (the first in the text is reported).
  for (const k of Object.keys(o)) {
    const x = o[k];
    if ((k === "apiVersion" || k === "kind") && x !== null && typeof x !== "string") {
      throw apiErrors.badRequest(`couldn't get version/kind; json parse error: json: cannot unmarshal ${JSON_KIND[kindOf(x!)] ?? "value"} into Go struct field .${k} of type string`);
    }
  }
  const kind = typeof o["kind"] === "string" && o["kind"] !== "" ? o["kind"] : "DeleteOptions";
  const apiVersion = typeof o["apiVersion"] === "string" && o["apiVersion"] !== "" ? o["apiVersion"] : "meta.k8s.io/v1";
  // DeleteOptions is an unversioned kind of the meta scheme: any apiVersion decodes it, no other kind does.
  if (kind !== "DeleteOptions") {
    throw apiErrors.badRequest(`no kind ${goQuote(kind)} is registered for version ${goQuote(apiVersion)} in scheme "pkg/runtime/scheme.go:111"`);
  }
  const out: DeleteOptions = { dryRun: [], preconditions: {} };
  const grace = field(o, "gracePeriodSeconds", "int64");
  if (grace !== null) out.gracePeriodSeconds = grace as number;
  const orphan = field(o, "orphanDependents", "bool");
  if (orphan !== null) out.orphanDependents = orphan as boolean;
  const policy = field(o, "propagationPolicy", "v1.DeletionPropagation");
  if (policy !== null) out.propagationPolicy = policy as string;
  const dry = field(o, "dryRun", "[]string");
  if (Array.isArray(dry)) {
    for (const d of dry) {
      if (d === null) out.dryRun.push("");
      else if (typeof d === "string") out.dryRun.push(d);
      else throw unmarshalError(d, "DeleteOptions.dryRun", "string");
    }
  }
  const pre = field(o, "preconditions", "v1.Preconditions");
  if (isObject(pre)) {
    for (const k of ["uid", "resourceVersion"] as const) {
      const x = pre[k];
      if (x === undefined || x === null) continue;
      if (typeof x !== "string") throw unmarshalError(x, `Preconditions.preconditions.${k}`, k === "uid" ? "types.UID" : "string");
      out.preconditions[k] = x;
    }
  }
  return out;
}

/** The options of a DELETE without a body: its query parameters (`metav1.ParameterCodec`). */
export function deleteOptionsFromQuery(q: QueryParams): DeleteOptions {
  const out: DeleteOptions = { dryRun: q.getAll("dryRun"), preconditions: {} };
  const grace = q.get("gracePeriodSeconds");
  if (grace !== null) out.gracePeriodSeconds = parseGoInt64(grace);
  const orphan = q.get("orphanDependents");
  if (orphan !== null) out.orphanDependents = queryBool(orphan);
  const policy = q.get("propagationPolicy");
  if (policy !== null) out.propagationPolicy = policy;
  // `Convert_url_Values_To_v1_DeleteOptions`: a non-empty first `uid` or `resourceVersion` is a precondition.
  const uid = q.get("uid");
  if (uid) out.preconditions.uid = uid;
  const rv = q.get("resourceVersion");
  if (rv) out.preconditions.resourceVersion = rv;
  return out;
}

/** `ValidateDeleteOptions`: 422 naming `DeleteOptions.meta.k8s.io`. */
export function validateDeleteOptions(o: DeleteOptions): void {
  const errs: FieldError[] = [];
  const policy = FieldPath.of("propagationPolicy");
  if (o.orphanDependents !== undefined && o.propagationPolicy !== undefined) {
    errs.push(fieldError.invalid(policy, o.propagationPolicy, "orphanDependents and deletionPropagation cannot be both set"));
  }
  if (o.propagationPolicy !== undefined && !["Foreground", "Background", "Orphan"].includes(o.propagationPolicy)) {
    errs.push(fieldError.notSupported(policy, o.propagationPolicy, ["Foreground", "Background", "Orphan", "nil"]));
  }
  if (o.dryRun.some((d) => d !== "All")) errs.push(fieldError.notSupported(FieldPath.of("dryRun"), o.dryRun, ["All"]));
  if (errs.length === 0) return;
  throw apiErrors.invalid("DeleteOptions", "meta.k8s.io", "", errs);
}

const JSON_KIND: Record<string, string> = { string: "string", integer: "number", number: "number", boolean: "bool", array: "array", object: "object" };

/**
 * encoding/json's `UnmarshalTypeError` text for a body field of the wrong JSON type (`field`: the innermost
 * struct's type name, then the field's path); a number names its text only when the field is a number too.
 */
function unmarshalError(v: JsonValue, field: string, goType: string): ApiError | NumberFieldError {
  const k = kindOf(v);
  if ((k === "number" || k === "integer") && goType === "int64") {
    return new NumberFieldError(`json: cannot unmarshal number ${goJsonNumberText(v as number | bigint | Float64)} into Go struct field ${field} of type ${goType}`, field.slice(field.indexOf(".") + 1));
  }
  return apiErrors.badRequest(`json: cannot unmarshal ${JSON_KIND[k] ?? k} into Go struct field ${field} of type ${goType}`);
}

/** A top-level field of the body checked against its Go type; null when absent or null. */
function field(o: JsonObject, name: string, goType: string): JsonValue {
  const v = o[name];
  if (v === undefined || v === null) return null;
  const k = kindOf(v);
  const ok =
    goType === "int64" ? k === "integer" : goType === "bool" ? k === "boolean" : goType === "[]string" ? k === "array" : goType.startsWith("v1.Preconditions") ? k === "object" : k === "string";
  if (!ok) throw unmarshalError(v, `DeleteOptions.${name}`, goType);
  return v;
}
