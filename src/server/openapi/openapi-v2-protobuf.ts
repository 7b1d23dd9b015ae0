/**
 * `/openapi/v2` in protobuf (`application/com.github.proto-openapi.spec.v2.v1.0+protobuf`): the Swagger 2.0
 * JSON document, as Go's `json.Marshal` writes it (keys sorted), turned by kube-openapi's `ToProtoBinary`
 * into gnostic's `openapi_v2.Document`
 * (`ParseDocument`, then `proto.Marshal`): maps as lists of named entries in document order, `x-` keys as
 * vendor extensions whose values (like `enum`, `default`, `example`) are kept as go-yaml v3 text, `type` as a
 * TypeItem, `items` as an ItemsItem, `additionalProperties` as a schema or a boolean, parameters and
 * responses as the oneof member their shape selects. Zero scalars are left out, as proto3 does.
 */
import protobuf from "protobufjs";
import { compareGoStrings } from "../../go/fmt.js";
import { goYamlV3NodeMarshal } from "../../go/yaml-v3-node.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { OPENAPI_V2_PROTO } from "./openapi-v2-proto-schema.js";

/** The parsed `openapi.v2` package (field names as in the .proto). */
export const openApiV2Proto: protobuf.Root = protobuf.parse(OPENAPI_V2_PROTO, { keepCase: true }).root;
openApiV2Proto.resolveAll();

type Msg = { [field: string]: unknown };

const PATH_KEY = /^\//;
const RESPONSE_CODE_KEY = /^([0-9]{3})$|^(default)$/;

/** The JSON key of a message field: `_ref` is `$ref`, snake_case is camelCase. */
export function jsonKeyOf(field: string): string {
  return field === "_ref" ? "$ref" : field.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** An object's entries in the order of its JSON text (Go's `json.Marshal` sorts map keys). */
const entries = (v: JsonValue): [string, JsonValue][] => (isObject(v) ? Object.entries(v).sort(([a], [b]) => compareGoStrings(a, b)) : []);

/** Named entries of a JSON object whose keys match `key`, values converted to `valueType`. */
function named(type: protobuf.Type, v: JsonValue, key: (k: string) => boolean): Msg[] {
  const valueField = type.fields["value"]!;
  return entries(v)
    .filter(([k]) => key(k))
    .map(([k, x]) => ({ name: k, value: valueField.resolvedType ? toMessage(valueField.resolvedType as protobuf.Type, x) : x }));
}

/** A sequence node read as a mapping (gnostic's `UnpackMap` accepts any node): elements as key/value pairs. */
function pairsOf(list: JsonValue[]): JsonObject {
  const out: JsonObject = {};
  for (let i = 0; i + 1 < list.length; i += 2) {
    const k = list[i]!;
    const key = typeof k === "string" ? k : Array.isArray(k) || isObject(k) ? "" : String(k);
    if (!(key in out)) out[key] = list[i + 1]!;
  }
  return out;
}

function extensions(v: JsonValue): Msg[] {
  return named(openApiV2Proto.lookupType("openapi.v2.NamedAny"), v, (k) => k.startsWith("x-"));
}

/** The oneof member a value parses as, as gnostic's `New…` constructors select it. */
function oneofMember(typeName: string, v: JsonObject): string | undefined {
  switch (typeName) {
    case "ParametersItem":
    case "ResponseValue":
      return typeof v["$ref"] === "string" ? "json_reference" : typeName === "ParametersItem" ? "parameter" : "response";
    case "Parameter":
      return v["in"] === "body" ? "body_parameter" : "non_body_parameter";
    case "NonBodyParameter":
      return { header: "header_parameter_sub_schema", formData: "form_data_parameter_sub_schema", query: "query_parameter_sub_schema", path: "path_parameter_sub_schema" }[String(v["in"])];
    case "SchemaItem":
      return v["type"] === "file" ? "file_schema" : "schema";
    default:
      return undefined;
  }
}

function fieldValue(field: protobuf.Field, x: JsonValue): unknown {
  const t = field.resolvedType;
  if (field.repeated) {
    if (!Array.isArray(x)) return undefined;
    const list = t instanceof protobuf.Type ? x.map((e) => toMessage(t, e)) : x.filter((e) => typeof e === "string");
    return list.length > 0 ? list : undefined;
  }
  if (t instanceof protobuf.Type) return toMessage(t, x);
  switch (field.type) {
    case "string":
      return typeof x === "string" && x !== "" ? x : undefined;
    case "bool":
      return x === true ? true : undefined;
    default:
      return typeof x === "number" && x !== 0 ? x : undefined;
  }
}

/** A JSON value as the message of type `type`, as gnostic reads it. */
function toMessage(type: protobuf.Type, v: JsonValue): Msg {
  switch (type.name) {
    case "Any":
      return { yaml: goYamlV3NodeMarshal(v, compareGoStrings) };
    case "TypeItem":
      return { value: typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((e) => typeof e === "string") : [] };
    case "ItemsItem": {
      const schema = openApiV2Proto.lookupType("openapi.v2.Schema");
      // gnostic reads any node as a map (an array's elements as key/value pairs): one schema, always.
      return { schema: [toMessage(schema, Array.isArray(v) ? pairsOf(v) : v)] };
    }
    case "AdditionalPropertiesItem":
      return typeof v === "boolean" ? { boolean: v } : { schema: toMessage(openApiV2Proto.lookupType("openapi.v2.Schema"), v) };
    case "Paths":
      return { vendor_extension: extensions(v), path: named(openApiV2Proto.lookupType("openapi.v2.NamedPathItem"), v, (k) => PATH_KEY.test(k)) };
    case "Responses":
      return {
        response_code: named(openApiV2Proto.lookupType("openapi.v2.NamedResponseValue"), v, (k) => RESPONSE_CODE_KEY.test(k)),
        vendor_extension: extensions(v),
      };
  }
  const fields = type.fieldsArray;
  // A map of names to values (Definitions, Properties, Headers, Examples, …).
  if (fields.length === 1 && fields[0]!.name === "additional_properties") {
    return { additional_properties: named(fields[0]!.resolvedType as protobuf.Type, v, () => true) };
  }
  if (!isObject(v)) return {};
  const member = oneofMember(type.name, v);
  if (type.oneofsArray.length > 0) {
    const f = member === undefined ? undefined : type.fields[member];
    return f ? { [f.name]: toMessage(f.resolvedType as protobuf.Type, v) } : {};
  }
  const out: Msg = {};
  for (const field of fields) {
    if (field.name === "vendor_extension") {
      const ext = extensions(v);
      if (ext.length > 0) out[field.name] = ext;
      continue;
    }
    const x = v[jsonKeyOf(field.name)];
    if (x === undefined) continue;
    const value = fieldValue(field, x);
    if (value !== undefined) out[field.name] = value;
  }
  return out;
}

/** The Swagger 2.0 document as gnostic's `openapi_v2.Document` in protobuf. */
export function openApiV2Protobuf(doc: JsonObject): Uint8Array {
  const type = openApiV2Proto.lookupType("openapi.v2.Document");
  return type.encode(type.fromObject(toMessage(type, doc))).finish();
}
