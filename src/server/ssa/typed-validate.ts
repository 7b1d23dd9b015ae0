/**
 * smd's validation of an applied configuration against its type (`typed.AsTyped` in
 * `ObjectToTyped(patchObj)`, duplicates not allowed): scalars of the wrong kind, a map or list where
 * the type wants the other, duplicate keys of associative lists and sets. The messages are smd's
 * (`.spec.replicas: expected numeric (int or float), got string`, `.spec.ports: duplicate entries for key
 * [port=1]`, `.spec.x: field not declared in schema`); several are listed under `errors:` as ValidationErrors.Error does.
 */
import { Float64, isObject, type JsonValue } from "../../value/json-value.js";
import { goSharpSprint, goSprint } from "../../go/fmt.js";
import { pathString, serializePE, type PathElement } from "./fieldset.js";
import { fieldType, resolve, type TypeNode } from "./type-schema.js";
import { listItemPE } from "./typed.js";

/** Go's `%T` of a decoded unstructured value. */
function goTypeName(v: JsonValue): string {
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int64" : "float64";
  if (typeof v === "bigint") return "int64";
  if (v instanceof Float64) return "float64";
  if (Array.isArray(v)) return "[]interface {}";
  return "map[string]interface {}";
}

interface VError {
  path: string;
  message: string;
}

function scalarError(t: Extract<TypeNode, { kind: "scalar" }>, v: JsonValue): string | undefined {
  if (v === null) return undefined;
  const isNum = typeof v === "number" || typeof v === "bigint" || v instanceof Float64;
  switch (t.scalar) {
    case "numeric":
      return isNum ? undefined : `expected numeric (int or float), got ${goTypeName(v)}`;
    case "string":
      return typeof v === "string" ? undefined : `expected string, got &value.valueUnstructured{Value:${goSharpSprint(v)}}`;
    case "boolean":
      return typeof v === "boolean" ? undefined : `expected boolean, got &{${goSprint(v)}}`;
    case "untyped":
      return isNum || typeof v === "string" || typeof v === "boolean" ? undefined : `expected any scalar, got &{${goSprint(v)}}`;
    default:
      return undefined;
  }
}

function walk(v: JsonValue, t: TypeNode, path: PathElement[], out: VError[], allowDuplicates = false): void {
  const rt = resolve(t, v);
  const at = () => pathString(path);
  if (rt.kind === "deduced") return;
  if (rt.kind === "scalar") {
    const m = scalarError(rt, v);
    if (m) out.push({ path: at(), message: m });
    return;
  }
  if (rt.kind === "map") {
    if (v === null) return;
    if (!isObject(v)) {
      out.push({ path: at(), message: `expected map, got &{${goSprint(v)}}` });
      return;
    }
    for (const k of Object.keys(v).sort()) {
      const pe: PathElement = { kind: "f", name: k };
      if ((rt.closed === true || rt.elem === undefined) && !rt.fields.has(k)) {
        // smd stops walking a map at its first field the type has not.
        out.push({ path: pathString([...path, pe]), message: "field not declared in schema" });
        return;
      }
      walk(v[k]!, fieldType(rt, k), [...path, pe], out, allowDuplicates);
    }
    return;
  }
  if (v === null) return;
  if (!Array.isArray(v)) {
    out.push({ path: at(), message: `expected list, got &{${goSprint(v)}}` });
    return;
  }
  const seen = new Set<string>();
  for (const [i, item] of v.entries()) {
    const bad = itemError(rt, item);
    if (bad !== undefined) {
      // smd cannot build the item's path element: it reports it and stops walking the list.
      out.push({ path: at(), message: `element ${i}: ${bad}` });
      return;
    }
    const pe: PathElement = rt.rel === "atomic" ? { kind: "i", index: i } : listItemPE(rt, item, i);
    if (rt.rel !== "atomic" && !allowDuplicates) {
      const key = serializePE(pe);
      if (seen.has(key)) out.push({ path: at(), message: `duplicate entries for key ${pathString([pe])}` });
      seen.add(key);
    }
    walk(item, rt.elem, [...path, pe], out, allowDuplicates);
  }
}

/** `keyedAssociativeListItemToPathElement` / `setItemToPathElement` errors for one item. */
function itemError(t: Extract<TypeNode, { kind: "list" }>, item: JsonValue): string | undefined {
  if (t.rel === "map" && t.keys.length > 0) {
    if (item === null) return "associative list with keys may not have a null element";
    if (!isObject(item)) return "associative list with keys may not have non-map elements";
    if (!t.keys.some((k) => Object.hasOwn(item, k) || (t.keyDefaults !== undefined && Object.hasOwn(t.keyDefaults, k)))) {
      return `associative list with keys has an element that omits all key fields [${t.keys.map((k) => JSON.stringify(k)).join(" ")}] (and doesn't have default values for any key fields)`;
    }
  }
  if (t.rel === "set") {
    if (isObject(item)) return "associative list without keys has an element that's a map type";
    if (Array.isArray(item)) return "not supported: associative list with lists as elements";
    if (item === null) return "associative list without keys has an element that's an explicit null";
  }
  return undefined;
}

/** The validation errors' text, or undefined when the configuration fits its type. */
export function appliedTypeErrors(config: JsonValue, t: TypeNode): string | undefined {
  const out: VError[] = [];
  walk(config, t, [], out);
  if (out.length === 0) return undefined;
  const text = (e: VError) => (e.path === "" ? e.message : `${e.path}: ${e.message}`);
  if (out.length === 1) return text(out[0]!);
  return ["errors:", ...out.map((e) => `  ${text(e)}`)].join("\n");
}

/**
 * Whether `v` fails smd's typed conversion with duplicates allowed (`ObjectToTyped(obj, AllowDuplicates)`, as
 * the field manager of an update or create types the object).
 */
export function failsTypedConversion(v: JsonValue, t: TypeNode): boolean {
  const out: VError[] = [];
  walk(v, t, [], out, true);
  return out.length > 0;
}
