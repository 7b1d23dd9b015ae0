/**
 * Test harness (not part of the engine API): runs `@bufbuild/cel-spec`
 * conformance tests through parse → plan → eval, without the type checker.
 *
 * @module
 */

import type { Expr } from "../ast.js";
import { visitExpr } from "../ast.js";
import { parse } from "../parser/parser.js";
import { standardFunctions } from "../stdlib-impl/index.js";
import { tagOf } from "../values/ops.js";
import type { CelValue } from "../values/values.js";
import {
  CelDuration,
  CelError,
  CelMap,
  CelOptional,
  CelTimestamp,
  CelType,
  CelUint,
  CelUnknown,
  HashCelMap,
} from "../values/values.js";
import { plan } from "./planner.js";

// biome-ignore lint/suspicious/noExplicitAny: protobuf-es JSON-like messages from the suite
type Any = any;

/** Outcome of one conformance test. */
export type Outcome = { status: "pass" } | { status: "fail"; why: string } | { status: "skip"; why: string };

class Unsupported extends Error {}

function readVarint(b: Uint8Array, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const byte = b[pos++];
    if (byte === undefined) throw new Unsupported("truncated varint");
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) break;
    shift += 7n;
  }
  return [result, pos];
}

/** Decodes a Duration/Timestamp protobuf payload (seconds=1, nanos=2). */
function secondsNanos(b: Uint8Array): [bigint, bigint] {
  let pos = 0;
  let sec = 0n;
  let nanos = 0n;
  while (pos < b.length) {
    const [tag, p1] = readVarint(b, pos);
    const [v, p2] = readVarint(b, p1);
    pos = p2;
    const signed = BigInt.asIntN(64, v);
    if (tag >> 3n === 1n) sec = signed;
    else if (tag >> 3n === 2n) nanos = signed;
  }
  return [sec, nanos];
}

/** cel.expr.Value → CelValue. */
export function fromProtoValue(v: Any): CelValue {
  const k = v.kind;
  switch (k.case) {
    case "nullValue":
      return null;
    case "boolValue":
      return k.value;
    case "int64Value":
      return BigInt(k.value);
    case "uint64Value":
      return new CelUint(BigInt(k.value));
    case "doubleValue":
      return k.value;
    case "stringValue":
      return k.value;
    case "bytesValue":
      return k.value;
    case "listValue":
      return (k.value.values as Any[]).map(fromProtoValue);
    case "mapValue": {
      const m = new HashCelMap();
      for (const e of k.value.entries as Any[]) m.set(fromProtoValue(e.key), fromProtoValue(e.value));
      return m;
    }
    case "typeValue":
      return new CelType(k.value);
    case "objectValue": {
      const url: string = k.value.typeUrl;
      const [s, n] = secondsNanos(k.value.value as Uint8Array);
      if (url.endsWith("google.protobuf.Duration")) return new CelDuration(s * 1_000_000_000n + n);
      if (url.endsWith("google.protobuf.Timestamp")) return new CelTimestamp(s * 1_000_000_000n + n);
      throw new Unsupported(`protobuf object ${url}`);
    }
    default:
      throw new Unsupported(`value kind ${k.case}`);
  }
}

/** Strict structural equality (same runtime types all the way down). */
export function sameValue(a: CelValue, b: CelValue): boolean {
  if (tagOf(a) !== tagOf(b)) return false;
  if (typeof a === "number") return Number.isNaN(a) ? Number.isNaN(b as number) : a === b;
  if (Array.isArray(a)) {
    const bl = b as readonly CelValue[];
    return a.length === bl.length && a.every((x, i) => sameValue(x, bl[i] as CelValue));
  }
  if (a instanceof CelMap) {
    const bm = b as CelMap;
    if (a.size !== bm.size) return false;
    for (const k of a.keys()) {
      const bv = bm.get(k);
      if (bv === undefined || !sameValue(a.get(k) as CelValue, bv)) return false;
    }
    return true;
  }
  if (a instanceof CelUint) return a.value === (b as CelUint).value;
  if (a instanceof Uint8Array) {
    const bb = b as Uint8Array;
    return a.length === bb.length && a.every((x, i) => x === bb[i]);
  }
  if (a instanceof CelDuration || a instanceof CelTimestamp) return a.nanos === (b as CelDuration).nanos;
  if (a instanceof CelType) return a.name === (b as CelType).name;
  if (a instanceof CelOptional) {
    const bo = b as CelOptional;
    if (a.value === undefined || bo.value === undefined) return a.value === bo.value;
    return sameValue(a.value, bo.value);
  }
  return a === b;
}

function show(v: CelValue): string {
  if (v instanceof CelError) return `error(${v.message})`;
  if (v instanceof CelMap) return `{${v.entries().map(([k, x]) => `${show(k)}: ${show(x)}`).join(", ")}}`;
  if (Array.isArray(v)) return `[${v.map(show).join(", ")}]`;
  if (typeof v === "bigint") return `${v}`;
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof CelUint) return `${v.value}u`;
  if (v instanceof CelOptional) return v.value === undefined ? "optional.none()" : `optional(${show(v.value)})`;
  if (v instanceof CelDuration) return `duration(${v.nanos}ns)`;
  if (v instanceof CelTimestamp) return `timestamp(${v.nanos}ns)`;
  if (v instanceof CelType) return `type(${v.name})`;
  return String(v);
}

const functions = standardFunctions();

function usesMessages(e: Expr): boolean {
  let found = false;
  visitExpr(e, (x) => {
    if (x.kind === "struct") found = true;
    if (x.kind === "ident" && /^(google|cel|TestAllTypes|NestedTestAllTypes)\b/.test(x.name) && x.name !== "google")
      found = true;
  });
  return found;
}

/** Runs one conformance test (evaluation only). */
export function runConformanceTest(t: Any): Outcome {
  const o = t.original;
  if (o.checkOnly) return { status: "skip", why: "check only" };
  if (o.container) return { status: "skip", why: "container / protobuf" };
  const parsed = parse(o.expr, o.disableMacros ? { macros: [] } : {});
  const rm = o.resultMatcher;
  if (!parsed.ast) {
    if (rm.case === "evalError") return { status: "pass" };
    return { status: "fail", why: `parse error: ${parsed.errorText}` };
  }
  if (usesMessages(parsed.ast.expr)) return { status: "skip", why: "protobuf messages" };
  let bindings: Record<string, CelValue>;
  let expected: CelValue | undefined;
  try {
    bindings = {};
    for (const [name, ev] of Object.entries(o.bindings as Record<string, Any>)) {
      if (ev.kind.case !== "value") return { status: "skip", why: "non-value binding" };
      bindings[name] = fromProtoValue(ev.kind.value);
    }
    if (rm.case === "value") expected = fromProtoValue(rm.value);
    else if (rm.case === "typedResult") expected = fromProtoValue(rm.value.result);
    else if (rm.case === undefined) expected = true;
  } catch (e) {
    if (e instanceof Unsupported) return { status: "skip", why: e.message };
    throw e;
  }
  const prog = plan(parsed.ast, { functions });
  const got = prog.eval(bindings).value;
  if (rm.case === "evalError" || rm.case === "anyEvalErrors") {
    return got instanceof CelError ? { status: "pass" } : { status: "fail", why: `want error, got ${show(got)}` };
  }
  if (rm.case === "unknown" || rm.case === "anyUnknowns") {
    return got instanceof CelUnknown ? { status: "pass" } : { status: "fail", why: `want unknown, got ${show(got)}` };
  }
  if (expected === undefined) return { status: "skip", why: `matcher ${rm.case}` };
  return sameValue(got, expected)
    ? { status: "pass" }
    : { status: "fail", why: `got ${show(got)}, want ${show(expected)}` };
}
