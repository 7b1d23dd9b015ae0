/**
 * kube-openapi `SchemaValidator.Validate` over a compiled {@link SchemaNode} tree, with the
 * apiextensions ratcheting hooks. Errors are appended (not yet de-duplicated) to an accumulator;
 * the return value is kube-openapi's `MatchCount` (used to pick anyOf/oneOf best failures).
 * Names (`spec.items[2].name`) are built from a segment stack only when an error is reported.
 */
import { goRuneCount } from "../go/utf8.js";
import { type JsonObject, type JsonValue, kindOf, toNumber } from "../value/json-value.js";
import { goDeepEqual as deepEqual } from "./deep-equal.js";
import type { SchemaNode } from "./compile.js";
import { floatInRange, goInt64, intInRange, nodePattern, patternKeyMatches } from "./compile.js";
import type { CorrelatedObject } from "./correlation.js";
import { type GoNum, type VErr, compositeMessages, verr } from "./messages.js";

const PROP = 0;
const ADDL = 1;
const INDEX = 2;

/** The current name (kube-openapi `Path`) as a stack of segments. */
export class NameStack {
  private kinds: number[] = [];
  private vals: (string | number)[] = [];
  len = 0;
  push(kind: number, v: string | number): void {
    this.kinds[this.len] = kind;
    this.vals[this.len] = v;
    this.len++;
  }
  pop(): void {
    this.len--;
  }
  name(): string {
    let s = "";
    for (let i = 0; i < this.len; i++) {
      const v = this.vals[i]!;
      switch (this.kinds[i]) {
        case PROP:
          s = s === "" ? String(v) : `${s}.${v}`;
          break;
        case ADDL:
          s = `${s}.${v}`;
          break;
        default:
          s = `${s}[${v}]`;
      }
    }
    return s;
  }
}

/** `swag.IsFloat64AJSONInteger` (go-openapi/swag conv v0.2x). */
export function isFloat64AJSONInteger(f: number): boolean {
  if (Number.isNaN(f) || !Number.isFinite(f) || f < -9007199254740991 || f > 9007199254740991) return false;
  const rounded = goRound(f);
  if (f === rounded) return true;
  if (rounded === 0) return false;
  const diff = Math.abs(f - rounded);
  if (diff === 0) return true;
  return diff < 1e-9 * Math.abs(rounded);
}

/** Go `math.Round` (half away from zero). */
function goRound(f: number): number {
  return f < 0 ? -Math.round(-f) : Math.round(f);
}

function cmpInt(a: number | bigint, b: number | bigint): number {
  if (typeof a === "number" && typeof b === "number") return a < b ? -1 : a > b ? 1 : 0;
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Go `string(rune(i))` for an int64 converted to string. */
function intToGoString(i: number | bigint): string {
  const n = typeof i === "bigint" ? (i >= 0n && i <= 0x10ffffn ? Number(i) : -1) : i;
  if (n < 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return "\ufffd";
  return String.fromCodePoint(n);
}

/** kube-openapi enum membership (Go ConvertibleTo + DeepEqual; null never matches). */
export function enumContains(values: readonly JsonValue[], data: JsonValue): boolean {
  if (data === null) return false;
  const dk = kindOf(data);
  for (let i = 0; i < values.length; i++) {
    const ev = values[i]!;
    if (ev === null) continue;
    const ek = kindOf(ev);
    switch (dk) {
      case "integer":
        if (ek === "integer" && cmpInt(data as number | bigint, ev as number | bigint) === 0) return true;
        if (ek === "number" && Number(data) === toNumber(ev as number)) return true;
        if (ek === "string" && intToGoString(data as number | bigint) === ev) return true;
        break;
      case "number": {
        const f = toNumber(data as number);
        if (ek === "number" && f === toNumber(ev as number)) return true;
        if (ek === "integer" && cmpInt(goInt64(f), ev as number | bigint) === 0) return true;
        break;
      }
      default:
        if (dk === ek && deepEqual(data, ev)) return true;
    }
  }
  return false;
}

/** A number as the messages print it (built only when an error is reported). */
function goNum(isInt: boolean, iv: number | bigint, fv: number): GoNum {
  return isInt ? { kind: "int", v: iv } : { kind: "float", v: fv };
}

const SCH_TYPE: Record<string, [string, string]> = {
  boolean: ["boolean", ""],
  string: ["string", ""],
  integer: ["integer", "int64"],
  number: ["number", "float64"],
  array: ["array", ""],
  object: ["object", ""],
};

/** One validation run (create or update). */
export class Evaluation {
  readonly names = new NameStack();

  /** `SchemaValidator.Validate(data)` (or the ratcheting validator when `corr` is set). */
  validate(n: SchemaNode, data: JsonValue, acc: VErr[], corr: CorrelatedObject | null): number {
    if (corr === null) return this.validateNode(n, data, acc, null);
    const start = acc.length;
    const mc = this.validateNode(n, data, acc, corr);
    if (acc.length > start && corr.cachedDeepEqual()) acc.length = start;
    return mc;
  }

  private validateNode(n: SchemaNode, data: JsonValue, acc: VErr[], corr: CorrelatedObject | null): number {
    const kind = kindOf(data);
    if (kind === "null") {
      let mc = 0;
      if (n.types.length > 0 && !n.types.includes("null") && !n.nullable) {
        acc.push(verr.invalidType(this.names.name(), n.types.join(","), "null"));
      } else mc = 1;
      if (n.enum) acc.push(verr.enumFail(this.names.name(), null, n.enum));
      return mc;
    }
    let mc = 0;
    if (n.typeApplies) mc += this.typeCheck(n, data, kind, acc) + 1;
    // schemaPropsValidator counts itself once (mainResult.Inc) and SchemaValidator once more.
    mc += (n.composite ? this.schemaProps(n, data, kind, acc) : 0) + 2;
    if (kind === "string") {
      this.stringCheck(n, data as string, acc);
      mc += 1;
      if (n.formatFn) {
        if (!n.formatFn(data as string)) acc.push(verr.invalidType(this.names.name(), n.format, data as string));
        mc += 1;
      }
    } else if (kind === "integer" || kind === "number") {
      this.numberCheck(n, data, kind, acc);
      mc += 2;
    } else if (kind === "array") {
      mc += this.sliceCheck(n, data as JsonValue[], acc, corr) + 1;
    }
    if (n.enum && !enumContains(n.enum, data)) acc.push(verr.enumFail(this.names.name(), data, n.enum));
    mc += 1;
    if (kind === "object") mc += this.objectCheck(n, data as JsonObject, acc, corr) + 1;
    return mc + 1;
  }

  /** typeValidator: returns 1 when valid (its own MatchCount), 0 on error. */
  private typeCheck(n: SchemaNode, data: JsonValue, kind: string, acc: VErr[]): number {
    // A kind the schema lists is valid whatever the format (every branch below accepts it).
    if (n.typeHas[kind] === true) return 1;
    if (n.format === "") {
      // Fast path (no format): kind in types, int64 accepted by number, integral float64 by integer.
      const t = n.typeHas;
      if (
        t[kind] === true ||
        (kind === "integer" && t.number === true) ||
        (kind === "number" && t.integer === true && isFloat64AJSONInteger(toNumber(data as number)))
      )
        return 1;
      acc.push(verr.invalidType(this.names.name(), n.types.join(","), kind));
      return 0;
    }
    const [schType, fmt] = SCH_TYPE[kind]!;
    const types = n.types;
    const isFloatInt = schType === "number" && isFloat64AJSONInteger(toNumber(data as number)) && types.includes("integer");
    const isIntFloat = schType === "integer" && types.includes("number");
    if (
      kind !== "string" &&
      kind !== "array" &&
      n.format !== "" &&
      !(types.includes(schType) || fmt === n.format || isFloatInt || isIntFloat)
    ) {
      acc.push(verr.invalidType(this.names.name(), n.format, fmt));
      return 0;
    }
    if (!(types.includes("number") || types.includes("integer")) && n.format !== "" && (kind === "string" || kind === "array"))
      return 1;
    if (!(types.includes(schType) || isFloatInt || isIntFloat)) {
      acc.push(verr.invalidType(this.names.name(), types.join(","), schType));
      return 0;
    }
    return 1;
  }

  private stringCheck(n: SchemaNode, s: string, acc: VErr[]): void {
    if (n.maxLength !== undefined && s.length > n.maxLength && goRuneCount(s) > n.maxLength) {
      acc.push(verr.tooLong(this.names.name(), n.maxLength, s));
      return;
    }
    if (n.minLength !== undefined && s.length < 2 * n.minLength && goRuneCount(s) < n.minLength) {
      acc.push(verr.tooShort(this.names.name(), n.minLength, s));
      return;
    }
    const p = nodePattern(n);
    if (p !== undefined && n.pattern !== undefined) {
      if (p.error !== undefined) {
        acc.push(verr.failedPattern(this.names.name(), `${n.pattern}, but pattern is invalid: ${p.error}`, s));
      } else if (!p.regexp.test(s)) {
        acc.push(verr.failedPattern(this.names.name(), n.pattern, s));
      }
    }
  }

  private rangeError(prefix: string, n: SchemaNode): VErr {
    const name = this.names.name();
    return verr.plain(
      n.numFormat !== ""
        ? `${prefix} value must be of type ${n.numType} with format ${n.numFormat} in ${name}`
        : `${prefix} value must be of type ${n.numType} (default format) in ${name}`,
    );
  }

  private numberCheck(n: SchemaNode, data: JsonValue, kind: string, acc: VErr[]): void {
    const isInt = kind === "integer";
    const iv = data as number | bigint;
    const fv = isInt ? Number(iv) : toNumber(data as number);
    if (n.numType !== "" && !(isInt ? intInRange(iv, n.numType, n.numFormat) : floatInRange(fv, n.numType, n.numFormat)))
      acc.push(this.rangeError("Checked", n));
    if (n.multipleOf !== undefined) {
      const factor = n.multipleOf;
      if (n.multipleOfInRange && isInt) {
        const fi = n.multipleOfInt;
        if (cmpInt(fi, 0) <= 0) acc.push(verr.multipleOfMustBePositive(this.names.name(), { kind: "int", v: fi }));
        else if (BigInt(iv) % BigInt(fi) !== 0n) acc.push(verr.notMultipleOf(this.names.name(), { kind: "int", v: fi }, goNum(isInt, iv, fv)));
      } else {
        if (!n.multipleOfInRange) acc.push(this.rangeError("MultipleOf", n));
        this.floatMultipleOf(factor, fv, acc);
      }
    }
    if (n.minimum !== undefined) {
      if (n.minimumInRange && isInt) {
        const c = cmpInt(iv, n.minimumInt);
        if (n.exclusiveMinimum ? c <= 0 : c < 0)
          acc.push(verr.exceedsMinimum(this.names.name(), { kind: "int", v: n.minimumInt }, n.exclusiveMinimum, goNum(isInt, iv, fv)));
      } else {
        if (!n.minimumInRange) acc.push(this.rangeError("Minimum boundary", n));
        const min = n.minimum;
        if (n.exclusiveMinimum ? fv <= min : fv < min)
          acc.push(verr.exceedsMinimum(this.names.name(), { kind: "float", v: min }, n.exclusiveMinimum, { kind: "float", v: fv }));
      }
    }
    if (n.maximum !== undefined) {
      if (n.maximumInRange && isInt) {
        const c = cmpInt(iv, n.maximumInt);
        if (n.exclusiveMaximum ? c >= 0 : c > 0)
          acc.push(verr.exceedsMaximum(this.names.name(), { kind: "int", v: n.maximumInt }, n.exclusiveMaximum, goNum(isInt, iv, fv)));
      } else {
        if (!n.maximumInRange) acc.push(this.rangeError("Maximum boundary", n));
        const max = n.maximum;
        if (n.exclusiveMaximum ? fv >= max : fv > max)
          acc.push(verr.exceedsMaximum(this.names.name(), { kind: "float", v: max }, n.exclusiveMaximum, { kind: "float", v: fv }));
      }
    }
  }

  private floatMultipleOf(factor: number, data: number, acc: VErr[]): void {
    if (factor <= 0) {
      acc.push(verr.multipleOfMustBePositive(this.names.name(), { kind: "float", v: factor }));
      return;
    }
    const mult = factor < 1 ? (1 / factor) * data : data / factor;
    if (!isFloat64AJSONInteger(mult))
      acc.push(verr.notMultipleOf(this.names.name(), { kind: "float", v: factor }, { kind: "float", v: data }));
  }

  private child(kind: number, seg: string | number, n: SchemaNode, v: JsonValue, acc: VErr[], corr: CorrelatedObject | null): number {
    this.names.push(kind, seg);
    try {
      return this.validate(n, v, acc, corr);
    } finally {
      this.names.pop();
    }
  }

  private sliceCheck(n: SchemaNode, arr: JsonValue[], acc: VErr[], corr: CorrelatedObject | null): number {
    let mc = 0;
    const size = arr.length;
    if (n.items) {
      for (let i = 0; i < size; i++) mc += this.child(INDEX, i, n.items, arr[i]!, acc, corr ? corr.index(i) : null);
    }
    let itemsSize = 0;
    if (n.itemsTuple && n.itemsTuple.length > 0) {
      itemsSize = n.itemsTuple.length;
      for (let i = 0; i < itemsSize && i < size; i++) mc += this.child(INDEX, i, n.itemsTuple[i]!, arr[i]!, acc, null);
    }
    if (n.additionalItems && itemsSize < size) {
      if (n.itemsTuple && n.itemsTuple.length > 0 && !n.additionalItems.allows) acc.push(verr.plain(compositeMessages.noAdditionalItems()));
      const s = n.additionalItems.schema;
      if (s) for (let i = itemsSize; i < size - itemsSize + 1 && i < size; i++) mc += this.child(INDEX, i, s, arr[i]!, acc, null);
    }
    if (n.minItems !== undefined && size < n.minItems) acc.push(verr.tooFewItems(this.names.name(), n.minItems, size));
    if (n.maxItems !== undefined && size > n.maxItems) acc.push(verr.tooManyItems(this.names.name(), n.maxItems, size));
    if (n.uniqueItems) {
      outer: for (let i = 1; i < size; i++) {
        for (let j = 0; j < i; j++) {
          if (deepEqual(arr[i], arr[j])) {
            acc.push(verr.duplicateItems(this.names.name()));
            break outer;
          }
        }
      }
    }
    return mc + 1;
  }

  /** Validates every patternProperties schema matching `key`; returns [matched, matchCount]. */
  private patternProps(n: SchemaNode, key: string, value: JsonValue, acc: VErr[], matched: string[] | null): [boolean, number] {
    let any = false;
    let mc = 0;
    for (const p of n.patternProperties!) {
      if (patternKeyMatches(p, key)) {
        any = true;
        matched?.push(p.source);
        mc += this.child(ADDL, key, p.schema, value, acc, null);
      }
    }
    return [any, mc];
  }

  private objectCheck(n: SchemaNode, obj: JsonObject, acc: VErr[], corr: CorrelatedObject | null): number {
    let mc = 0;
    const keys = Object.keys(obj);
    const numKeys = keys.length;
    if (n.minProperties !== undefined && numKeys < n.minProperties)
      acc.push(verr.tooFewProperties(this.names.name(), n.minProperties, numKeys));
    if (n.maxProperties !== undefined && numKeys > n.maxProperties)
      acc.push(verr.tooManyProperties(this.names.name(), n.maxProperties, numKeys));
    const props = n.properties;
    const ap = n.additionalProperties;
    // indexed loops: a for-of allocates an iterator (and a result per step) in V8's lower tiers
    if (ap && !ap.allows) {
      for (let i = 0; i < numKeys; i++) {
        const k = keys[i]!;
        if (props?.has(k)) continue;
        if (n.patternProperties?.some((p) => patternKeyMatches(p, k))) continue;
        acc.push(verr.propertyNotAllowed(this.names.name(), k));
      }
    } else if (n.patternProperties || ap?.schema) {
      const atRoot = this.names.len === 0;
      for (let i = 0; i < numKeys; i++) {
        const k = keys[i]!;
        const regular = props?.has(k) === true;
        let matched = false;
        if (n.patternProperties) {
          const [m, pmc] = this.patternProps(n, k, obj[k] as JsonValue, acc, null);
          matched = m;
          mc += pmc;
        }
        if (!(regular || matched) && ap?.schema) {
          const c = corr && !(atRoot && (k === "kind" || k === "apiVersion")) ? corr.key(k) : null;
          mc += this.child(ADDL, k, ap.schema, obj[k] as JsonValue, acc, c);
        }
      }
    }
    if (props) {
      // Go iterates the properties map in random order; crdkit reports in document (key) order.
      const atRoot = this.names.len === 0;
      for (let i = 0; i < numKeys; i++) {
        const p = keys[i]!;
        const schema = props.get(p);
        if (!schema) continue;
        const c = corr && !(atRoot && (p === "kind" || p === "apiVersion")) ? corr.key(p) : null;
        mc += this.child(PROP, p, schema, obj[p] as JsonValue, acc, c);
      }
    }
    if (n.required) {
      const req = n.required;
      for (let i = 0; i < req.length; i++) {
        const k = req[i]!;
        if (!Object.hasOwn(obj, k)) acc.push(verr.required(`${this.names.name()}.${k}`));
      }
    }
    if (n.patternProperties) {
      for (const k of keys) {
        const regular = props?.has(k) === true;
        const pats: string[] = [];
        const [matched, pmc] = this.patternProps(n, k, obj[k] as JsonValue, acc, pats);
        mc += pmc;
        if (!regular && matched) {
          for (const src of pats) {
            const entry = n.patternProperties.find((p) => p.source === src);
            if (entry) mc += this.child(ADDL, k, entry.schema, obj[k] as JsonValue, acc, null);
          }
        }
      }
    }
    return mc;
  }

  private schemaProps(n: SchemaNode, data: JsonValue, kind: string, acc: VErr[]): number {
    let mc = 0;
    if (n.anyOf) {
      let best: { errs: VErr[]; mc: number } | null = null;
      let firstSuccess: number | null = null;
      for (const sub of n.anyOf) {
        const errs: VErr[] = [];
        const smc = this.validate(sub, data, errs, null);
        if (errs.length === 0) {
          best = null;
          firstSuccess = smc;
          break;
        }
        if (best === null || smc > best.mc) best = { errs, mc: smc };
      }
      if (firstSuccess === null) acc.push(verr.plain(compositeMessages.anyOf(this.names.name())));
      if (best) {
        for (const e of best.errs) acc.push(e);
        mc += best.mc;
      } else if (firstSuccess !== null) mc += firstSuccess;
    }
    if (n.oneOf) {
      let best: { errs: VErr[]; mc: number } | null = null;
      let firstSuccess: number | null = null;
      let validated = 0;
      for (const sub of n.oneOf) {
        const errs: VErr[] = [];
        const smc = this.validate(sub, data, errs, null);
        if (errs.length === 0) {
          validated++;
          best = null;
          if (firstSuccess === null) firstSuccess = smc;
          continue;
        }
        if (validated === 0 && (best === null || smc > best.mc)) best = { errs, mc: smc };
      }
      if (validated !== 1) {
        const additional = validated === 0 ? "Found none valid" : `Found ${validated} valid alternatives`;
        acc.push(verr.plain(compositeMessages.oneOf(this.names.name(), additional)));
        if (best) {
          for (const e of best.errs) acc.push(e);
          mc += best.mc;
        }
      } else if (firstSuccess !== null) mc += firstSuccess;
    }
    if (n.allOf) {
      let validated = 0;
      for (const sub of n.allOf) {
        const start = acc.length;
        mc += this.validate(sub, data, acc, null);
        if (acc.length === start) validated++;
      }
      if (validated !== n.allOf.length)
        acc.push(verr.plain(compositeMessages.allOf(this.names.name(), validated === 0 ? ". None validated" : "")));
    }
    if (n.not) {
      const errs: VErr[] = [];
      this.validate(n.not, data, errs, null);
      if (errs.length === 0) acc.push(verr.plain(compositeMessages.not(this.names.name())));
    }
    if (n.dependencies && kind === "object") {
      const obj = data as JsonObject;
      for (const key of Object.keys(obj)) {
        const dep = n.dependencies.find(([k]) => k === key)?.[1];
        if (!dep) continue;
        if (dep.schema) {
          mc += this.child(ADDL, key, dep.schema, data, acc, null);
          continue;
        }
        for (const depKey of dep.property ?? []) {
          if (!Object.hasOwn(obj, depKey)) acc.push(verr.plain(compositeMessages.dependency(this.names.name(), depKey)));
        }
      }
    }
    return mc;
  }
}
