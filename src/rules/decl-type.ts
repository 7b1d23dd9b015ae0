/**
 * Structural schema → CEL declaration types (apiserver `pkg/cel/common/schemas.go SchemaDeclType` and
 * `pkg/cel/types.go DeclType`): the CEL type of `self`, and the size estimates (MaxElements,
 * MinSerializedSize) the cost estimator uses.
 */
import {
  BoolType,
  BytesType,
  type CheckedType,
  DoubleType,
  DurationType,
  DynType,
  IntType,
  listType,
  mapType,
  StringType,
  structType,
  TimestampType,
} from "../cel/index.js";
import type { Structural } from "../structural/structural.js";
import { escapeProperty } from "./escaping.js";

/** `celconfig.MaxRequestSizeBytes`. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;
const MAX_DURATION_SIZE_JSON = 32;
const JSON_DATE_SIZE = 12;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

/** A field of an object DeclType. */
export interface DeclField {
  /** The property name in the data. */
  readonly property: string;
  readonly type: DeclType;
  readonly required: boolean;
}

/** Kubernetes' `DeclType`: a CEL type plus size information, mirroring a schema node. */
export interface DeclType {
  /** `object`, `map`, `list`, or a simple type (`string`, `int`, `double`, `bool`, `bytes`, `duration`, `timestamp`, `dyn`). */
  readonly kind: "object" | "map" | "list" | "string" | "int" | "double" | "bool" | "bytes" | "duration" | "timestamp" | "dyn";
  /** Object type name after {@link assignTypeNames} (`selfType1.spec`), or `object`. */
  name: string;
  /** Object fields by CEL (escaped) name. */
  readonly fields?: Map<string, DeclField>;
  /**
   * An object's property type by property name: `fields.get(escapeProperty(name))?.type` for a name that
   * escapes, without building the types of the other fields.
   */
  propertyType?(name: string): DeclType | undefined;
  readonly elem?: DeclType;
  /** Max list items / map properties / string length (bytes) estimate. */
  readonly maxElements: number;
  readonly minSerializedSize: number;
  /** The schema node this type was derived from (after WithTypeAndObjectMeta at resource roots). */
  readonly schema: Structural;
}

const zeroIfNegative = (v: number): number => Math.max(v, 0);

function maxStringLengthPerRequest(s: Structural): number {
  if (s.xIntOrString) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.valueValidation?.format) {
    case "duration":
      return MAX_DURATION_SIZE_JSON;
    case "date":
      return JSON_DATE_SIZE;
    case "date-time":
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

function maxStringEnumLength(s: Structural): number {
  let max = 0;
  for (const v of s.valueValidation?.enum ?? []) {
    if (typeof v === "string") {
      const n = new TextEncoder().encode(v).length;
      if (n > max) max = n;
    }
  }
  return max;
}

const stringSchema = (): Structural => ({ type: "string", hasDefault: false, nullable: false, xPreserveUnknownFields: false, xEmbeddedResource: false, xIntOrString: false, raw: { type: "string" } });

/** {@link withTypeAndObjectMeta}'s results (schemas are not changed once built; every object of a kind asks again). */
const withMeta = new WeakMap<Structural, Structural>();

/** `WithTypeAndObjectMeta`: adds `kind`, `apiVersion` and `metadata{name, generateName}` unless all are declared. */
export function withTypeAndObjectMeta(s: Structural): Structural {
  let r = withMeta.get(s);
  if (r === undefined) {
    r = addTypeAndObjectMeta(s);
    withMeta.set(s, r);
  }
  return r;
}

function addTypeAndObjectMeta(s: Structural): Structural {
  const p = s.properties;
  const md = p?.get("metadata");
  if (
    p &&
    p.get("kind")?.type === "string" &&
    p.get("apiVersion")?.type === "string" &&
    md?.type === "object" &&
    md.properties?.get("name")?.type === "string" &&
    md.properties.get("generateName")?.type === "string"
  ) {
    return s;
  }
  const props = new Map(p ?? []);
  props.set("kind", stringSchema());
  props.set("apiVersion", stringSchema());
  props.set("metadata", {
    type: "object",
    properties: new Map([
      ["name", stringSchema()],
      ["generateName", stringSchema()],
    ]),
    hasDefault: false,
    nullable: false,
    xPreserveUnknownFields: false,
    xEmbeddedResource: false,
    xIntOrString: false,
    raw: { type: "object" },
  });
  return { ...s, properties: props };
}

function simple(kind: DeclType["kind"], minSize: number, maxElements: number, schema: Structural): DeclType {
  return { kind, name: kind, maxElements, minSerializedSize: minSize, schema };
}

/**
 * `SchemaDeclType(s, isResourceRoot)`: the declaration type of a schema node, or undefined when the node is
 * not exposed to CEL (no type, array without items, map of unexposed values).
 *
 * The tree is built on demand: an object type's fields, and the sizes that depend on other nodes (an
 * object's minimum serialized size from its required fields, a list's or map's default maximum element
 * count from its element's size), are computed when first read. Whether a node is exposed depends only on
 * its chain of list items / map values, which is followed at once; the values are the same as if the whole
 * tree were built up front, but a CRD whose rules sit on a few fields no longer pays for its whole schema.
 */
export function schemaDeclType(s: Structural | undefined, isResourceRoot: boolean, depth = 0): DeclType | undefined {
  if (!s || depth > 10000) return undefined;
  const vv = s.valueValidation;
  if (s.xIntOrString) {
    const max = vv?.maxLength !== undefined ? zeroIfNegative(vv.maxLength) * 4 : maxStringLengthPerRequest(s);
    return simple("dyn", 1, max, s);
  }
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case "array": {
      if (!s.items) return undefined;
      const it = schemaDeclType(s.items, s.items.xEmbeddedResource, depth + 1);
      if (!it) return undefined;
      return new ContainerDeclType("list", it, s, vv?.maxItems, 1);
    }
    case "object": {
      const ap = s.additionalProperties?.schema;
      if (ap) {
        const vt = schemaDeclType(ap, ap.xEmbeddedResource, depth + 1);
        if (!vt) return undefined;
        return new ContainerDeclType("map", vt, s, vv?.maxProperties, 6);
      }
      return new ObjectDeclType(s, depth);
    }
    case "string": {
      switch (vv?.format) {
        case "byte":
          return simple("bytes", MIN_STRING_SIZE, vv.maxLength !== undefined ? zeroIfNegative(vv.maxLength) : maxStringLengthPerRequest(s), s);
        case "duration":
          return simple("duration", MIN_DURATION_SIZE_JSON, maxStringLengthPerRequest(s), s);
        case "date":
          return simple("timestamp", JSON_DATE_SIZE, maxStringLengthPerRequest(s), s);
        case "date-time":
          return simple("timestamp", MIN_DATETIME_SIZE_JSON, maxStringLengthPerRequest(s), s);
      }
      let max: number;
      if (vv?.maxLength !== undefined) max = zeroIfNegative(vv.maxLength) * 4;
      else if ((vv?.enum?.length ?? 0) > 0) max = maxStringEnumLength(s);
      else max = maxStringLengthPerRequest(s);
      return simple("string", MIN_STRING_SIZE, max, s);
    }
    case "boolean":
      return simple("bool", MIN_BOOL_SIZE, 0, s);
    case "number":
      return simple("double", MIN_NUMBER_SIZE, 0, s);
    case "integer":
      return simple("int", MIN_NUMBER_SIZE, 0, s);
  }
  return undefined;
}

/** A list or map DeclType; without maxItems / maxProperties its max element count follows from the element's minimum size. */
class ContainerDeclType implements DeclType {
  name: string;
  readonly minSerializedSize = 2;
  private max: number | undefined;

  constructor(
    readonly kind: "list" | "map",
    readonly elem: DeclType,
    readonly schema: Structural,
    private readonly declaredMax: number | undefined,
    /** JSON bytes around each element besides its own (`,` for a list item; `"":` and `,` for a map entry…). */
    private readonly overhead: number,
  ) {
    this.name = kind;
  }

  get maxElements(): number {
    this.max ??=
      this.declaredMax !== undefined
        ? zeroIfNegative(this.declaredMax)
        : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (this.elem.minSerializedSize + this.overhead));
    return this.max;
  }
}

/** An object DeclType whose fields (and minimum serialized size) are built when first read. */
class ObjectDeclType implements DeclType {
  readonly kind = "object";
  name = "object";
  readonly maxElements = 0;
  private fieldMap: Map<string, DeclField> | undefined;
  private minSize: number | undefined;
  /** DeclTypes of properties computed so far (undefined: not exposed). */
  private readonly propTypes = new Map<string, DeclType | undefined>();

  constructor(
    readonly schema: Structural,
    private readonly depth: number,
  ) {}

  private propType(name: string, prop: Structural): DeclType | undefined {
    if (this.propTypes.has(name)) return this.propTypes.get(name);
    const t = schemaDeclType(prop, prop.xEmbeddedResource, this.depth + 1);
    this.propTypes.set(name, t);
    return t;
  }

  propertyType(name: string): DeclType | undefined {
    const prop = this.schema.properties?.get(name);
    return prop ? this.propType(name, prop) : undefined;
  }

  get fields(): Map<string, DeclField> {
    if (this.fieldMap === undefined) {
      const required = new Set(this.schema.valueValidation?.required ?? []);
      const fields = new Map<string, DeclField>();
      for (const [name, prop] of this.schema.properties ?? []) {
        const ft = this.propType(name, prop);
        if (!ft) continue;
        const esc = escapeProperty(name);
        if (esc !== undefined) fields.set(esc, { property: name, type: ft, required: required.has(name) });
      }
      this.fieldMap = fields;
    }
    return this.fieldMap;
  }

  get minSerializedSize(): number {
    if (this.minSize === undefined) {
      const required = new Set(this.schema.valueValidation?.required ?? []);
      let minSize = 2;
      if (required.size > 0) {
        for (const [name, prop] of this.schema.properties ?? []) {
          if (!required.has(name)) continue;
          const ft = this.propType(name, prop);
          if (!ft) continue;
          if (!prop.hasDefault) minSize += name.length + ft.minSerializedSize + 4;
        }
      }
      this.minSize = minSize;
    }
    return this.minSize;
  }
}

/** `MaybeAssignTypeName`: names object types `<name>`, `<name>.<field>`, `<name>.@idx`, `<name>.@elem`. */
export function assignTypeNames(t: DeclType, name: string, depth = 0): void {
  if (depth > 10000) return;
  if (t.kind === "object") {
    t.name = name;
    for (const [f, field] of t.fields ?? []) assignTypeNames(field.type, `${name}.${f}`, depth + 1);
  } else if (t.kind === "map" && t.elem) {
    assignTypeNames(t.elem, `${name}.@elem`, depth + 1);
  } else if (t.kind === "list" && t.elem) {
    assignTypeNames(t.elem, `${name}.@idx`, depth + 1);
  }
}

/** The CEL type of a DeclType (object types as struct types named by {@link assignTypeNames}). */
export function celTypeOf(t: DeclType): CheckedType {
  switch (t.kind) {
    case "object":
      return structType(t.name);
    case "list":
      return listType(celTypeOf(t.elem!));
    case "map":
      return mapType(StringType, celTypeOf(t.elem!));
    case "duration":
      return DurationType;
    case "timestamp":
      return TimestampType;
    case "string":
      return StringType;
    case "int":
      return IntType;
    case "double":
      return DoubleType;
    case "bool":
      return BoolType;
    case "bytes":
      return BytesType;
    default:
      return DynType;
  }
}

/** Object types declared under `t`, as the Env's `objectTypes` option (escaped and, for reserved words, plain names). */
export function objectTypeDecls(t: DeclType, out: Record<string, Record<string, CheckedType>> = {}, depth = 0): Record<string, Record<string, CheckedType>> {
  if (depth > 10000) return out;
  if (t.kind === "object") {
    const fields: Record<string, CheckedType> = {};
    for (const [f, field] of t.fields ?? []) {
      fields[f] = celTypeOf(field.type);
      // Kubernetes ≥ 1.31 also resolves the unescaped name of reserved words (`self.namespace`).
      if (f !== field.property && /^[A-Za-z_][A-Za-z0-9_]*$/.test(field.property)) fields[field.property] = celTypeOf(field.type);
      objectTypeDecls(field.type, out, depth + 1);
    }
    out[t.name] = fields;
  } else if (t.elem) {
    objectTypeDecls(t.elem, out, depth + 1);
  }
  return out;
}
