/**
 * Kubernetes name and label format checks with their exact messages (apimachinery `util/validation`,
 * `api/validate/content`, `api/validation/generic.go`). Lengths are UTF-8 byte lengths, as Go's `len`.
 * Note the two `MaxLenError` flavours: `util/validation` says "characters", `validate/content` "bytes".
 */

const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const LABEL_KEY_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_ERR =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

const dns1123LabelRe = new RegExp(`^${DNS1123_LABEL_FMT}$`);
const dns1123SubdomainRe = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const dns1035LabelRe = new RegExp(`^${DNS1035_LABEL_FMT}$`);
const labelKeyRe = new RegExp(`^${LABEL_KEY_FMT}$`);
const labelValueRe = new RegExp(`^${LABEL_VALUE_FMT}$`);

const encoder = new TextEncoder();
const ASCII = /^[\x00-\x7f]*$/;

/** Go `len(s)`: the UTF-8 byte length. */
export function byteLength(s: string): number {
  return ASCII.test(s) ? s.length : encoder.encode(s).length;
}

/** `validation.RegexError(msg, fmt, examples...)`. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${fmt}')`;
}

/** `util/validation.MaxLenError` ("characters"). */
export function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

/** `validate/content.MaxLenError` ("bytes"). */
function maxBytesError(n: number): string {
  return `must be no more than ${n} bytes`;
}

/** `validation.IsDNS1123Label`. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!dns1123LabelRe.test(value)) {
    if (dns1123SubdomainRe.test(value)) errs.push("must not contain dots");
    else errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, "my-name", "123-abc"));
  }
  return errs;
}

function subdomain(value: string, lenErr: (n: number) => string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 253) errs.push(lenErr(253));
  if (!dns1123SubdomainRe.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, "example.com"));
  return errs;
}

/** `validation.IsDNS1123Subdomain` ("must be no more than 253 characters"). */
export function isDNS1123Subdomain(value: string): string[] {
  return subdomain(value, maxLenError);
}

/** `validation.IsDNS1035Label`. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxLenError(63));
  if (!dns1035LabelRe.test(value)) errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, "my-name", "abc-123"));
  return errs;
}

/** `validation.IsQualifiedName` (= `content.IsLabelKey`): label keys, annotation keys, finalizers. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split("/");
  let name: string;
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push("prefix part must be non-empty");
    else for (const m of subdomain(prefix, maxBytesError)) errs.push("prefix part " + m);
  } else {
    return [
      "a valid label key " +
        regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, "MyName", "my.name", "123-abc") +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push("name part must be non-empty");
  else if (byteLength(name) > 63) errs.push("name part " + maxBytesError(63));
  if (!labelKeyRe.test(name)) errs.push("name part " + regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, "MyName", "my.name", "123-abc"));
  return errs;
}

/** `validation.IsValidLabelValue` (= `content.IsLabelValue`). */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > 63) errs.push(maxBytesError(63));
  if (!labelValueRe.test(value)) errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
  return errs;
}

/** `content.IsPathSegmentName`: not `.`/`..`, no `/` or `%`. */
export function isPathSegmentName(name: string): string[] {
  if (name === "." || name === "..") return [`may not be '${name}'`];
  return isPathSegmentPrefix(name);
}

/** `content.IsPathSegmentPrefix`. */
export function isPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  if (name.includes("/")) errs.push("may not contain '/'");
  if (name.includes("%")) errs.push("may not contain '%'");
  return errs;
}

/** A `ValidateNameFunc`: messages for a name (`prefix`: a generateName that gets a suffix appended). */
export type NameValidator = (name: string, prefix: boolean) => string[];

/**
 * Go's `maskTrailingDash`: for a prefix ending in `-`, the last TWO bytes are replaced by `a` (sic). Kept
 * byte-faithful: a multi-byte character cut in half stays non-ASCII (and so still fails the regex).
 */
function maskTrailingDash(name: string): string {
  if (byteLength(name) <= 1 || !name.endsWith("-")) return name;
  const rest = name.slice(0, -1);
  const last = rest.codePointAt(rest.length - 1 - (rest.length >= 2 && /[\udc00-\udfff]$/.test(rest) ? 1 : 0));
  if (last === undefined) return "a";
  if (last < 0x80) return rest.slice(0, -1) + "a";
  const cpLen = last > 0xffff ? 2 : 1;
  const bytes = last < 0x800 ? 2 : last < 0x10000 ? 3 : 4;
  // Go keeps bytes-1 bytes of that character (invalid UTF-8) and appends "a": same byte length.
  const filler = bytes === 2 ? "\u0080" : bytes === 3 ? "\u0800" : "\u{10000}";
  return rest.slice(0, -cpLen) + filler;
}

/** `validation.NameIsDNSSubdomain` (the custom-resource name rule). */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** `validation.NameIsDNSLabel` (= `ValidateNamespaceName`). */
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** The generic registry's `validatePathSegment` name rule. */
export const validatePathSegment: NameValidator = (name, prefix) =>
  prefix ? isPathSegmentPrefix(name) : isPathSegmentName(name);
