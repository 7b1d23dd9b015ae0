/**
 * Merge and JSON patches of a custom resource's `/scale`, as the API server's patch handler runs them on the
 * autoscaling/v1 Scale: the current Scale (with the managed fields the scale handler gives it) is encoded as Go
 * encodes the struct, the patch is applied by json-patch v4 (whose documents print the objects it walked or merged
 * with sorted keys, everything else as it was), and the result is decoded into a Scale again. A result that does
 * not decode (replicas that are no int32, a spec that is no object, …) is the handler's 422 on field `patch` with
 * the patched document's text; unknown fields are strict-decoding errors (warnings, or that 422 under Strict).
 */
import { goQuote } from "../../go/fmt.js";
import { goJsonBoxText, goJsonFloat, goJsonString } from "../../go/json.js";
import { Float64, isObject, kindOf, setKey, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { unmarshalObjectMeta } from "../../objectmeta/go-decode.js";
import { pruneNulls } from "./patch.js";

/** The replicas the scale handler writes for a custom resource without them (`invalidSpecReplicas`). */
export const INVALID_SPEC_REPLICAS = -2147483648;

/** Objects json-patch printed with sorted keys (decoded into its `partialDoc` maps). */
export type SortedObjects = WeakSet<object>;

const ENTRY_KEYS = ["manager", "operation", "apiVersion", "time", "fieldsType", "fieldsV1", "subresource"];
const META_KEYS = ["name", "namespace", "uid", "resourceVersion", "creationTimestamp"];

/**
 * The Scale `scale` (as `toScale` builds it) with `managedFields`, its keys in the Go struct's order and without
 * the fields Go omits when empty.
 */
export function goOrderedScale(scale: JsonObject, managedFields: JsonObject[] | undefined): JsonObject {
  const m = isObject(scale["metadata"]) ? scale["metadata"] : {};
  const meta: JsonObject = {};
  for (const k of META_KEYS) if (m[k] !== undefined && m[k] !== "") meta[k] = m[k]!;
  if (managedFields && managedFields.length > 0) {
    meta["managedFields"] = managedFields.map((e) => {
      const o: JsonObject = {};
      for (const k of ENTRY_KEYS) if (e[k] !== undefined && e[k] !== "") o[k] = e[k]!;
      return o;
    });
  }
  const spec = isObject(scale["spec"]) ? scale["spec"] : {};
  const status = isObject(scale["status"]) ? scale["status"] : {};
  const st: JsonObject = { replicas: status["replicas"] ?? 0 };
  if (typeof status["selector"] === "string" && status["selector"] !== "") st["selector"] = status["selector"];
  return {
    apiVersion: "autoscaling/v1",
    kind: "Scale",
    metadata: meta,
    spec: spec["replicas"] !== undefined && spec["replicas"] !== 0 ? { replicas: spec["replicas"]! } : {},
    status: st,
  };
}

/**
 * RFC 7386 merge patch of object `patch` into object `target` as json-patch v4's `MergePatch` prints it: the objects
 * it merges and the ones the patch adds (their nulls pruned) have sorted keys.
 */
export function mergePatchSorted(target: JsonObject, patch: JsonObject, sorted: SortedObjects): JsonObject {
  const out: JsonObject = { ...target };
  sorted.add(out);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete out[k];
      continue;
    }
    const cur = Object.hasOwn(out, k) ? out[k]! : null;
    if (cur === null) setKey(out, k, pruned(v, sorted));
    else if (!isObject(cur)) setKey(out, k, pruned(v, sorted));
    else setKey(out, k, isObject(v) ? mergePatchSorted(cur, v, sorted) : v);
  }
  return out;
}

/** `pruneNulls`, every object of the copy decoded (sorted). */
function pruned(v: JsonValue, sorted: SortedObjects): JsonValue {
  return pruneNulls(v, (o) => sorted.add(o));
}

/** The objects a JSON patch walked to reach its operations' targets (json-patch's `findObject` decodes them). */
export function markJsonPatchPaths(doc: JsonValue, ops: JsonValue, sorted: SortedObjects): void {
  if (isObject(doc)) sorted.add(doc);
  if (!Array.isArray(ops)) return;
  for (const op of ops) {
    if (!isObject(op)) continue;
    for (const p of [op["path"], op["from"]]) {
      if (typeof p !== "string" || !p.startsWith("/")) continue;
      const tokens = p.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
      let cur: JsonValue | undefined = doc;
      for (const t of tokens.slice(0, -1)) {
        if (Array.isArray(cur)) cur = /^\d+$/.test(t) ? cur[Number(t)] : undefined;
        else if (isObject(cur) && Object.hasOwn(cur, t)) cur = cur[t];
        else cur = undefined;
        if (cur === undefined) break;
        if (isObject(cur)) sorted.add(cur);
      }
    }
  }
}

/** `json.Marshal` of the patched document: sorted keys for the objects in `sorted`, the given order elsewhere. */
export function marshalPatched(v: JsonValue, sorted: SortedObjects): string {
  if (v === null) return "null";
  if (typeof v === "string") return goJsonString(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "bigint") return String(v);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : goJsonFloat(v);
  if (v instanceof Float64) return goJsonBoxText(v);
  if (Array.isArray(v)) return `[${v.map((x) => marshalPatched(x, sorted)).join(",")}]`;
  const keys = sorted.has(v) ? Object.keys(v).sort() : Object.keys(v);
  return `{${keys.map((k) => `${goJsonString(k)}:${marshalPatched(v[k]!, sorted)}`).join(",")}}`;
}

/** The patched Scale as decoded. */
export interface PatchedScale {
  replicas: number;
  resourceVersion: string;
  /** Strict-decoding problems (`unknown field "spec.extra"`), in document order. */
  unknownFields: string[];
}

/** Go's `UnmarshalTypeError` value of a JSON value (`number 4.5` for numbers that a Go integer cannot take). */
function jsonKind(v: JsonValue, withNumber: boolean): string {
  const k = kindOf(v);
  if (k === "integer" || k === "number") {
    if (!withNumber) return "number";
    return `number ${typeof v === "number" ? (Number.isInteger(v) ? String(v) : goJsonFloat(v)) : v instanceof Float64 ? goJsonFloat(v.value) : String(v)}`;
  }
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return "array";
  return "object";
}

function typeError(v: JsonValue, withNumber: boolean, field: string, type: string): string {
  return `json: cannot unmarshal ${jsonKind(v, withNumber)} into Go struct field ${field} of type ${type}`;
}

/** An int32 field: the decoding error of `v`, if any (null leaves the field as it is). */
function int32Error(v: JsonValue, field: string): string | undefined {
  if (v === null) return undefined;
  if (kindOf(v) === "integer" && Number(v) >= -2147483648 && Number(v) <= 2147483647) return undefined;
  const numeric = kindOf(v) === "integer" || kindOf(v) === "number";
  return typeError(v, numeric, field, "int32");
}

function orderedKeys(o: JsonObject, sorted: SortedObjects): string[] {
  return sorted.has(o) ? Object.keys(o).sort() : Object.keys(o);
}

/**
 * The serializer's refusal of the document's apiVersion and kind (a missing group/version or kind is the Scale's):
 * the scale handler's scheme has no other kind.
 */
function scaleKindError(doc: JsonObject): string | undefined {
  const apiVersion = typeof doc["apiVersion"] === "string" ? doc["apiVersion"] : "";
  let kind = typeof doc["kind"] === "string" ? doc["kind"] : "";
  const parts = apiVersion === "" ? [] : apiVersion.split("/");
  if (parts.length > 2) return `unexpected GroupVersion string: ${apiVersion}`;
  let [group, version] = parts.length === 2 ? [parts[0]!, parts[1]!] : ["", parts[0] ?? ""];
  if (kind === "") kind = "Scale";
  if (group === "" && version === "") [group, version] = ["autoscaling", "v1"];
  if (group === "autoscaling" && version === "") version = "v1";
  if (group === "autoscaling" && version === "v1" && kind === "Scale") return undefined;
  return `no kind ${goQuote(kind)} is registered for version ${goQuote(group === "" ? version : `${group}/${version}`)} in scheme "pkg/runtime/scheme.go:111"`;
}

/**
 * Decodes the patched document into a Scale as the JSON serializer does (Go `encoding/json` into
 * `autoscalingv1.Scale`, in document order; the first type error wins): the decoding error's text, or the Scale.
 */
export function decodePatchedScale(doc: JsonObject, sorted: SortedObjects): { error: string } | PatchedScale {
  const kindError = scaleKindError(doc);
  if (kindError !== undefined) return { error: kindError };
  let error: string | undefined;
  const unknown: string[] = [];
  let replicas = 0;
  let resourceVersion = "";
  const fail = (e: string | undefined) => {
    if (error === undefined && e !== undefined) error = e;
  };
  for (const k of orderedKeys(doc, sorted)) {
    const v = doc[k]!;
    if (k === "apiVersion" || k === "kind") continue;
    if (k === "metadata") {
      if (v === null) continue;
      if (!isObject(v)) {
        fail(typeError(v, false, "Scale.metadata", "v1.ObjectMeta"));
        continue;
      }
      // ObjectMeta decoded alone names its fields from ObjectMeta; inside a Scale their paths start at metadata.
      const m = unmarshalObjectMeta(v, true);
      if (m.error !== undefined) fail(m.error.replace(/Go struct field (\w+)\./, "Go struct field $1.metadata."));
      else {
        unknown.push(...m.unknown.map((u) => `unknown field "metadata.${u}"`));
        resourceVersion = m.meta.resourceVersion ?? "";
      }
      continue;
    }
    if (k === "spec") {
      if (v === null) continue;
      if (!isObject(v)) {
        fail(typeError(v, false, "Scale.spec", "v1.ScaleSpec"));
        continue;
      }
      for (const f of orderedKeys(v, sorted)) {
        if (f !== "replicas") {
          unknown.push(`unknown field "spec.${f}"`);
          continue;
        }
        const e = int32Error(v[f]!, "ScaleSpec.spec.replicas");
        fail(e);
        if (e === undefined && v[f] !== null) replicas = Number(v[f]);
      }
      continue;
    }
    if (k === "status") {
      if (v === null) continue;
      if (!isObject(v)) {
        fail(typeError(v, false, "Scale.status", "v1.ScaleStatus"));
        continue;
      }
      for (const f of orderedKeys(v, sorted)) {
        const x = v[f]!;
        if (f === "replicas") fail(int32Error(x, "ScaleStatus.status.replicas"));
        else if (f === "selector") {
          if (x !== null && typeof x !== "string") fail(typeError(x, false, "ScaleStatus.status.selector", "string"));
        } else unknown.push(`unknown field "status.${f}"`);
      }
      continue;
    }
    unknown.push(`unknown field "${k}"`);
  }
  if (error !== undefined) return { error };
  return { replicas, resourceVersion, unknownFields: unknown };
}
