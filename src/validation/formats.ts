/**
 * String formats: kube-openapi's `strfmt.Default` registry (names normalized by removing `-`) and the
 * API server's supported-format post-processing (`StripUnsupportedFormatsPostProcessorForVersion`,
 * `GetUnrecognizedFormats`).
 */
import type { JSONSchemaProps } from "../crd/types.js";
import { mustCompileGoRegexp } from "../go/regexp.js";
import { isEmail } from "../go/mail.js";
import { parseCIDRSloppy, parseIP, parseIPSloppy, parseMAC } from "../go/net.js";
import { isDate, isDateTime, isDuration, utf8Length } from "./strfmt-time.js";
import { isRequestURI } from "../go/url.js";

/** A format checker: true when the string is valid. */
export type FormatValidator = (s: string) => boolean;

/** strfmt's name normalization (`date-time` ≡ `datetime`). */
export function normalizeFormatName(name: string): string {
  return name.replaceAll("-", "");
}

/** A Go-regexp matcher compiled on first use (compiling every format's pattern at load costs ~40 ms). */
const rx = (p: string) => {
  let r: ReturnType<typeof mustCompileGoRegexp> | undefined;
  return (s: string) => (r ??= mustCompileGoRegexp(p)).test(s);
};

const HOSTNAME = rx(
  String.raw`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`,
);
const UUID = rx("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
const UUID3 = rx("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$");
const UUID4 = rx("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
const UUID5 = rx("(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$");
const CREDIT_CARD = rx(
  String.raw`^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$`,
);
const ISBN10 = rx("^(?:[0-9]{9}X|[0-9]{10})$");
const ISBN13 = rx("^(?:[0-9]{13})$");
const HEXCOLOR = rx("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");
const RGBCOLOR = rx(
  String.raw`^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$`,
);
const BASE64 = rx(String.raw`^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`);
const SSN = rx(String.raw`^\d{3}[- ]?\d{2}[- ]?\d{4}$`);
const SHORT_NAME = rx("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
const LONG_NAME = rx(String.raw`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`);

function isHostname(s: string): boolean {
  if (!HOSTNAME(s)) return false;
  if (utf8Length(s) > 255) return false;
  return s.split(".").every((p) => utf8Length(p) <= 63);
}

/** govalidator `IsISBN(str, 10|13)`. */
function isISBN(s: string, version: 10 | 13): boolean {
  const san = s.replace(/[\t\n\f\r -]+/g, "");
  if (version === 10) {
    if (!ISBN10(san)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * (san.charCodeAt(i) - 48);
    sum += san[9] === "X" ? 100 : 10 * (san.charCodeAt(9) - 48);
    return sum % 11 === 0;
  }
  if (!ISBN13(san)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (san.charCodeAt(i) - 48);
  return san.charCodeAt(12) - 48 - ((10 - (sum % 10)) % 10) === 0;
}

/** govalidator `IsCreditCard`: digits only (other characters removed), pattern, Luhn checksum. */
function isCreditCard(s: string): boolean {
  const san = s.replace(/[^0-9]+/g, "");
  if (!CREDIT_CARD(san)) return false;
  let sum = 0;
  let dbl = false;
  for (let i = san.length - 1; i >= 0; i--) {
    let d = san.charCodeAt(i) - 48;
    if (dbl) {
      d *= 2;
      sum += d >= 10 ? (d % 10) + 1 : d;
    } else sum += d;
    dbl = !dbl;
  }
  return sum % 10 === 0;
}

function isBSONObjectID(s: string): boolean {
  return /^[0-9a-fA-F]{24}$/.test(s);
}

/** `strfmt.Default`: normalized name → validator (exactly the 26 formats kube-openapi registers). */
export const formatRegistry: ReadonlyMap<string, FormatValidator> = new Map<string, FormatValidator>([
  ["uri", isRequestURI],
  ["email", isEmail],
  ["hostname", isHostname],
  ["ipv4", (s) => parseIPSloppy(s) && s.includes(".")],
  ["ipv6", (s) => parseIP(s) && s.includes(":")],
  ["cidr", parseCIDRSloppy],
  ["mac", parseMAC],
  ["uuid", UUID],
  ["uuid3", UUID3],
  ["uuid4", UUID4],
  ["uuid5", UUID5],
  ["isbn", (s) => isISBN(s, 10) || isISBN(s, 13)],
  ["isbn10", (s) => isISBN(s, 10)],
  ["isbn13", (s) => isISBN(s, 13)],
  ["creditcard", isCreditCard],
  ["ssn", (s) => s.length === 11 && utf8Length(s) === 11 && SSN(s)],
  ["hexcolor", HEXCOLOR],
  ["rgbcolor", RGBCOLOR],
  ["byte", BASE64],
  ["password", () => true],
  ["bsonobjectid", isBSONObjectID],
  ["date", isDate],
  ["datetime", isDateTime],
  ["duration", isDuration],
  ["k8sshortname", (s) => s.length <= 63 && SHORT_NAME(s)],
  ["k8slongname", (s) => s.length <= 253 && LONG_NAME(s)],
]);

/** The registry validator for a format name (normalized lookup), or undefined when not registered. */
export function lookupFormat(name: string): FormatValidator | undefined {
  return formatRegistry.get(normalizeFormatName(name));
}

/** `strfmt.Default.Validates(name, s)`: false for unknown formats. */
export function validatesFormat(name: string, s: string): boolean {
  const f = lookupFormat(name);
  return f ? f(s) : false;
}

/** A Kubernetes compatibility version (`major.minor`). */
export interface CompatibilityVersion {
  major: number;
  minor: number;
}

/** The newest compatibility version crdkit models (formats of every version are supported). */
export const NEWEST_COMPATIBILITY_VERSION: CompatibilityVersion = { major: 1, minor: 37 };

const FORMATS_1_0 = [
  "bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac", "uuid", "uuid3", "uuid4", "uuid5",
  "isbn", "isbn10", "isbn13", "creditcard", "ssn", "hexcolor", "rgbcolor", "byte", "password", "date", "duration",
  "datetime",
];
const FORMATS_1_34 = ["k8sshortname", "k8slongname"];

/** The normalized names of the string formats supported at a compatibility version. */
export function supportedFormats(v: CompatibilityVersion = NEWEST_COMPATIBILITY_VERSION): ReadonlySet<string> {
  const atLeast134 = v.major > 1 || (v.major === 1 && v.minor >= 34);
  // two sets, built once (asked for per schema node)
  if (atLeast134) return (FORMATS_SINCE_1_34 ??= new Set([...FORMATS_1_0, ...FORMATS_1_34]));
  return (FORMATS_BEFORE_1_34 ??= new Set(FORMATS_1_0));
}

let FORMATS_SINCE_1_34: ReadonlySet<string> | undefined;
let FORMATS_BEFORE_1_34: ReadonlySet<string> | undefined;

/**
 * The format kept on a schema node after `StripUnsupportedFormatsPostProcessorForVersion`: string (or
 * untyped / multi-typed) nodes keep supported string formats, integer nodes int32/int64, number nodes
 * float/double, every other type drops its format. Returns "" when dropped.
 */
export function effectiveFormat(
  types: readonly string[],
  format: string | undefined,
  supported: ReadonlySet<string> = supportedFormats(),
): string {
  if (!format) return "";
  const t = types.length === 1 ? types[0]! : "";
  switch (t) {
    case "":
    case "string":
      return supported.has(normalizeFormatName(format)) ? format : "";
    case "integer":
      return format === "int32" || format === "int64" ? format : "";
    case "number":
      return format === "float" || format === "double" ? format : "";
    default:
      return "";
  }
}

/**
 * `GetUnrecognizedFormats` of one schema node (not recursive), as the CRD strategy calls it: the node is
 * converted with `Type: []string{s.Type}` (x-kubernetes-int-or-string ignored, no type ⇒ `""`), and the
 * format is reported when post-processing would strip it.
 */
export function getUnrecognizedFormats(
  schema: JSONSchemaProps,
  version: CompatibilityVersion = NEWEST_COMPATIBILITY_VERSION,
): string[] {
  if (!schema.format) return [];
  return effectiveFormat([schema.type ?? ""], schema.format, supportedFormats(version)) === "" ? [schema.format] : [];
}

/** `validation.SchemaHas` traversal order (properties in declaration order; Go iterates maps randomly). */
function visitSchema(s: JSONSchemaProps | undefined | null, f: (s: JSONSchemaProps) => void): void {
  if (!s || typeof s !== "object") return;
  f(s);
  if (Array.isArray(s.items)) for (const x of s.items) visitSchema(x, f);
  else visitSchema(s.items, f);
  for (const x of s.allOf ?? []) visitSchema(x, f);
  for (const x of s.anyOf ?? []) visitSchema(x, f);
  for (const x of s.oneOf ?? []) visitSchema(x, f);
  visitSchema(s.not, f);
  for (const x of Object.values(s.properties ?? {})) visitSchema(x, f);
  if (typeof s.additionalProperties === "object") visitSchema(s.additionalProperties, f);
  for (const x of Object.values(s.patternProperties ?? {})) visitSchema(x, f);
  if (typeof s.additionalItems === "object") visitSchema(s.additionalItems, f);
  for (const x of Object.values(s.definitions ?? {})) visitSchema(x, f);
  for (const d of Object.values(s.dependencies ?? {})) if (!Array.isArray(d)) visitSchema(d, f);
}

/**
 * `getUnrecognizedFormatsInSchema` (CRD registry strategy): every unrecognized format in a schema tree,
 * in traversal order, with repeats. CRD create warns `unrecognized format "<f>"` for each; update only
 * for formats not already unrecognized in the old CRD.
 */
export function getUnrecognizedFormatsInSchema(
  schema: JSONSchemaProps | undefined | null,
  version: CompatibilityVersion = NEWEST_COMPATIBILITY_VERSION,
): string[] {
  const out: string[] = [];
  visitSchema(schema, (s) => {
    for (const f of getUnrecognizedFormats(s, version)) out.push(f);
  });
  return out;
}
