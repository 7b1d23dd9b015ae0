/**
 * Decoding of `JSONSchemaProps` (apiextensions.k8s.io/v1 `types_jsonschema.go` + `marshal.go`) from a JSON
 * value, with Go's type checks. `items`, `additionalProperties`, `additionalItems` and `dependencies` have
 * custom Go unmarshalers that call a plain (non-strict) `json.Unmarshal`: inside them the Go error field
 * path restarts and unknown fields are not reported — reproduced here.
 */
import type { JSONSchemaProps, ValidationRule } from "./types.js";
import { type JsonObject, type JsonValue, isObject, setKey } from "../value/json-value.js";
import { type DecodeContext, fieldLoc, indexLoc, keyLoc, type Loc, MAX_JSON_DEPTH, StructReader } from "./decode-context.js";

const S = "JSONSchemaProps";

/** Decodes one schema object. `strict` is false inside custom unmarshalers (no unknown-field reporting). */
export function decodeSchema(ctx: DecodeContext, v: JsonObject, loc: Loc, strict: boolean): JSONSchemaProps {
  const out: JSONSchemaProps = {};
  if (loc.depth > MAX_JSON_DEPTH) {
    ctx.tooDeep = true;
    return out;
  }
  const r = new StructReader(ctx, v, S, loc);
  // Go string and bool fields (not pointers): the zero value is the same as unset.
  const str = (k: "id" | "$schema" | "$ref" | "description" | "type" | "format" | "title" | "pattern") => {
    const x = r.string(k);
    if (x !== undefined && (x !== "" || k === "$ref")) out[k] = x;
  };
  str("id");
  str("$schema");
  str("$ref");
  str("description");
  str("type");
  str("format");
  str("title");
  if (r.has("default")) out.default = r.raw("default")!;
  for (const k of ["maximum", "minimum", "multipleOf"] as const) {
    const x = r.float(k);
    if (x !== undefined) out[k] = x;
  }
  for (const k of ["exclusiveMaximum", "exclusiveMinimum", "uniqueItems", "nullable", "x-kubernetes-embedded-resource", "x-kubernetes-int-or-string"] as const) {
    const x = r.bool(k);
    if (x === true) out[k] = x;
  }
  for (const k of ["maxLength", "minLength", "maxItems", "minItems", "maxProperties", "minProperties"] as const) {
    const x = r.int(k);
    if (x !== undefined) out[k] = x;
  }
  str("pattern");
  const en = r.array("enum", "[]v1.JSON");
  if (en !== undefined) out.enum = en.slice();
  const req = r.stringArray("required");
  if (req !== undefined) out.required = req;
  // items: JSONSchemaPropsOrArray (custom unmarshaler; null/other kinds → unset)
  const items = r.raw("items");
  if (items !== undefined && (isObject(items) || Array.isArray(items))) {
    const il = fieldLoc(loc, "items");
    const iloc: Loc = { go: "", strict: il.strict, depth: loc.depth + 1 };
    ctx.nested(S, il.go, (inner) => {
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
  for (const k of ["allOf", "oneOf", "anyOf"] as const) {
    const a = r.array(k, "[]v1.JSONSchemaProps");
    if (a === undefined) continue;
    const kl = fieldLoc(loc, k);
    const arr: JSONSchemaProps[] = [];
    a.forEach((x, i) => {
      if (x === null) arr.push({});
      else if (!isObject(x)) ctx.typeError(S, kl.go, x, "v1.JSONSchemaProps");
      else arr.push(decodeSchema(ctx, x, strict ? indexLoc(kl, i) : { ...indexLoc(kl, i) }, strict));
    });
    out[k] = arr;
  }
  const not = r.object("not", "v1.JSONSchemaProps");
  if (not !== undefined) out.not = decodeSchema(ctx, not, fieldLoc(loc, "not"), strict);
  for (const k of ["properties", "patternProperties", "definitions"] as const) {
    const m = r.object(k, "map[string]v1.JSONSchemaProps");
    if (m === undefined) continue;
    const kl = fieldLoc(loc, k);
    const rec: Record<string, JSONSchemaProps> = {};
    for (const name of Object.keys(m)) {
      const x = m[name]!;
      const nl = keyLoc(kl, name);
      let val: JSONSchemaProps = {};
      if (x !== null) {
        if (!isObject(x)) ctx.typeError(S, nl.go, x, "v1.JSONSchemaProps");
        else val = decodeSchema(ctx, x, nl, strict);
      }
      setKey(rec as unknown as JsonObject, name, val as unknown as JsonValue);
    }
    out[k] = rec;
  }
  for (const k of ["additionalProperties", "additionalItems"] as const) {
    const x = r.raw(k);
    if (x === undefined) continue;
    const kl = fieldLoc(loc, k);
    if (isObject(x)) {
      const sub = ctx.nested(S, kl.go, (inner) => decodeSchema(inner, x, { go: "", strict: kl.strict, depth: loc.depth + 1 }, false));
      out[k] = sub;
    } else if (typeof x === "boolean") out[k] = x;
    else ctx.immediateError("boolean or JSON schema expected");
  }
  const deps = r.object("dependencies", "v1.JSONSchemaDependencies");
  if (deps !== undefined) {
    const dl = fieldLoc(loc, "dependencies");
    const rec: Record<string, JSONSchemaProps | string[]> = {};
    for (const name of Object.keys(deps)) {
      const x = deps[name]!;
      let val: JSONSchemaProps | string[] = [];
      if (isObject(x)) val = ctx.nested(S, dl.go, (inner) => decodeSchema(inner, x, { go: "", strict: "", depth: loc.depth + 2 }, false));
      else if (Array.isArray(x)) {
        const arr: string[] = [];
        ctx.nested(S, dl.go, (inner) => {
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
  const ed = r.object("externalDocs", "v1.ExternalDocumentation");
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
  if (r.has("example")) out.example = r.raw("example")!;
  const pu = r.bool("x-kubernetes-preserve-unknown-fields");
  if (pu !== undefined) out["x-kubernetes-preserve-unknown-fields"] = pu;
  const lmk = r.stringArray("x-kubernetes-list-map-keys");
  if (lmk !== undefined) out["x-kubernetes-list-map-keys"] = lmk;
  const lt = r.string("x-kubernetes-list-type");
  if (lt !== undefined) out["x-kubernetes-list-type"] = lt;
  const mt = r.string("x-kubernetes-map-type");
  if (mt !== undefined) out["x-kubernetes-map-type"] = mt;
  const xv = r.array("x-kubernetes-validations", "v1.ValidationRules");
  if (xv !== undefined) {
    const vl = fieldLoc(loc, "x-kubernetes-validations");
    const rules: ValidationRule[] = [];
    xv.forEach((x, i) => {
      if (x === null) {
        rules.push({ rule: "" });
        return;
      }
      if (!isObject(x)) {
        ctx.typeError(S, vl.go, x, "v1.ValidationRule");
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
  if (strict) r.finish();
  return out;
}

