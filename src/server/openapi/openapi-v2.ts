/**
 * `/openapi/v2`: one Swagger 2.0 document, the real server's built-in part (published) plus every custom resource
 * group version's v3 document converted as kube-openapi's v2 builder and the aggregator would have it: Kubernetes'
 * lossy v3→v2 schema conversion (apiextensions `controller/openapi/v2.ToStructuralOpenAPIV2`: allOf/anyOf/oneOf/not
 * dropped, a nullable schema loses its type, items and properties, a schema that preserves unknown fields loses
 * items and properties, an array without items loses its type, nullable properties leave `required`), no defaults,
 * body parameters, and shared parameters (`deduplicateParameters`).
 */
import { compareGoStrings } from "../../go/fmt.js";
import { goJsonMarshal, goJsonString } from "../../go/json.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";

/** `ToStructuralOpenAPIV2` on a JSON schema (a copy). */
export function toOpenApiV2Schema(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(toOpenApiV2Schema);
  if (!isObject(v)) return v;
  const s: JsonObject = {};
  for (const [k, x] of Object.entries(v)) s[k] = k === "properties" && isObject(x) ? mapValues(x) : k === "enum" || k === "default" || k === "example" ? x : toOpenApiV2Schema(x);
  // A description next to a single reference is written as the reference itself in v2.
  const allOf = s["allOf"];
  if (Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) && typeof allOf[0]["$ref"] === "string" && s["$ref"] === undefined) s["$ref"] = allOf[0]["$ref"];
  for (const k of ["allOf", "anyOf", "oneOf", "not"]) delete s[k];
  if (s["nullable"] === true) {
    delete s["type"];
    delete s["nullable"];
    delete s["items"];
    delete s["properties"];
  }
  if (s["x-kubernetes-preserve-unknown-fields"] === true) {
    delete s["items"];
    delete s["properties"];
    if (s["type"] === "object") delete s["type"];
  }
  if (s["type"] === "array" && s["items"] === undefined) delete s["type"];
  const props = isObject(v["properties"]) ? v["properties"] : {};
  if (Array.isArray(s["required"])) {
    const req = s["required"].filter((f) => !(typeof f === "string" && isObject(props[f]) && props[f]["nullable"] === true));
    if (req.length === 0) delete s["required"];
    else s["required"] = req;
  }
  if (isObject(v["additionalProperties"]) && v["additionalProperties"]["nullable"] === true) delete s["required"];
  return s;
}

function mapValues(o: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(o)) out[k] = toOpenApiV2Schema(x);
  return out;
}

function rewriteRefs(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(rewriteRefs);
  if (!isObject(v)) return v;
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    out[k] = k === "$ref" && typeof x === "string" ? x.replace("#/components/schemas/", "#/definitions/") : rewriteRefs(x);
  }
  return out;
}

const PRODUCES = ["application/json", "application/yaml"];
const PATCH_ORDER = ["application/json-patch+json", "application/merge-patch+json", "application/strategic-merge-patch+json", "application/apply-patch+yaml"];

/** A v3 operation as a v2 operation: parameters flattened, requestBody as the `body` parameter. */
function operationV2(op: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(op)) {
    if (k === "parameters" || k === "requestBody" || k === "responses") continue;
    out[k] = x;
  }
  const params: JsonValue[] = Array.isArray(op["parameters"]) ? op["parameters"].map(parameterV2) : [];
  const body = isObject(op["requestBody"]) ? op["requestBody"] : undefined;
  if (body && isObject(body["content"])) {
    const types = Object.keys(body["content"]);
    const first = body["content"][types[0]!];
    params.unshift({ in: "body", name: "body", ...(body["required"] === true ? { required: true } : {}), schema: isObject(first) ? (first["schema"] ?? {}) : {} });
    // v2 keeps the route's order of media types (v3's content map is sorted): the patch types as apiserver lists them.
    out["consumes"] = types.every((t) => PATCH_ORDER.includes(t)) ? [...types].sort((a, b) => PATCH_ORDER.indexOf(a) - PATCH_ORDER.indexOf(b)) : types;
  } else out["consumes"] = PRODUCES;
  if (params.length > 0) out["parameters"] = params;
  out["produces"] = PRODUCES;
  const responses: JsonObject = {};
  for (const [code, r] of Object.entries(isObject(op["responses"]) ? op["responses"] : {})) {
    if (!isObject(r)) continue;
    const content = isObject(r["content"]) ? r["content"] : undefined;
    const first = content ? content[Object.keys(content)[0]!] : undefined;
    responses[code] = { description: r["description"] ?? "", ...(isObject(first) && first["schema"] !== undefined ? { schema: first["schema"] } : {}) };
  }
  out["responses"] = responses;
  out["schemes"] = ["https"];
  return out;
}

function parameterV2(p: JsonValue): JsonValue {
  if (!isObject(p)) return p;
  const { schema, ...rest } = p;
  return { ...rest, ...(isObject(schema) ? schema : {}) };
}

/** Go's FNV-1 64-bit hash of the UTF-8 bytes of `s`. */
function fnv1Hash64(s: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(s, "utf8")) h = ((h * 0x100000001b3n) & 0xffffffffffffffffn) ^ BigInt(b);
  return h;
}

/** `json.Marshal` of a kube-openapi `spec.Parameter` (CommonValidations, SimpleSchema, Refable, then ParamProps). */
function parameterJson(p: JsonObject): string {
  const parts: string[] = [];
  const add = (k: string, v: JsonValue | undefined, omit: (v: JsonValue) => boolean = (x) => x === false || x === "") => {
    if (v !== undefined && v !== null && !omit(v)) parts.push(`${goJsonString(k)}:${goJsonMarshal(v)}`);
  };
  for (const k of ["maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "multipleOf", "enum"]) add(k, p[k]);
  for (const k of ["type", "format", "items", "collectionFormat", "default", "example"]) add(k, p[k]);
  if (typeof p["$ref"] === "string") add("$ref", p["$ref"]);
  for (const k of ["description", "name", "in", "required"]) add(k, p[k]);
  if (p["schema"] !== undefined) parts.push(`"schema":${orderedJson(p["schema"])}`);
  add("allowEmptyValue", p["allowEmptyValue"]);
  return `{${parts.join(",")}}`;
}

/** A body schema here is a single reference: `{"$ref":…}`. */
function orderedJson(v: JsonValue): string {
  return isObject(v) && typeof v["$ref"] === "string" && Object.keys(v).length === 1 ? `{"$ref":${goJsonString(v["$ref"])}}` : goJsonMarshal(v);
}

/**
 * kube-openapi's `deduplicateParameters`: every parameter but `name`, `dryRun`, `fieldValidation` and a body
 * of the kind's own schema moves into the shared `parameters` section, named `<name>-<8 characters of base64url of
 * the FNV-1 hash of its JSON>`, and is referred to from the operations and paths.
 */
function shareParameter(p: JsonValue, shared: JsonObject): JsonValue {
  if (!isObject(p) || p["$ref"] !== undefined) return p;
  const name = typeof p["name"] === "string" ? p["name"] : "param";
  if ((p["in"] === "query" || p["in"] === "path") && name === "name") return p;
  if (p["in"] === "query" && (name === "fieldValidation" || name === "dryRun")) return p;
  const schema = p["schema"];
  if (p["in"] === "body" && name === "body" && isObject(schema) && !String(schema["$ref"] ?? "").startsWith("#/definitions/io.k8s.apimachinery")) return p;
  const hash = Buffer.alloc(8);
  hash.writeBigUInt64BE(fnv1Hash64(parameterJson(p)));
  const key = `${name}-${hash.subarray(0, 6).toString("base64url")}`;
  shared[key] = p;
  return { $ref: `#/parameters/${key}` };
}

/**
 * The Swagger 2.0 document: `builtin` (the real server's v2 document without CRDs: discovery and
 * apiextensions.k8s.io paths, shared parameters, built-in definitions) plus the custom resources' v3 documents
 * converted; `kinds` are the CRD kinds' own v2 definitions (built by the builder's v2 rules from their schemas),
 * used in place of a conversion of their v3 schemas. A definition the built-in part has stays as published.
 */
export function openApiV2(builtin: JsonObject, docs: readonly JsonObject[], serverVersion: string, kinds: ReadonlyMap<string, JsonObject> = new Map()): JsonObject {
  const paths: JsonObject = { ...(isObject(builtin["paths"]) ? builtin["paths"] : {}) };
  const definitions: JsonObject = { ...(isObject(builtin["definitions"]) ? builtin["definitions"] : {}) };
  const parameters: JsonObject = { ...(isObject(builtin["parameters"]) ? builtin["parameters"] : {}) };
  for (const doc of docs) {
    for (const [p, item] of Object.entries(isObject(doc["paths"]) ? doc["paths"] : {})) {
      if (!isObject(item)) continue;
      const out: JsonObject = {};
      for (const [verb, op] of Object.entries(item)) {
        if (verb === "parameters" && Array.isArray(op)) out[verb] = op.map(parameterV2);
        else if (isObject(op)) out[verb] = operationV2(op);
      }
      const rewritten = rewriteRefs(out) as JsonObject;
      for (const [verb, op] of Object.entries(rewritten)) {
        if (verb === "parameters" && Array.isArray(op)) rewritten[verb] = op.map((x) => shareParameter(x, parameters));
        else if (isObject(op) && Array.isArray(op["parameters"])) op["parameters"] = op["parameters"].map((x) => shareParameter(x, parameters));
      }
      paths[p] = rewritten;
    }
    const components = isObject(doc["components"]) ? doc["components"] : {};
    for (const [name, s] of Object.entries(isObject(components["schemas"]) ? components["schemas"] : {})) {
      const def = (kinds.get(name) ?? rewriteRefs(stripDefaults(toOpenApiV2Schema(s)))) as JsonObject;
      const seen = definitions[name];
      definitions[name] = isObject(seen) ? mergeGvks(seen, def) : def;
    }
  }
  const out: JsonObject = { swagger: "2.0", info: { title: "Generic API Server", version: serverVersion }, paths, definitions };
  if (Object.keys(parameters).length > 0) out["parameters"] = parameters;
  return out;
}

const GVK = "x-kubernetes-group-version-kind";

/**
 * A definition two documents share (meta.k8s.io's, in every one): the aggregated v2 document keeps one, with the
 * union of their group-version-kinds, sorted by group, version and kind.
 */
function mergeGvks(a: JsonObject, b: JsonObject): JsonObject {
  const x = a[GVK];
  const y = b[GVK];
  if (!Array.isArray(x) || !Array.isArray(y)) return a;
  const key = (g: JsonValue): string[] => (isObject(g) ? [String(g["group"] ?? ""), String(g["version"] ?? ""), String(g["kind"] ?? "")] : ["", "", ""]);
  const all = new Map<string, JsonValue>();
  for (const g of [...x, ...y]) all.set(key(g).join("\u0000"), g);
  const sorted = [...all.values()].sort((p, q) => {
    const [m, n] = [key(p), key(q)];
    for (let i = 0; i < 3; i++) if (m[i] !== n[i]) return compareGoStrings(m[i]!, n[i]!);
    return 0;
  });
  return { ...a, [GVK]: sorted };
}

/** The v2 documents leave out defaults (a converted schema, in place; property names are not keywords). */
export function stripDefaults(v: JsonValue): JsonValue {
  if (!isObject(v)) return v;
  delete v["default"];
  for (const k of ["properties", "patternProperties", "definitions"]) {
    const m = v[k];
    if (isObject(m)) for (const x of Object.values(m)) stripDefaults(x);
  }
  for (const k of ["items", "additionalProperties", "not", "additionalItems"]) stripDefaults(v[k] ?? null);
  for (const k of ["allOf", "anyOf", "oneOf"]) {
    const a = v[k];
    if (Array.isArray(a)) for (const x of a) stripDefaults(x);
  }
  return v;
}
