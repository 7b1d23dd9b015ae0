/**
 * Type provider: the object (struct) types and opaque types an environment knows, declared as
 * plain field maps — no protobuf. Mirrors the parts of cel-go's `types.Provider` used by the checker.
 * @module
 */
import {
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  IntType,
  listType,
  mapType,
  NullType,
  opaqueType,
  StringType,
  structType,
  TimestampType,
  TypeType,
  typeParamType,
  UintType,
} from "./types.js";

/** Read-only view of the declared types, as used by the checker. */
export interface TypeProvider {
  /** A type name usable as an identifier (`int`, `list`, `my.Object`), giving the type itself. */
  findIdentType(name: string): CelType | undefined;
  /** The struct type with this name, if declared. */
  findStructType(name: string): CelType | undefined;
  /** The type of `field` on struct `structName`, if both exist. */
  findStructFieldType(structName: string, field: string): CelType | undefined;
  /** All fields of a struct type, if declared (used by size estimators and evaluators). */
  structFields(structName: string): ReadonlyMap<string, CelType> | undefined;
  /**
   * Optional fast path: false when no declared type name starts with `segment + "."`
   * (lets the checker skip qualified-name lookups for ordinary field selections).
   */
  hasQualifiedPrefix?(segment: string): boolean;
}

/**
 * Object types declared on demand: a large family of types (e.g. every object node of a schema) whose
 * fields are only built for the types a check actually looks up.
 */
export interface ObjectTypeSource {
  /** The fields of the object type `name`, or undefined when the source declares no such type. */
  fields(name: string): ReadonlyMap<string, CelType> | undefined;
  /** The first segments of the dotted type names the source declares (`selfType1` for `selfType1.spec`). */
  readonly prefixes: readonly string[];
}

let STANDARD_IDENT_TYPES: readonly CelType[] | undefined;

/** cel-go's standard type identifiers, built once (types are immutable). */
function standardIdentTypes(): readonly CelType[] {
  STANDARD_IDENT_TYPES ??= [
    BoolType,
    BytesType,
    DoubleType,
    DurationType,
    IntType,
    listType(typeParamType("A")),
    mapType(typeParamType("A"), typeParamType("B")),
    NullType,
    StringType,
    TimestampType,
    TypeType,
    UintType,
  ];
  return STANDARD_IDENT_TYPES;
}

/** A mutable registry of object and opaque types. */
export class TypeRegistry implements TypeProvider {
  private readonly structs: Map<string, ReadonlyMap<string, CelType>>;
  private readonly identTypes: Map<string, CelType>;
  private readonly prefixes: Set<string>;
  private readonly sources: ObjectTypeSource[];
  /** Names the sources were asked about and do not declare. */
  private readonly notFromSources = new Set<string>();

  /** @param from a registry whose declarations this one starts with (see {@link copy}). */
  constructor(from?: TypeRegistry) {
    if (from !== undefined) {
      // copied by the Map / Set constructors' own loops (an environment per schema node copies one)
      this.structs = new Map(from.structs);
      this.identTypes = new Map(from.identTypes);
      this.prefixes = new Set(from.prefixes);
      this.sources = from.sources.slice();
      return;
    }
    this.structs = new Map();
    this.identTypes = new Map();
    this.prefixes = new Set();
    this.sources = [];
    // cel-go's standard type identifiers (stdlib `TypeVariable` declarations).
    for (const t of standardIdentTypes()) this.setIdent(t.name, t);
  }

  /** A new registry with this one's declarations; later declarations in either do not reach the other. */
  copy(): TypeRegistry {
    return new TypeRegistry(this);
  }

  private setIdent(name: string, t: CelType): void {
    this.identTypes.set(name, t);
    const dot = name.indexOf(".");
    if (dot > 0) this.prefixes.add(name.slice(0, dot));
  }

  hasQualifiedPrefix(segment: string): boolean {
    return this.prefixes.has(segment);
  }

  /**
   * Declares an object type `name` with the given fields. Re-declaring replaces the fields.
   * Returns the struct type.
   */
  registerObject(name: string, fields: Readonly<Record<string, CelType>> | ReadonlyMap<string, CelType>): CelType {
    const m = new Map<string, CelType>(fields instanceof Map ? fields : Object.entries(fields));
    this.structs.set(name, m);
    const t = structType(name);
    this.setIdent(name, t);
    return t;
  }

  /**
   * Declares the object types of `source`, built on first lookup. Types registered directly (before or
   * after) take precedence over the source's types of the same name.
   */
  registerObjectSource(source: ObjectTypeSource): void {
    this.sources.push(source);
    for (const p of source.prefixes) this.prefixes.add(p);
    this.notFromSources.clear();
  }

  /** The fields of struct `name`: declared directly, or (and then cached) by a source. */
  private structFieldMap(name: string): ReadonlyMap<string, CelType> | undefined {
    const m = this.structs.get(name);
    if (m !== undefined || this.sources.length === 0 || this.notFromSources.has(name)) return m;
    for (const src of this.sources) {
      const f = src.fields(name);
      if (f !== undefined) {
        this.structs.set(name, f);
        if (!this.identTypes.has(name)) this.identTypes.set(name, structType(name));
        return f;
      }
    }
    this.notFromSources.add(name);
    return undefined;
  }

  /** Declares an opaque type (e.g. `kubernetes.Quantity`), usable as a type identifier. */
  registerOpaque(name: string, ...params: CelType[]): CelType {
    const t = opaqueType(name, ...params);
    this.setIdent(name, t);
    return t;
  }

  /** Makes `name` resolve to `type` when used as an identifier (e.g. `optional_type`). */
  registerIdentType(name: string, type: CelType): void {
    this.setIdent(name, type);
  }

  findIdentType(name: string): CelType | undefined {
    const t = this.identTypes.get(name);
    if (t !== undefined || this.sources.length === 0) return t;
    return this.structFieldMap(name) !== undefined ? this.identTypes.get(name) : undefined;
  }

  findStructType(name: string): CelType | undefined {
    return this.structFieldMap(name) !== undefined ? structType(name) : undefined;
  }

  findStructFieldType(structName: string, field: string): CelType | undefined {
    return this.structFieldMap(structName)?.get(field);
  }

  structFields(structName: string): ReadonlyMap<string, CelType> | undefined {
    return this.structFieldMap(structName);
  }
}
