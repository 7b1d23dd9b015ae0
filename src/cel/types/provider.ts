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

/** A mutable registry of object and opaque types. */
export class TypeRegistry implements TypeProvider {
  private readonly structs = new Map<string, Map<string, CelType>>();
  private readonly identTypes = new Map<string, CelType>();
  private readonly prefixes = new Set<string>();

  constructor() {
    // cel-go's standard type identifiers (stdlib `TypeVariable` declarations).
    for (const t of [
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
    ]) {
      this.setIdent(t.name, t);
    }
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
    return this.identTypes.get(name);
  }

  findStructType(name: string): CelType | undefined {
    return this.structs.has(name) ? structType(name) : undefined;
  }

  findStructFieldType(structName: string, field: string): CelType | undefined {
    return this.structs.get(structName)?.get(field);
  }

  structFields(structName: string): ReadonlyMap<string, CelType> | undefined {
    return this.structs.get(structName);
  }
}
