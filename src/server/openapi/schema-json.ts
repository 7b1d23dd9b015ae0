/**
 * The JSON text of an OpenAPI schema as kube-openapi's `spec.Schema` marshals it: the fields of `SchemaProps`,
 * then `SwaggerSchemaProps`, in their struct order (empty ones left out as `omitempty` does), then the vendor
 * extensions in sorted order; values (`default`, `enum`, `example`, extensions) as `encoding/json` writes them.
 * The bytes matter: a group version document's hash in the `/openapi/v3` index is SHA-512 of its text.
 */
import { goJsonFloat, goJsonMarshal, goJsonString } from "../../go/json.js";
import { compareGoStrings } from "../../go/fmt.js";
import { Float64, isObject, type JsonObject, type JsonValue, toNumber } from "../../value/json-value.js";

type Kind = "string" | "type" | "bool" | "float" | "int" | "value" | "list" | "strings" | "schema" | "schemas" | "schemaMap" | "schemaOrBool" | "docs";

/** `SchemaProps` then `SwaggerSchemaProps` fields, in struct order, with how each is written. */
const FIELDS: [string, Kind][] = [
  ["id", "string"],
  ["description", "string"],
  ["type", "type"],
  ["nullable", "bool"],
  ["format", "string"],
  ["title", "string"],
  ["default", "value"],
  ["maximum", "float"],
  ["exclusiveMaximum", "bool"],
  ["minimum", "float"],
  ["exclusiveMinimum", "bool"],
  ["maxLength", "int"],
  ["minLength", "int"],
  ["pattern", "string"],
  ["maxItems", "int"],
  ["minItems", "int"],
  ["uniqueItems", "bool"],
  ["multipleOf", "float"],
  ["enum", "list"],
  ["maxProperties", "int"],
  ["minProperties", "int"],
  ["required", "strings"],
  ["items", "schema"],
  ["allOf", "schemas"],
  ["oneOf", "schemas"],
  ["anyOf", "schemas"],
  ["not", "schema"],
  ["properties", "schemaMap"],
  ["additionalProperties", "schemaOrBool"],
  ["patternProperties", "schemaMap"],
  ["dependencies", "value"],
  ["additionalItems", "schemaOrBool"],
  ["definitions", "schemaMap"],
  ["discriminator", "string"],
  ["readOnly", "bool"],
  ["externalDocs", "docs"],
  ["example", "value"],
];
const KNOWN = new Set(FIELDS.map(([k]) => k));

/** `x-kubernetes-validations` entries: `apiextensions.ValidationRule` in struct order. */
const RULE_FIELDS = ["rule", "message", "messageExpression", "reason", "fieldPath", "optionalOldSelf"];

function field(kind: Kind, v: JsonValue): string | undefined {
  switch (kind) {
    case "string":
      return typeof v === "string" && v !== "" ? goJsonString(v) : undefined;
    case "type":
      if (typeof v === "string") return v === "" ? undefined : goJsonString(v);
      return Array.isArray(v) && v.length > 0 ? goJsonMarshal(v) : undefined;
    case "bool":
      return v === true ? "true" : undefined;
    case "float":
      return typeof v === "number" || typeof v === "bigint" || v instanceof Float64 ? goJsonFloat(toNumber(v)) : undefined;
    case "int":
      return v === null ? undefined : goJsonMarshal(v);
    case "value":
      return v === null ? undefined : goJsonMarshal(v);
    case "strings":
    case "list":
      return Array.isArray(v) && v.length > 0 ? goJsonMarshal(v) : undefined;
    case "schema":
      return isObject(v) ? schemaJson(v) : undefined;
    case "schemas":
      return Array.isArray(v) && v.length > 0 ? `[${v.map((s) => schemaJson(s)).join(",")}]` : undefined;
    case "schemaMap":
      return isObject(v) && Object.keys(v).length > 0 ? objectJson(v, schemaJson) : undefined;
    case "schemaOrBool":
      return typeof v === "boolean" ? String(v) : isObject(v) ? schemaJson(v) : undefined;
    case "docs": {
      if (!isObject(v)) return undefined;
      const parts: string[] = [];
      for (const k of ["description", "url"]) if (typeof v[k] === "string" && v[k] !== "") parts.push(`"${k}":${goJsonString(v[k] as string)}`);
      return `{${parts.join(",")}}`;
    }
  }
}

/** An object with sorted keys (a Go map), each value written by `write`. */
export function objectJson(o: JsonObject, write: (v: JsonValue) => string): string {
  const keys = Object.keys(o).sort(compareGoStrings);
  return `{${keys.map((k) => `${goJsonString(k)}:${write(o[k]!)}`).join(",")}}`;
}

function extensionJson(key: string, v: JsonValue): string {
  if (key === "x-kubernetes-validations" && Array.isArray(v)) {
    return `[${v
      .map((r) => {
        if (!isObject(r)) return goJsonMarshal(r);
        const parts: string[] = [];
        for (const k of RULE_FIELDS) {
          const x = r[k];
          // optionalOldSelf and reason are pointers: written whenever set; the strings are omitempty.
          if (x === undefined || x === null || (x === "" && k !== "reason")) continue;
          parts.push(`"${k}":${goJsonMarshal(x)}`);
        }
        return `{${parts.join(",")}}`;
      })
      .join(",")}]`;
  }
  return goJsonMarshal(v);
}

/** Boolean extensions Structural keeps only when true. */
const TRUE_ONLY = new Set(["x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource", "x-kubernetes-int-or-string"]);

/** The schema's JSON text in kube-openapi's field order; `$ref` (our own references) alone as `spec.Ref` writes it. */
export function schemaJson(s: JsonValue): string {
  if (!isObject(s)) return goJsonMarshal(s);
  const parts: string[] = [];
  for (const [k, kind] of FIELDS) {
    const v = s[k];
    if (v === undefined) continue;
    const text = field(kind, v);
    if (text !== undefined) parts.push(`"${k}":${text}`);
  }
  if (typeof s["$ref"] === "string") parts.push(`"$ref":${goJsonString(s["$ref"])}`);
  const ext = Object.keys(s)
    .filter((k) => !KNOWN.has(k) && k !== "$ref" && k.toLowerCase().startsWith("x-") && !(TRUE_ONLY.has(k) && s[k] !== true))
    .sort(compareGoStrings);
  for (const k of ext) parts.push(`${goJsonString(k)}:${extensionJson(k, s[k]!)}`);
  return `{${parts.join(",")}}`;
}
