/**
 * `/openapi/v2`: one Swagger 2.0 document for every served group version, derived from the v3 documents
 * with Kubernetes' lossy v3→v2 schema conversion (apiextensions `controller/openapi/v2.ToStructuralOpenAPIV2`):
 * allOf/anyOf/oneOf/not dropped, a nullable schema loses its type, items and properties, a schema that
 * preserves unknown fields loses items and properties (and `type: object`), an array without items loses its
 * type, and nullable properties leave `required`.
 */
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
    params.unshift({ in: "body", name: "body", required: true, schema: isObject(first) ? (first["schema"] ?? {}) : {} });
    out["consumes"] = types;
  } else out["consumes"] = PRODUCES;
  out["parameters"] = params;
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

/** The Swagger 2.0 document of the given v3 documents. */
export function openApiV2(docs: readonly JsonObject[], serverVersion: string): JsonObject {
  const paths: JsonObject = {};
  const definitions: JsonObject = {};
  for (const doc of docs) {
    for (const [p, item] of Object.entries(isObject(doc["paths"]) ? doc["paths"] : {})) {
      if (!isObject(item)) continue;
      const out: JsonObject = {};
      for (const [verb, op] of Object.entries(item)) {
        if (verb === "parameters" && Array.isArray(op)) out[verb] = op.map(parameterV2);
        else if (isObject(op)) out[verb] = operationV2(op);
      }
      paths[p] = rewriteRefs(out);
    }
    const components = isObject(doc["components"]) ? doc["components"] : {};
    for (const [name, s] of Object.entries(isObject(components["schemas"]) ? components["schemas"] : {})) {
      definitions[name] = rewriteRefs(toOpenApiV2Schema(s));
    }
  }
  return { swagger: "2.0", info: { title: "Generic API Server", version: serverVersion }, paths, definitions };
}
