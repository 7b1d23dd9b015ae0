/**
 * Kubernetes' CEL libraries (apiserver `pkg/cel/library`): url, regex, lists, quantity, ip, cidr, semver and
 * format, as custom functions of the generic engine, with Kubernetes' overload ids and error texts.
 */
import {
  CelDuration,
  CelError,
  CelOptional,
  CelUint,
  type CelValue,
  type CustomFunction,
  celCompare,
  HashCelMap,
} from "../../cel/index.js";
import { compileRegex } from "../../cel/stdlib-impl/regex.js";
import {
  isDNS1035Label,
  isQualifiedName,
  isValidLabelValue,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
} from "../../objectmeta/names.js";
import { validatesFormat } from "../../validation/formats.js";
import { isRequestURI } from "../../go/url.js";
import { compileGoRegexp } from "../../go/regexp.js";
import { findAllIndex } from "../../go/regexp-find-all.js";
import {
  isGlobalUnicast,
  isLinkLocalMulticast,
  isLinkLocalUnicast,
  isLoopback,
  isUnspecified,
  addrString,
  is4,
  maskedPrefix,
  parseKubernetesCIDR,
  parseKubernetesIP,
  prefixContains,
  prefixOverlaps,
  prefixString,
} from "../../go/netip.js";
import {
  addQuantity,
  compareQuantity,
  parseQuantity,
  quantityAsApproximateFloat,
  quantityAsInt64,
  quantityFromInt,
  quantitySign,
  subQuantity,
} from "../lib/quantity.js";
import { parseURLValue } from "./url-value.js";
import { escapedPath, parseQuery, urlHostname, urlPort } from "../../go/url.js";
import {
  CIDR_TYPE,
  CIDRValue,
  FORMAT_TYPE,
  FormatValue,
  IP_TYPE,
  IPValue,
  QUANTITY_TYPE,
  QuantityValue,
  SEMVER_TYPE,
  SemverValue,
  URL_TYPE,
  type URLValue,
} from "./kube-values.js";
import { compareSemver, normalizeAndParseSemver, parseSemver } from "./semver.js";
import { kubeEquals } from "../values.js";

/** Opaque type names the libraries declare. */
export const KUBE_OPAQUE_TYPES = [QUANTITY_TYPE, URL_TYPE, IP_TYPE, CIDR_TYPE, SEMVER_TYPE, FORMAT_TYPE];
/** Those Kubernetes declares as object types (`cel.ObjectType`) rather than opaque ones (`net.IP`, `net.CIDR`). */
export const KUBE_OBJECT_TYPES = [QUANTITY_TYPE, URL_TYPE, SEMVER_TYPE, FORMAT_TYPE];

const Q = QUANTITY_TYPE;
type Impl = (...args: never[]) => unknown;
const fnImpl = <A extends unknown[]>(f: (...a: A) => CelValue): Impl => f as unknown as Impl;

// --- regex
function illegalRegex(re: string): CelError | undefined {
  const g = compileGoRegexp(re);
  return g.error !== undefined ? new CelError(`Illegal regex: ${g.error}`) : undefined;
}

function findAll(s: string, re: string, n: bigint): CelValue {
  const bad = illegalRegex(re);
  if (bad) return bad;
  const r = compileRegex(re);
  if (r instanceof CelError) return r;
  // Go's FindAllString (n < 0: all); n past the matches there can be is the same as all
  const limit = n < 0n || n > BigInt(s.length + 1) ? -1 : Number(n);
  return findAllIndex(r, s, limit).map(([start, end]) => s.slice(start, end));
}

// --- lists
function isSorted(l: readonly CelValue[]): CelValue {
  for (let i = 1; i < l.length; i++) {
    const c = celCompare(l[i - 1] as CelValue, l[i] as CelValue);
    if (c instanceof CelError) return c;
    if (c === undefined) return new CelError("no such overload");
    if (c === 1) return false;
  }
  return true;
}

function pick(op: "min" | "max", l: readonly CelValue[]): CelValue {
  if (l.length === 0) return new CelError(`${op} called on empty list`);
  let r = l[0] as CelValue;
  for (let i = 1; i < l.length; i++) {
    const c = celCompare(r, l[i] as CelValue);
    if (c instanceof CelError) return c;
    if ((op === "min" && c === 1) || (op === "max" && c === -1)) r = l[i] as CelValue;
  }
  return r;
}

const MAX_I64 = (1n << 63n) - 1n;
const MIN_I64 = -(1n << 63n);

function sum(kind: string, l: readonly CelValue[]): CelValue {
  switch (kind) {
    case "int": {
      let a = 0n;
      for (const x of l) {
        a += x as bigint;
        if (a > MAX_I64 || a < MIN_I64) return new CelError("integer overflow");
      }
      return a;
    }
    case "uint": {
      let a = 0n;
      for (const x of l) {
        a += (x as CelUint).value;
        if (a >= 1n << 64n) return new CelError("unsigned integer overflow");
      }
      return new CelUint(a);
    }
    case "double": {
      let a = 0;
      for (const x of l) a += x as number;
      return a;
    }
    default: {
      let a = 0n;
      for (const x of l) {
        a += (x as CelDuration).nanos;
        if (a > MAX_I64 || a < MIN_I64) return new CelError("integer overflow");
      }
      return new CelDuration(a);
    }
  }
}

function indexOf(l: readonly CelValue[], v: CelValue, last: boolean): CelValue {
  if (last) {
    for (let i = l.length - 1; i >= 0; i--) if (kubeEquals(l[i] as CelValue, v) === true) return BigInt(i);
  } else {
    for (let i = 0; i < l.length; i++) if (kubeEquals(l[i] as CelValue, v) === true) return BigInt(i);
  }
  return -1n;
}

const COMPARABLE: [string, string][] = [
  ["int", "int"],
  ["uint", "uint"],
  ["double", "double"],
  ["bool", "bool"],
  ["duration", "google.protobuf.Duration"],
  ["timestamp", "google.protobuf.Timestamp"],
  ["string", "string"],
  ["bytes", "bytes"],
];
const SUMMABLE = COMPARABLE.filter(([n]) => ["int", "uint", "double", "duration"].includes(n));

// --- quantity / ip / cidr / semver helpers
function toQuantity(s: string): CelValue {
  const q = parseQuantity(s);
  return typeof q === "string" ? new CelError(q) : new QuantityValue(q);
}

function toIP(s: string): CelValue {
  const a = parseKubernetesIP(s);
  return typeof a === "string" ? new CelError(a) : new IPValue(a);
}

function toCIDR(s: string): CelValue {
  const p = parseKubernetesCIDR(s);
  return typeof p === "string" ? new CelError(`network address parse error during conversion from string: ${p}`) : new CIDRValue(p);
}

function toSemver(s: string, normalize: boolean): CelValue {
  const v = normalize ? normalizeAndParseSemver(s) : parseSemver(s);
  return typeof v === "string" ? new CelError(v) : new SemverValue(v);
}

function cidrContainsCIDR(c: CIDRValue, o: CelValue): CelValue {
  if (!(o instanceof CIDRValue)) return o instanceof CelError ? o : new CelError("no such overload");
  return prefixOverlaps(c.prefix, o.prefix) && c.prefix.bits <= o.prefix.bits;
}

function cidrContainsIP(c: CIDRValue, o: CelValue): CelValue {
  if (!(o instanceof IPValue)) return o instanceof CelError ? o : new CelError("no such overload");
  return prefixContains(c.prefix, o.addr);
}

// --- formats
const BYTE_LEN = 84;
const URL_LEN = 1103;
const UUID_PATTERN_LEN = 85;
const DATETIME_PATTERN_LEN = 79;

/** `library.ConstantFormats`: CEL name → [format name, validator, max regex size]. */
export const CONSTANT_FORMATS: ReadonlyMap<string, FormatValue> = new Map(
  (
    [
      ["dns1123Label", "DNS1123Label", (s: string) => nameIsDNSLabel(s, false), 30],
      ["dns1123Subdomain", "DNS1123Subdomain", (s: string) => nameIsDNSSubdomain(s, false), 60],
      ["dns1035Label", "DNS1035Label", (s: string) => isDNS1035Label(s), 30],
      ["qualifiedName", "QualifiedName", isQualifiedName, 60],
      ["dns1123LabelPrefix", "DNS1123LabelPrefix", (s: string) => nameIsDNSLabel(s, true), 30],
      ["dns1123SubdomainPrefix", "DNS1123SubdomainPrefix", (s: string) => nameIsDNSSubdomain(s, true), 60],
      ["dns1035LabelPrefix", "DNS1035LabelPrefix", (s: string) => isDNS1035Label(s.length > 1 && s.endsWith("-") && s.charCodeAt(s.length - 2) < 0x80 ? `${s.slice(0, -2)}a` : s), 30],
      ["labelValue", "LabelValue", isValidLabelValue, 40],
      ["uri", "URI", (s: string) => (isRequestURI(s) ? [] : [uriError(s)]), URL_LEN],
      ["uuid", "uuid", (s: string) => (validatesFormat("uuid", s) ? [] : ["does not match the UUID format"]), UUID_PATTERN_LEN],
      ["byte", "byte", (s: string) => (validatesFormat("byte", s) ? [] : ["invalid base64"]), BYTE_LEN],
      ["date", "date", (s: string) => (validatesFormat("date", s) ? [] : ["invalid date"]), DATETIME_PATTERN_LEN],
      ["datetime", "datetime", (s: string) => (validatesFormat("datetime", s) ? [] : ["invalid datetime"]), DATETIME_PATTERN_LEN],
    ] as [string, string, (s: string) => string[], number][]
  ).map(([k, n, f, m]) => [k, new FormatValue(n, f, m)]),
);

/** The `url.ParseRequestURI` error text of a rejected URI. */
function uriError(s: string): string {
  const v = parseURLValue(s);
  return v instanceof CelError ? v.message.replace(/^URL parse error during conversion from string: /, "") : "invalid URI";
}

/** The Kubernetes library functions (newest versions, as the StoredExpressions environment). */
export function kubeLibraryFunctions(): CustomFunction[] {
  const u = (f: (x: URLValue) => CelValue) => fnImpl(f);
  const fns: CustomFunction[] = [
    // urls
    { name: "url", overloads: [{ id: "string_to_url", args: ["string"], result: URL_TYPE, impl: fnImpl((s: string) => parseURLValue(s)) }] },
    { name: "getScheme", overloads: [{ id: "url_get_scheme", member: true, args: [URL_TYPE], result: "string", impl: u((x) => x.url.scheme) }] },
    { name: "getHost", overloads: [{ id: "url_get_host", member: true, args: [URL_TYPE], result: "string", impl: u((x) => x.url.host) }] },
    { name: "getHostname", overloads: [{ id: "url_get_hostname", member: true, args: [URL_TYPE], result: "string", impl: u((x) => urlHostname(x.url)) }] },
    { name: "getPort", overloads: [{ id: "url_get_port", member: true, args: [URL_TYPE], result: "string", impl: u((x) => urlPort(x.url)) }] },
    { name: "getEscapedPath", overloads: [{ id: "url_get_escaped_path", member: true, args: [URL_TYPE], result: "string", impl: u((x) => escapedPath(x.url.rawPath)) }] },
    {
      name: "getQuery",
      overloads: [
        {
          id: "url_get_query",
          member: true,
          args: [URL_TYPE],
          result: "map(string, list(string))",
          impl: u((x) => {
            const m = new HashCelMap();
            for (const [k, v] of parseQuery(x.url.rawQuery)) m.set(k, v);
            return m;
          }),
        },
      ],
    },
    { name: "isURL", overloads: [{ id: "is_url_string", args: ["string"], result: "bool", impl: fnImpl((s: string) => isRequestURI(s)) }] },
    // regex
    {
      name: "find",
      overloads: [
        {
          id: "string_find_string",
          member: true,
          args: ["string", "string"],
          result: "string",
          impl: fnImpl((s: string, re: string) => {
            const r = findAll(s, re, 1n);
            return Array.isArray(r) ? ((r[0] as string | undefined) ?? "") : r;
          }),
        },
      ],
    },
    {
      name: "findAll",
      overloads: [
        { id: "string_find_all_string", member: true, args: ["string", "string"], result: "list(string)", impl: fnImpl((s: string, re: string) => findAll(s, re, -1n)) },
        { id: "string_find_all_string_int", member: true, args: ["string", "string", "int"], result: "list(string)", impl: fnImpl((s: string, re: string, n: bigint) => findAll(s, re, n)) },
      ],
    },
    // lists
    {
      name: "isSorted",
      overloads: COMPARABLE.map(([n, t]) => ({ id: `list_${n}_is_sorted_bool`, member: true, args: [`list(${t})`], result: "bool", impl: fnImpl(isSorted) })),
    },
    {
      name: "sum",
      overloads: SUMMABLE.map(([n, t]) => ({ id: `list_${n}_sum_${n}`, member: true, args: [`list(${t})`], result: t, impl: fnImpl((l: readonly CelValue[]) => sum(n, l)) })),
    },
    {
      name: "max",
      overloads: COMPARABLE.map(([n, t]) => ({ id: `list_${n}_max_${n}`, member: true, args: [`list(${t})`], result: t, impl: fnImpl((l: readonly CelValue[]) => pick("max", l)) })),
    },
    {
      name: "min",
      overloads: COMPARABLE.map(([n, t]) => ({ id: `list_${n}_min_${n}`, member: true, args: [`list(${t})`], result: t, impl: fnImpl((l: readonly CelValue[]) => pick("min", l)) })),
    },
    { name: "indexOf", overloads: [{ id: "list_a_index_of_int", member: true, args: ["list(A)", "A"], result: "int", impl: fnImpl((l: readonly CelValue[], v: CelValue) => indexOf(l, v, false)) }] },
    { name: "lastIndexOf", overloads: [{ id: "list_a_last_index_of_int", member: true, args: ["list(A)", "A"], result: "int", impl: fnImpl((l: readonly CelValue[], v: CelValue) => indexOf(l, v, true)) }] },
    {
      name: "includes",
      overloads: [
        {
          id: "list_includes_dyn_dyn",
          member: true,
          args: ["dyn", "dyn"],
          result: "bool",
          impl: fnImpl((t: CelValue, v: CelValue) => (Array.isArray(t) ? t.some((x) => kubeEquals(x as CelValue, v) === true) : kubeEquals(t, v) === true)),
        },
      ],
    },
    // quantity
    { name: "quantity", overloads: [{ id: "string_to_quantity", args: ["string"], result: Q, impl: fnImpl(toQuantity) }] },
    { name: "isQuantity", overloads: [{ id: "is_quantity_string", args: ["string"], result: "bool", impl: fnImpl((s: string) => typeof parseQuantity(s) !== "string") }] },
    { name: "sign", overloads: [{ id: "quantity_sign", args: [Q], result: "int", impl: fnImpl((q: QuantityValue) => BigInt(quantitySign(q.q))) }] },
    {
      name: "isGreaterThan",
      overloads: [
        { id: "quantity_is_greater_than", member: true, args: [Q, Q], result: "bool", impl: fnImpl((a: QuantityValue, b: QuantityValue) => compareQuantity(a.q, b.q) === 1) },
        { id: "semver_is_greater_than", member: true, args: [SEMVER_TYPE, SEMVER_TYPE], result: "bool", impl: fnImpl((a: SemverValue, b: SemverValue) => compareSemver(a.v, b.v) === 1) },
      ],
    },
    {
      name: "isLessThan",
      overloads: [
        { id: "quantity_is_less_than", member: true, args: [Q, Q], result: "bool", impl: fnImpl((a: QuantityValue, b: QuantityValue) => compareQuantity(a.q, b.q) === -1) },
        { id: "semver_is_less_than", member: true, args: [SEMVER_TYPE, SEMVER_TYPE], result: "bool", impl: fnImpl((a: SemverValue, b: SemverValue) => compareSemver(a.v, b.v) === -1) },
      ],
    },
    {
      name: "compareTo",
      overloads: [
        { id: "quantity_compare_to", member: true, args: [Q, Q], result: "int", impl: fnImpl((a: QuantityValue, b: QuantityValue) => BigInt(compareQuantity(a.q, b.q))) },
        { id: "semver_compare_to", member: true, args: [SEMVER_TYPE, SEMVER_TYPE], result: "int", impl: fnImpl((a: SemverValue, b: SemverValue) => BigInt(compareSemver(a.v, b.v))) },
      ],
    },
    { name: "asApproximateFloat", overloads: [{ id: "quantity_get_float", member: true, args: [Q], result: "double", impl: fnImpl((q: QuantityValue) => quantityAsApproximateFloat(q.q)) }] },
    {
      name: "asInteger",
      overloads: [
        {
          id: "quantity_get_int",
          member: true,
          args: [Q],
          result: "int",
          impl: fnImpl((q: QuantityValue) => quantityAsInt64(q.q) ?? new CelError("cannot convert value to integer")),
        },
      ],
    },
    { name: "isInteger", overloads: [{ id: "quantity_is_integer", member: true, args: [Q], result: "bool", impl: fnImpl((q: QuantityValue) => quantityAsInt64(q.q) !== undefined) }] },
    {
      name: "add",
      overloads: [
        { id: "quantity_add", member: true, args: [Q, Q], result: Q, impl: fnImpl((a: QuantityValue, b: QuantityValue) => new QuantityValue(addQuantity(a.q, b.q))) },
        { id: "quantity_add_int", member: true, args: [Q, "int"], result: Q, impl: fnImpl((a: QuantityValue, b: bigint) => new QuantityValue(addQuantity(a.q, quantityFromInt(b)))) },
      ],
    },
    {
      name: "sub",
      overloads: [
        { id: "quantity_sub", member: true, args: [Q, Q], result: Q, impl: fnImpl((a: QuantityValue, b: QuantityValue) => new QuantityValue(subQuantity(a.q, b.q))) },
        { id: "quantity_sub_int", member: true, args: [Q, "int"], result: Q, impl: fnImpl((a: QuantityValue, b: bigint) => new QuantityValue(subQuantity(a.q, quantityFromInt(b)))) },
      ],
    },
    // ip
    {
      name: "ip",
      overloads: [
        { id: "string_to_ip", args: ["string"], result: IP_TYPE, impl: fnImpl(toIP) },
        { id: "cidr_ip", member: true, args: [CIDR_TYPE], result: IP_TYPE, impl: fnImpl((c: CIDRValue) => new IPValue(c.prefix.addr)) },
      ],
    },
    {
      name: "family",
      overloads: [{ id: "ip_family", member: true, args: [IP_TYPE], result: "int", impl: fnImpl((a: IPValue) => (is4(a.addr) ? 4n : 6n)) }],
    },
    {
      name: "ip.isCanonical",
      overloads: [
        {
          id: "ip_is_canonical",
          args: ["string"],
          result: "bool",
          impl: fnImpl((s: string) => {
            const a = parseKubernetesIP(s);
            return typeof a === "string" ? new CelError(a) : addrString(a) === s;
          }),
        },
      ],
    },
    ...(
      [
        ["isUnspecified", "ip_is_unspecified", isUnspecified],
        ["isLoopback", "ip_is_loopback", isLoopback],
        ["isLinkLocalMulticast", "ip_is_link_local_multicast", isLinkLocalMulticast],
        ["isLinkLocalUnicast", "ip_is_link_local_unicast", isLinkLocalUnicast],
        ["isGlobalUnicast", "ip_is_global_unicast", isGlobalUnicast],
      ] as const
    ).map(([name, id, f]) => ({ name, overloads: [{ id, member: true, args: [IP_TYPE], result: "bool", impl: fnImpl((a: IPValue) => f(a.addr)) }] })),
    { name: "isIP", overloads: [{ id: "is_ip", args: ["string"], result: "bool", impl: fnImpl((s: string) => typeof parseKubernetesIP(s) !== "string") }] },
    {
      name: "string",
      overloads: [
        { id: "ip_to_string", args: [IP_TYPE], result: "string", impl: fnImpl((a: IPValue) => addrString(a.addr)) },
        { id: "cidr_to_string", args: [CIDR_TYPE], result: "string", impl: fnImpl((c: CIDRValue) => prefixString(c.prefix)) },
      ],
    },
    // cidr
    { name: "cidr", overloads: [{ id: "string_to_cidr", args: ["string"], result: CIDR_TYPE, impl: fnImpl(toCIDR) }] },
    {
      name: "containsIP",
      overloads: [
        { id: "cidr_contains_ip_string", member: true, args: [CIDR_TYPE, "string"], result: "bool", impl: fnImpl((c: CIDRValue, s: string) => cidrContainsIP(c, toIP(s))) },
        { id: "cidr_contains_ip_ip", member: true, args: [CIDR_TYPE, IP_TYPE], result: "bool", impl: fnImpl((c: CIDRValue, a: IPValue) => cidrContainsIP(c, a)) },
      ],
    },
    {
      name: "containsCIDR",
      overloads: [
        { id: "cidr_contains_cidr_string", member: true, args: [CIDR_TYPE, "string"], result: "bool", impl: fnImpl((c: CIDRValue, s: string) => cidrContainsCIDR(c, toCIDR(s))) },
        { id: "cidr_contains_cidr", member: true, args: [CIDR_TYPE, CIDR_TYPE], result: "bool", impl: fnImpl((c: CIDRValue, o: CIDRValue) => cidrContainsCIDR(c, o)) },
      ],
    },
    { name: "prefixLength", overloads: [{ id: "cidr_prefix_length", member: true, args: [CIDR_TYPE], result: "int", impl: fnImpl((c: CIDRValue) => BigInt(c.prefix.bits)) }] },
    { name: "masked", overloads: [{ id: "cidr_masked", member: true, args: [CIDR_TYPE], result: CIDR_TYPE, impl: fnImpl((c: CIDRValue) => new CIDRValue(maskedPrefix(c.prefix))) }] },
    { name: "isCIDR", overloads: [{ id: "is_cidr", args: ["string"], result: "bool", impl: fnImpl((s: string) => typeof parseKubernetesCIDR(s) !== "string") }] },
    // semver
    {
      name: "semver",
      overloads: [
        { id: "string_to_semver", args: ["string"], result: SEMVER_TYPE, impl: fnImpl((s: string) => toSemver(s, false)) },
        { id: "string_bool_to_semver", args: ["string", "bool"], result: SEMVER_TYPE, impl: fnImpl((s: string, n: boolean) => toSemver(s, n)) },
      ],
    },
    {
      name: "isSemver",
      overloads: [
        { id: "is_semver_string", args: ["string"], result: "bool", impl: fnImpl((s: string) => typeof parseSemver(s) !== "string") },
        { id: "is_semver_string_bool", args: ["string", "bool"], result: "bool", impl: fnImpl((s: string, n: boolean) => typeof (n ? normalizeAndParseSemver(s) : parseSemver(s)) !== "string") },
      ],
    },
    { name: "major", overloads: [{ id: "semver_major", member: true, args: [SEMVER_TYPE], result: "int", impl: fnImpl((v: SemverValue) => v.v.major) }] },
    { name: "minor", overloads: [{ id: "semver_minor", member: true, args: [SEMVER_TYPE], result: "int", impl: fnImpl((v: SemverValue) => v.v.minor) }] },
    { name: "patch", overloads: [{ id: "semver_patch", member: true, args: [SEMVER_TYPE], result: "int", impl: fnImpl((v: SemverValue) => v.v.patch) }] },
    // format
    {
      name: "validate",
      overloads: [
        {
          id: "format-validate",
          member: true,
          args: [FORMAT_TYPE, "string"],
          result: "optional_type(list(string))",
          impl: fnImpl((f: FormatValue, s: string) => {
            const r = f.validate(s);
            return r.length === 0 ? CelOptional.NONE : CelOptional.of(r);
          }),
        },
      ],
    },
    {
      name: "format.named",
      overloads: [
        {
          id: "format-named",
          args: ["string"],
          result: `optional_type(${FORMAT_TYPE})`,
          impl: fnImpl((n: string) => {
            const f = Object.hasOwn(FORMAT_KEYS, n) ? CONSTANT_FORMATS.get(n) : undefined;
            return f ? CelOptional.of(f) : CelOptional.NONE;
          }),
        },
      ],
    },
    ...[...CONSTANT_FORMATS].map(([k, f]) => ({
      name: `format.${k}`,
      overloads: [{ id: `format.${k}`, args: [], result: FORMAT_TYPE, impl: fnImpl(() => f) }],
    })),
  ];
  return fns;
}

const FORMAT_KEYS: Record<string, true> = Object.fromEntries([...CONSTANT_FORMATS.keys()].map((k) => [k, true]));
