/**
 * apiserver `pkg/util/webhook/validation.go`: conversion webhook URL, service and CA bundle checks.
 */
import { type FieldError, fieldError } from "../errors/field-error.js";
import type { FieldPath } from "../errors/field-path.js";
import { isDNS1123Subdomain } from "../objectmeta/names.js";

interface ParsedUrl {
  scheme: string;
  user?: string;
  host: string;
  rawQuery: string;
  fragment: string;
}

/** A small subset of Go `url.Parse` sufficient for webhook URL checks. */
function parseUrl(raw: string): ParsedUrl | string {
  if (/[\x00-\x1f\x7f]/.test(raw)) return `parse ${JSON.stringify(raw)}: net/url: invalid control character in URL`;
  let rest = raw;
  let fragment = "";
  const hash = rest.indexOf("#");
  if (hash >= 0) {
    fragment = decodeURIComponentSafe(rest.slice(hash + 1));
    rest = rest.slice(0, hash);
  }
  let scheme = "";
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = m[1]!.toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (/^[^/?]*:/.test(rest) && !rest.startsWith("/")) {
    if (rest.startsWith(":")) return `parse ${JSON.stringify(raw)}: missing protocol scheme`;
    return `parse ${JSON.stringify(raw)}: first path segment in URL cannot contain colon`;
  }
  let rawQuery = "";
  const q = rest.indexOf("?");
  if (q >= 0) {
    rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  let host = "";
  let user: string | undefined;
  if (rest.startsWith("//")) {
    let authority = rest.slice(2);
    const slash = authority.indexOf("/");
    if (slash >= 0) authority = authority.slice(0, slash);
    const at = authority.lastIndexOf("@");
    if (at >= 0) {
      user = authority.slice(0, at);
      authority = authority.slice(at + 1);
    }
    if (/[\s<>"{}|\\^`]/.test(authority)) return `parse ${JSON.stringify(raw)}: invalid character ${JSON.stringify(authority.match(/[\s<>"{}|\\^`]/)![0])} in host name`;
    host = authority;
  }
  const out: ParsedUrl = { scheme, host, rawQuery, fragment };
  if (user !== undefined) out.user = user;
  return out;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const FORM = "; desired format: https://host[/path]";

/** `ValidateWebhookURL(fldPath, URL, forceHttps=true)`. */
export function validateWebhookURL(p: FieldPath, url: string): FieldError[] {
  const u = parseUrl(url);
  if (typeof u === "string") return [fieldError.required(p, `url must be a valid URL: ${u}${FORM}`)];
  const errs: FieldError[] = [];
  if (u.scheme !== "https") errs.push(fieldError.invalid(p, u.scheme, `'https' is the only allowed URL scheme${FORM}`));
  if (u.host.length === 0) errs.push(fieldError.invalid(p, u.host, `host must be specified${FORM}`));
  if (u.user !== undefined) errs.push(fieldError.invalid(p, u.user, "user information is not permitted in the URL"));
  if (u.fragment.length !== 0) errs.push(fieldError.invalid(p, u.fragment, "fragments are not permitted in the URL"));
  if (u.rawQuery.length !== 0) errs.push(fieldError.invalid(p, u.rawQuery, "query parameters are not permitted in the URL"));
  return errs;
}

/** `ValidateWebhookService`. */
export function validateWebhookService(p: FieldPath, namespace: string, name: string, path: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (name.length === 0) errs.push(fieldError.required(p.child("name"), ""));
  if (namespace.length === 0) errs.push(fieldError.required(p.child("namespace"), ""));
  if (port < 1 || port > 65535) errs.push(fieldError.invalid(p.child("port"), port, "port is not valid: must be between 1 and 65535, inclusive"));
  if (path === undefined || path === "/" || path.length === 0) return errs;
  if (path === "//") {
    errs.push(fieldError.invalid(p.child("path"), path, "segment[0] may not be empty"));
    return errs;
  }
  if (!path.startsWith("/")) errs.push(fieldError.invalid(p.child("path"), path, "must start with a '/'"));
  let check = path.slice(1);
  if (check.endsWith("/")) check = check.slice(0, -1);
  check.split("/").forEach((step, i) => {
    if (step.length === 0) {
      errs.push(fieldError.invalid(p.child("path"), path, `segment[${i}] may not be empty`));
      return;
    }
    for (const f of isDNS1123Subdomain(step)) errs.push(fieldError.invalid(p.child("path"), path, `segment[${i}]: ${f}`));
  });
  return errs;
}

/** `ValidateCABundle`: the bundle must contain at least one PEM certificate. */
export function validateCABundle(p: FieldPath, caBundleBase64: string): FieldError[] {
  let text = "";
  try {
    text = atob(caBundleBase64);
  } catch {
    text = "";
  }
  if (/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(text)) return [];
  return [fieldError.invalid(p, caBundleBase64, "unable to load root certificates: unable to parse bytes as PEM block")];
}
