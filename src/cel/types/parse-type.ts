/**
 * Parses a type written in cel-go's formatted notation (`int`, `list(string)`,
 * `map(string, dyn)`, `optional_type(int)`, `type(int)`, `timestamp`, `my.Object`) into a
 * {@link CelType}. Names not built in resolve through the given lookup (object / opaque types)
 * and otherwise become type parameters when they are a single upper-case letter.
 * @module
 */
import {
  AnyType,
  BoolType,
  BytesType,
  type CelType,
  DoubleType,
  DurationType,
  DynType,
  ErrorType,
  IntType,
  listType,
  mapType,
  NullType,
  opaqueType,
  StringType,
  TimestampType,
  TypeType,
  typeParamType,
  typeTypeWithParam,
  UintType,
} from "./types.js";

const SIMPLE: Readonly<Record<string, CelType>> = {
  any: AnyType,
  bool: BoolType,
  bytes: BytesType,
  double: DoubleType,
  duration: DurationType,
  "google.protobuf.Duration": DurationType,
  dyn: DynType,
  "!error!": ErrorType,
  int: IntType,
  null: NullType,
  null_type: NullType,
  string: StringType,
  timestamp: TimestampType,
  "google.protobuf.Timestamp": TimestampType,
  type: TypeType,
  uint: UintType,
};

/** Thrown for malformed type text. */
export class TypeSyntaxError extends Error {}

/** A type written as a bare name (`string`, `kubernetes.URL`, `T`). */
const BARE_NAME = /^[A-Za-z_!][A-Za-z0-9_.!]*$/;

/** The type a name without parameters denotes. */
function namedType(n: string, text: string, lookup: ((name: string) => CelType | undefined) | undefined): CelType {
  const s = SIMPLE[n];
  if (s !== undefined) return s;
  const found = lookup?.(n);
  if (found !== undefined) return found;
  if (/^[A-Z]$/.test(n)) return typeParamType(n);
  throw new TypeSyntaxError(`unknown type ${JSON.stringify(n)} in ${JSON.stringify(text)}`);
}

/** Parses `text`; `lookup` resolves other names (e.g. declared object types). */
export function parseType(text: string, lookup?: (name: string) => CelType | undefined): CelType {
  // most declared types are bare names: no parser state (`list` and `map` need parameters)
  if (text !== "list" && text !== "map" && BARE_NAME.test(text)) return namedType(text, text, lookup);
  let pos = 0;
  const src = text;
  const ws = () => {
    while (pos < src.length && /\s/.test(src[pos] as string)) pos++;
  };
  const name = (): string => {
    ws();
    const m = /^[A-Za-z_!][A-Za-z0-9_.!]*/.exec(src.slice(pos));
    if (m === null) throw new TypeSyntaxError(`invalid type ${JSON.stringify(text)} at offset ${pos}`);
    pos += m[0].length;
    return m[0];
  };
  const parse = (depth: number): CelType => {
    if (depth > 64) throw new TypeSyntaxError(`type ${JSON.stringify(text)} nests too deeply`);
    const n = name();
    ws();
    const params: CelType[] = [];
    if (src[pos] === "(") {
      pos++;
      for (;;) {
        params.push(parse(depth + 1));
        ws();
        if (src[pos] === ",") {
          pos++;
          continue;
        }
        if (src[pos] === ")") {
          pos++;
          break;
        }
        throw new TypeSyntaxError(`invalid type ${JSON.stringify(text)} at offset ${pos}`);
      }
    }
    const arity = (k: number) => {
      if (params.length !== k) throw new TypeSyntaxError(`type ${n} takes ${k} parameter(s) in ${JSON.stringify(text)}`);
    };
    if (n === "list") {
      arity(1);
      return listType(params[0] as CelType);
    }
    if (n === "map") {
      arity(2);
      return mapType(params[0] as CelType, params[1] as CelType);
    }
    if (n === "type" && params.length === 1) return typeTypeWithParam(params[0] as CelType);
    if (params.length === 0) return namedType(n, text, lookup);
    return opaqueType(n, ...params);
  };
  const t = parse(0);
  ws();
  if (pos !== src.length) throw new TypeSyntaxError(`invalid type ${JSON.stringify(text)} at offset ${pos}`);
  return t;
}
