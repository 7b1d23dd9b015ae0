/**
 * Decoding of `JSONSchemaProps` (apiextensions.k8s.io/v1 `types_jsonschema.go` + `marshal.go`) from a JSON
 * value, with Go's type checks. `items`, `additionalProperties`, `additionalItems` and `dependencies` have
 * custom Go unmarshalers that call a plain (non-strict) `json.Unmarshal`: inside them the Go error field
 * path restarts and unknown fields are not reported — reproduced here.
 *
 * A CRD schema has tens of thousands of nodes, so a node is read field by field with plain property reads
 * (the JSONSchemaProps field names are not Object.prototype members), unknown fields are found against the
 * fixed set of field names, and paths are built only for an error or an unknown field.
 */
import type { JSONSchemaProps, ValidationRule } from "./types.js";
import { firstOutOfRangeLiteral, type JsonObject, type JsonValue, isObject, kindOf, setKey, toNumber } from "../value/json-value.js";
import { type DecodeContext, fieldLoc, indexLoc, keyLoc, Loc, MAX_JSON_DEPTH, resetGoLoc, StructReader } from "./decode-context.js";

const S = "JSONSchemaProps";

/**
 * The JSON names of JSONSchemaProps' fields: never unknown fields, `default: null` and `example: null`
 * included (a null into Go's *JSON leaves it unset; kube-apiserver accepts such a CRD with Strict field
 * validation).
 */
const FIELDS = new Set([
  "default", "example", "id", "$schema", "$ref", "description", "type", "format", "title", "maximum", "minimum", "multipleOf", "exclusiveMaximum",
  "exclusiveMinimum", "uniqueItems", "nullable", "x-kubernetes-embedded-resource", "x-kubernetes-int-or-string", "maxLength",
  "minLength", "maxItems", "minItems", "maxProperties", "minProperties", "pattern", "enum", "required", "items", "allOf", "oneOf",
  "anyOf", "not", "properties", "patternProperties", "definitions", "additionalProperties", "additionalItems", "dependencies",
  "externalDocs", "x-kubernetes-preserve-unknown-fields", "x-kubernetes-list-map-keys", "x-kubernetes-list-type",
  "x-kubernetes-map-type", "x-kubernetes-validations",
]);

/** A field of the node, undefined when absent or null. */
function field(v: JsonObject, key: string): JsonValue | undefined {
  const x = v[key];
  return x === null ? undefined : x;
}

/** Records `cannot unmarshal … into Go struct field JSONSchemaProps.<field>` for `key` of the node at `loc`. */
function typeError(ctx: DecodeContext, loc: Loc, key: string, x: JsonValue, goType: string): undefined {
  const at = fieldLoc(loc, key);
  ctx.typeError(S, at.go, x, goType, at);
  return undefined;
}

function stringField(ctx: DecodeContext, v: JsonObject, loc: Loc, key: string): string | undefined {
  const x = field(v, key);
  if (x === undefined || typeof x === "string") return x;
  return typeError(ctx, loc, key, x, "string");
}

function boolField(ctx: DecodeContext, v: JsonObject, loc: Loc, key: string): boolean | undefined {
  const x = field(v, key);
  if (x === undefined || typeof x === "boolean") return x;
  return typeError(ctx, loc, key, x, "bool");
}

/**
 * A `v1.JSON` field's value: kept raw by its unmarshaler, it is converted to Go values after decoding (the
 * conversion to the internal version), where a number beyond float64 fails.
 */
function jsonField(ctx: DecodeContext, x: JsonValue): JsonValue {
  const lit = firstOutOfRangeLiteral(x);
  if (lit !== undefined) ctx.conversionError(`json: cannot unmarshal number ${lit} into Go value of type float64`);
  return x;
}


function intField(ctx: DecodeContext, v: JsonObject, loc: Loc, key: string): number | undefined {
  const x = field(v, key);
  if (x === undefined) return undefined;
  if (kindOf(x) !== "integer") return typeError(ctx, loc, key, x, "int64");
  return Number(x);
}

function floatField(ctx: DecodeContext, v: JsonObject, loc: Loc, key: string): number | undefined {
  const x = field(v, key);
  if (x === undefined) return undefined;
  const k = kindOf(x);
  // (a number beyond float64 does not parse into one either)
  if ((k !== "integer" && k !== "number") || !Number.isFinite(toNumber(x as number))) return typeError(ctx, loc, key, x, "float64");
  return typeof x === "object" && x !== null && "value" in x ? (x as { value: number }).value : Number(x);
}

function arrayField(ctx: DecodeContext, v: JsonObject, loc: Loc, key: string, goType: string): JsonValue[] | undefined {
  const x = field(v, key);
  if (x === undefined || Array.isArray(x)) return x;
  return typeError(ctx, loc, key, x, goType);
}

function objectField(ctx: DecodeContext, v: JsonObject, loc: Loc, key: string, goType: string): JsonObject | undefined {
  const x = field(v, key);
  if (x === undefined || isObject(x)) return x;
  return typeError(ctx, loc, key, x, goType);
}

function stringArrayField(ctx: DecodeContext, v: JsonObject, loc: Loc, key: string): string[] | undefined {
  const x = field(v, key);
  if (x === undefined) return undefined;
  if (!Array.isArray(x)) return typeError(ctx, loc, key, x, "[]string");
  const out: string[] = [];
  for (const e of x) {
    if (e === null) out.push("");
    else if (typeof e !== "string") {
      typeError(ctx, loc, key, e, "string");
      out.push("");
    } else out.push(e);
  }
  return out;
}

/** A Go string field (not a pointer): the zero value is the same as unset, except for `$ref`. */
function setString(out: JSONSchemaProps, ctx: DecodeContext, v: JsonObject, loc: Loc, key: "id" | "$schema" | "description" | "type" | "format" | "title" | "pattern"): void {
  const x = stringField(ctx, v, loc, key);
  if (x !== undefined && x !== "") out[key] = x;
}

const FLOATS = ["maximum", "minimum", "multipleOf"] as const;
const BOOLS = ["exclusiveMaximum", "exclusiveMinimum", "uniqueItems", "nullable", "x-kubernetes-embedded-resource", "x-kubernetes-int-or-string"] as const;
const INTS = ["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"] as const;
const SCHEMA_LISTS = ["allOf", "oneOf", "anyOf"] as const;
const SCHEMA_MAPS = ["properties", "patternProperties", "definitions"] as const;

// Which fields a node has, one bit per field or group of fields (absent ones are not read).
const G_IDS = 1 << 0;
const G_DESCRIPTION = 1 << 1;
const G_TYPE = 1 << 2;
const G_FORMAT = 1 << 3;
const G_DEFAULT = 1 << 4;
const G_FLOATS = 1 << 5;
const G_BOOLS = 1 << 6;
const G_INTS = 1 << 7;
const G_PATTERN = 1 << 8;
const G_ENUM = 1 << 9;
const G_REQUIRED = 1 << 10;
const G_SUBSCHEMAS = 1 << 11;
const G_DOCS = 1 << 12;
const G_EXAMPLE = 1 << 13;
const G_EXTENSIONS = 1 << 14;

const GROUP = new Map<string, number>([
  ["id", G_IDS], ["$schema", G_IDS], ["$ref", G_IDS], ["title", G_IDS], ["description", G_DESCRIPTION], ["type", G_TYPE],
  ["format", G_FORMAT], ["default", G_DEFAULT], ["pattern", G_PATTERN], ["enum", G_ENUM], ["required", G_REQUIRED],
  ["externalDocs", G_DOCS], ["example", G_EXAMPLE],
  ...FLOATS.map((k) => [k, G_FLOATS] as const), ...BOOLS.map((k) => [k, G_BOOLS] as const), ...INTS.map((k) => [k, G_INTS] as const),
  ...["items", ...SCHEMA_LISTS, "not", ...SCHEMA_MAPS, "additionalProperties", "additionalItems", "dependencies"].map((k) => [k, G_SUBSCHEMAS] as const),
  ...["x-kubernetes-preserve-unknown-fields", "x-kubernetes-list-map-keys", "x-kubernetes-list-type", "x-kubernetes-map-type", "x-kubernetes-validations"].map(
    (k) => [k, G_EXTENSIONS] as const,
  ),
]);

/** Decodes one schema object. `strict` is false inside custom unmarshalers (no unknown-field reporting). */
export function decodeSchema(ctx: DecodeContext, v: JsonObject, loc: Loc, strict: boolean): JSONSchemaProps {
  const out: JSONSchemaProps = {};
  if (loc.depth > MAX_JSON_DEPTH) {
    ctx.tooDeep = true;
    return out;
  }
  // the fields present (in Go's field order below), and whether some key may be an unknown field
  let m = 0;
  let unknown = false;
  for (const k in v) {
    const g = GROUP.get(k);
    if (g === undefined) unknown = true;
    else m |= g;
  }
  if (m & G_IDS) {
    setString(out, ctx, v, loc, "id");
    setString(out, ctx, v, loc, "$schema");
    const ref = stringField(ctx, v, loc, "$ref");
    if (ref !== undefined) out.$ref = ref;
  }
  if (m & G_DESCRIPTION) setString(out, ctx, v, loc, "description");
  if (m & G_TYPE) setString(out, ctx, v, loc, "type");
  if (m & G_FORMAT) setString(out, ctx, v, loc, "format");
  if (m & G_IDS) setString(out, ctx, v, loc, "title");
  if (m & G_DEFAULT) {
    // `default: null` is JSON's null into a *JSON: left unset, not an unknown field (measured on kube-apiserver)
    const def = field(v, "default");
    if (def !== undefined) out.default = jsonField(ctx, def);
  }
  if (m & G_FLOATS) {
    for (const k of FLOATS) {
      const x = floatField(ctx, v, loc, k);
      if (x !== undefined) out[k] = x;
    }
  }
  if (m & G_BOOLS) {
    for (const k of BOOLS) {
      if (boolField(ctx, v, loc, k) === true) out[k] = true;
    }
  }
  if (m & G_INTS) {
    for (const k of INTS) {
      const x = intField(ctx, v, loc, k);
      if (x !== undefined) out[k] = x;
    }
  }
  if (m & G_PATTERN) setString(out, ctx, v, loc, "pattern");
  if (m & G_ENUM) {
    const en = arrayField(ctx, v, loc, "enum", "[]v1.JSON");
    if (en !== undefined) out.enum = en.map((e) => jsonField(ctx, e));
  }
  if (m & G_REQUIRED) {
    const req = stringArrayField(ctx, v, loc, "required");
    if (req !== undefined) out.required = req;
  }
  if (m & G_SUBSCHEMAS) decodeSubSchemas(ctx, v, loc, strict, out);
  if (m & G_DOCS) {
    const ed = objectField(ctx, v, loc, "externalDocs", "v1.ExternalDocumentation");
    if (ed !== undefined) {
      const er = new StructReader(ctx, ed, "ExternalDocumentation", fieldLoc(loc, "externalDocs"));
      const d: { description?: string; url?: string } = {};
      const desc = er.string("description");
      if (desc !== undefined) d.description = desc;
      const url = er.string("url");
      if (url !== undefined) d.url = url;
      if (strict) er.finish();
      out.externalDocs = d;
    }
  }
  if (m & G_EXAMPLE) {
    const example = field(v, "example");
    if (example !== undefined) out.example = jsonField(ctx, example);
  }
  if (m & G_EXTENSIONS) decodeExtensions(ctx, v, loc, strict, out);
  if (strict && unknown) {
    for (const k of Object.keys(v)) {
      if (FIELDS.has(k)) continue;
      ctx.unknownFields.push(fieldLoc(loc, k).strict);
    }
  }
  return out;
}

/** items, allOf/oneOf/anyOf, not, properties/patternProperties/definitions, additionalProperties/Items, dependencies. */
function decodeSubSchemas(ctx: DecodeContext, v: JsonObject, loc: Loc, strict: boolean, out: JSONSchemaProps): void {
  // items: JSONSchemaPropsOrArray (custom unmarshaler; null/other kinds → unset)
  const items = field(v, "items");
  if (items !== undefined && (isObject(items) || Array.isArray(items))) {
    const il = fieldLoc(loc, "items");
    const iloc = resetGoLoc(il, loc.depth + 1);
    ctx.nested(S, il, (inner) => {
      if (isObject(items)) out.items = decodeSchema(inner, items, iloc, false);
      else {
        const arr: JSONSchemaProps[] = [];
        items.forEach((x, i) => {
          if (x === null) arr.push({});
          else if (!isObject(x)) inner.typeError("", "", x, "v1.JSONSchemaProps");
          else arr.push(decodeSchema(inner, x, indexLoc(iloc, i), false));
        });
        if (arr.length > 0) out.items = arr;
      }
    });
  }
  for (const k of SCHEMA_LISTS) {
    const a = arrayField(ctx, v, loc, k, "[]v1.JSONSchemaProps");
    if (a === undefined) continue;
    const kl = fieldLoc(loc, k);
    const arr: JSONSchemaProps[] = [];
    a.forEach((x, i) => {
      if (x === null) arr.push({});
      else if (!isObject(x)) ctx.typeError(S, kl.go, x, "v1.JSONSchemaProps", indexLoc(kl, i));
      else arr.push(decodeSchema(ctx, x, indexLoc(kl, i), strict));
    });
    out[k] = arr;
  }
  const not = objectField(ctx, v, loc, "not", "v1.JSONSchemaProps");
  if (not !== undefined) out.not = decodeSchema(ctx, not, fieldLoc(loc, "not"), strict);
  for (const k of SCHEMA_MAPS) {
    const m = objectField(ctx, v, loc, k, "map[string]v1.JSONSchemaProps");
    if (m === undefined) continue;
    const kl = fieldLoc(loc, k);
    const rec: Record<string, JSONSchemaProps> = {};
    for (const name of Object.keys(m)) {
      const x = m[name]!;
      let val: JSONSchemaProps = {};
      if (x !== null) {
        if (!isObject(x)) ctx.typeError(S, kl.go, x, "v1.JSONSchemaProps", keyLoc(kl, name));
        else val = decodeSchema(ctx, x, keyLoc(kl, name), strict);
      }
      setKey(rec as unknown as JsonObject, name, val as unknown as JsonValue);
    }
    out[k] = rec;
  }
  for (const k of ["additionalProperties", "additionalItems"] as const) {
    const x = field(v, k);
    if (x === undefined) continue;
    if (isObject(x)) {
      const kl = fieldLoc(loc, k);
      out[k] = ctx.nested(S, kl, (inner) => decodeSchema(inner, x, resetGoLoc(kl, loc.depth + 1), false));
    } else if (typeof x === "boolean") out[k] = x;
    else ctx.immediateError("boolean or JSON schema expected");
  }
  const deps = objectField(ctx, v, loc, "dependencies", "v1.JSONSchemaDependencies");
  if (deps !== undefined) {
    const dl = fieldLoc(loc, "dependencies");
    const rec: Record<string, JSONSchemaProps | string[]> = {};
    for (const name of Object.keys(deps)) {
      const x = deps[name]!;
      let val: JSONSchemaProps | string[] = [];
      if (isObject(x)) val = ctx.nested(S, dl, (inner) => decodeSchema(inner, x, Loc.root(loc.depth + 2), false));
      else if (Array.isArray(x)) {
        const arr: string[] = [];
        ctx.nested(S, dl, (inner) => {
          for (const e of x) {
            if (typeof e === "string") arr.push(e);
            else inner.typeError("", "", e, "string");
          }
        });
        val = arr;
      }
      setKey(rec as unknown as JsonObject, name, val as unknown as JsonValue);
    }
    out.dependencies = rec;
  }
}

/** The x-kubernetes-* fields: preserve-unknown-fields, list and map types, validation rules. */
function decodeExtensions(ctx: DecodeContext, v: JsonObject, loc: Loc, strict: boolean, out: JSONSchemaProps): void {
  const pu = boolField(ctx, v, loc, "x-kubernetes-preserve-unknown-fields");
  if (pu !== undefined) out["x-kubernetes-preserve-unknown-fields"] = pu;
  const lmk = stringArrayField(ctx, v, loc, "x-kubernetes-list-map-keys");
  if (lmk !== undefined) out["x-kubernetes-list-map-keys"] = lmk;
  const lt = stringField(ctx, v, loc, "x-kubernetes-list-type");
  if (lt !== undefined) out["x-kubernetes-list-type"] = lt;
  const mt = stringField(ctx, v, loc, "x-kubernetes-map-type");
  if (mt !== undefined) out["x-kubernetes-map-type"] = mt;
  const xv = arrayField(ctx, v, loc, "x-kubernetes-validations", "v1.ValidationRules");
  if (xv !== undefined) {
    const vl = fieldLoc(loc, "x-kubernetes-validations");
    const rules: ValidationRule[] = [];
    xv.forEach((x, i) => {
      if (x === null) {
        rules.push({ rule: "" });
        return;
      }
      if (!isObject(x)) {
        ctx.typeError(S, vl.go, x, "v1.ValidationRule", indexLoc(vl, i));
        return;
      }
      const rr = new StructReader(ctx, x, "ValidationRule", indexLoc(vl, i));
      const rule: ValidationRule = { rule: rr.string("rule") ?? "" };
      const m = rr.string("message");
      if (m) rule.message = m;
      const me = rr.string("messageExpression");
      if (me) rule.messageExpression = me;
      const re = rr.string("reason");
      if (re !== undefined) rule.reason = re;
      const fp = rr.string("fieldPath");
      if (fp) rule.fieldPath = fp;
      const oos = rr.bool("optionalOldSelf");
      if (oos !== undefined) rule.optionalOldSelf = oos;
      if (strict) rr.finish();
      rules.push(rule);
    });
    out["x-kubernetes-validations"] = rules;
  }
}
