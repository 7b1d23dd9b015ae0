/**
 * apimachinery `util/validation` name checks used by CRD validation (`IsDNS1035Label`,
 * `IsDNS1123Subdomain`, `IsDNS1123Label`), returning Kubernetes' message strings.
 */

const DNS1035_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_RE = new RegExp(`^${DNS1035_FMT}$`);
const DNS1035_MSG = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUB_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUB_RE = new RegExp(`^${DNS1123_SUB_FMT}$`);
const DNS1123_SUB_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/** `validation.RegexError(msg, fmt, examples...)`. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  // Go appends "', " after every example and joins with " or ": `(e.g. 'a',  or 'b', regex used ...)`.
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(" or ")}regex used for validation is '${fmt}')`;
}

/** `validation.MaxLenError(n)`. */
export function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

/** `IsDNS1035Label`. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push(maxLenError(63));
  if (!DNS1035_RE.test(value)) errs.push(regexError(DNS1035_MSG, DNS1035_FMT, "my-name", "abc-123"));
  return errs;
}

/** `IsDNS1123Subdomain`. */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!DNS1123_SUB_RE.test(value)) errs.push(regexError(DNS1123_SUB_MSG, DNS1123_SUB_FMT, "example.com"));
  return errs;
}
