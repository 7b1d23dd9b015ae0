/**
 * Scalar resolution exactly as go-yaml v2 (`resolve.go`, used by sigs.k8s.io/yaml and therefore kubectl)
 * performs it for untyped (`interface{}`) targets: YAML 1.1 booleans (`y`, `Yes`, `ON`, `off`, ...), nulls,
 * Go `strconv.ParseInt(s, 0, 64)` integers (`0x1F`, `017` octal, `0o17`, `0b101`, `1_000`), uint64
 * overflow, YAML-style floats; timestamps stay strings; everything else is a string.
 */

/** A resolved YAML scalar, typed the way go-yaml v2 hands it to sigs.k8s.io/yaml. */
export type GoScalar =
  | { t: "null" }
  | { t: "bool"; v: boolean }
  | { t: "int"; v: bigint }
  | { t: "uint"; v: bigint }
  | { t: "float"; v: number }
  | { t: "str"; v: string }
  | { t: "merge" };

const NULL: GoScalar = { t: "null" };
const TRUE: GoScalar = { t: "bool", v: true };
const FALSE: GoScalar = { t: "bool", v: false };

const MAP = new Map<string, GoScalar>();
for (const s of ["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"]) MAP.set(s, TRUE);
for (const s of ["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"]) MAP.set(s, FALSE);
for (const s of ["", "~", "null", "Null", "NULL"]) MAP.set(s, NULL);
for (const s of [".nan", ".NaN", ".NAN"]) MAP.set(s, { t: "float", v: Number.NaN });
for (const s of [".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"]) MAP.set(s, { t: "float", v: Number.POSITIVE_INFINITY });
for (const s of ["-.inf", "-.Inf", "-.INF"]) MAP.set(s, { t: "float", v: Number.NEGATIVE_INFINITY });
MAP.set("<<", { t: "merge" });
const MAP_KEY_MAX = Math.max(...[...MAP.keys()].map((k) => k.length));

/** ASCII characters a plain scalar that resolves to something other than a string can start with. */
const MAY_RESOLVE = new Uint8Array(128);
for (const k of MAP.keys()) if (k !== "") MAY_RESOLVE[k.charCodeAt(0)] = 1;
for (const c of "0123456789.+-") MAY_RESOLVE[c.charCodeAt(0)] = 1;

/** Whether a plain scalar resolves to a string whatever follows its first character (a quick test, before {@link resolvePlain}). */
export function plainIsString(s: string): boolean {
  const c = s.charCodeAt(0);
  return c >= 0x80 || (c >= 0 && MAY_RESOLVE[c] === 0);
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const DOT_FLOAT = /^\.[0-9]+([eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

const DIGITS: Record<number, RegExp> = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ };

/** Go `strconv.ParseInt/ParseUint(s, 0, 64)` syntax (underscores already removed): the value, or undefined. */
function parseGoInt(s: string, allowSign: boolean): bigint | undefined {
  let i = 0;
  let neg = false;
  if (s[0] === "+" || s[0] === "-") {
    if (!allowSign) return undefined;
    neg = s[0] === "-";
    i = 1;
  }
  let rest = s.slice(i);
  let base = 10;
  if (rest.length > 1 && rest[0] === "0") {
    const p = rest[1]!.toLowerCase();
    if (p === "x") {
      base = 16;
      rest = rest.slice(2);
    } else if (p === "b") {
      base = 2;
      rest = rest.slice(2);
    } else if (p === "o") {
      base = 8;
      rest = rest.slice(2);
    } else {
      base = 8;
      rest = rest.slice(1);
    }
  }
  if (rest === "" || !DIGITS[base]!.test(rest)) return undefined;
  const prefix = base === 16 ? "0x" : base === 8 ? "0o" : base === 2 ? "0b" : "";
  const v = BigInt(prefix + rest);
  return neg ? -v : v;
}

/** Resolves a plain (unquoted, untagged) scalar as go-yaml v2 does. */
export function resolvePlain(s: string): GoScalar {
  if (plainIsString(s)) return { t: "str", v: s };
  if (s.length <= MAP_KEY_MAX) {
    const known = MAP.get(s);
    if (known) return known;
  }
  const c = s.charCodeAt(0);
  if (c === 0x2e /* . */) {
    if (DOT_FLOAT.test(s)) {
      const f = Number(s);
      if (Number.isFinite(f)) return { t: "float", v: f };
    }
    return { t: "str", v: s };
  }
  const isDigit = c >= 0x30 && c <= 0x39;
  if (!isDigit && c !== 0x2b && c !== 0x2d) return { t: "str", v: s };
  const plain = s.includes("_") ? s.replaceAll("_", "") : s;
  const i = parseGoInt(plain, true);
  if (i !== undefined && i >= INT64_MIN && i <= INT64_MAX) return { t: "int", v: i };
  const u = parseGoInt(plain, false);
  if (u !== undefined && u >= 0n && u <= UINT64_MAX) return { t: "uint", v: u };
  if (YAML_STYLE_FLOAT.test(plain)) {
    const f = Number(plain);
    if (Number.isFinite(f)) return { t: "float", v: f };
  }
  return { t: "str", v: s };
}

const TAG_PREFIX = "tag:yaml.org,2002:";

/** Expands `!!x` to `tag:yaml.org,2002:x` (other tags unchanged). */
export function longTag(tag: string): string {
  return tag.startsWith("!!") ? TAG_PREFIX + tag.slice(2) : tag.startsWith("!<") && tag.endsWith(">") ? tag.slice(2, -1) : tag;
}

function shortTag(tag: string): string {
  return tag.startsWith(TAG_PREFIX) ? "!!" + tag.slice(TAG_PREFIX.length) : tag;
}

function tagOf(r: GoScalar): string {
  switch (r.t) {
    case "null":
      return TAG_PREFIX + "null";
    case "bool":
      return TAG_PREFIX + "bool";
    case "int":
    case "uint":
      return TAG_PREFIX + "int";
    case "float":
      return TAG_PREFIX + "float";
    case "merge":
      return TAG_PREFIX + "merge";
    default:
      return TAG_PREFIX + "str";
  }
}

/** Thrown for values go-yaml refuses (`cannot decode !!str `x` as a !!int`, bad base64). */
export class YamlValueError extends Error {}

/**
 * Resolves a scalar with an explicit tag (long form). Non-standard tags (`!Ref`, `!foo`) leave the value a
 * string, as go-yaml v2 does for `interface{}` targets.
 */
export function resolveTagged(tag: string, s: string): GoScalar {
  const STR = TAG_PREFIX + "str";
  switch (tag) {
    case STR:
      return { t: "str", v: s };
    case TAG_PREFIX + "binary": {
      // Go's base64.StdEncoding: padding required, only \r and \n ignored
      const b64 = s.replace(/[\r\n]/g, "");
      if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(b64)) {
        throw new YamlValueError("yaml: !!binary value contains invalid base64 data");
      }
      const decoded = atob(b64);
      const bytes = Uint8Array.from(decoded, (ch) => ch.charCodeAt(0));
      return { t: "str", v: new TextDecoder().decode(bytes) };
    }
    case TAG_PREFIX + "bool":
    case TAG_PREFIX + "int":
    case TAG_PREFIX + "float":
    case TAG_PREFIX + "null":
    case TAG_PREFIX + "timestamp": {
      const r = resolvePlain(s);
      const rtag = r.t === "str" ? STR : tagOf(r);
      if (rtag === tag) return r;
      if (tag === TAG_PREFIX + "timestamp" && r.t === "str") return r;
      if (tag === TAG_PREFIX + "float" && r.t === "int") return { t: "float", v: Number(r.v) };
      throw new YamlValueError(`yaml: cannot decode ${shortTag(rtag)} \`${s}\` as a ${shortTag(tag)}`);
    }
    default:
      return { t: "str", v: s };
  }
}
