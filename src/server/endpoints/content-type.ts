/**
 * Request body media types as the API server negotiates them (apiserver `negotiation`,
 * `NegotiateInputSerializerForMediaType`, Go's `mime.ParseMediaType`; patch handler's Content-Type check).
 */
import { apiErrors } from "./errors.js";

/** What a custom resource's serializer decodes, in the API server's order (CBOR is behind a disabled gate). */
export const BODY_MEDIA_TYPES = ["application/json", "application/yaml", "application/vnd.kubernetes.protobuf"] as const;
export type BodyMediaType = (typeof BODY_MEDIA_TYPES)[number];

/** The patch types a custom resource accepts. */
export const PATCH_TYPES = ["application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"] as const;
export type PatchType = (typeof PATCH_TYPES)[number];

/**
 * Go's `mime.ParseMediaType` reduced to what negotiation uses: the lower-cased `type[/subtype]`, or
 * undefined when it reports an error (bad type, a parameter that does not parse — one trailing `;` is
 * allowed —, a repeated parameter with another value).
 */
export function parseMediaType(header: string): string | undefined {
  const semi = header.indexOf(";");
  const base = semi < 0 ? header : header.slice(0, semi);
  const type = base.trim().toLowerCase();
  if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+(\/[!#$%&'*+\-.^_`|~0-9a-z]+)?$/.test(type)) return undefined;
  const params = new Map<string, string>();
  let v = header.slice(base.length);
  while (v.length > 0) {
    v = v.trimStart();
    if (v.length === 0) break;
    const m = PARAM.exec(v);
    if (!m) {
      if (v.trim() === ";") break;
      return undefined;
    }
    const key = m[1]!.toLowerCase();
    const value = m[2]!.startsWith('"') ? m[2]!.slice(1, -1).replace(/\\(.)/g, "$1") : m[2]!;
    if (params.has(key) && params.get(key) !== value) return undefined;
    params.set(key, value);
    v = v.slice(m[0].length);
  }
  return type;
}

const PARAM = /^;\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*("(?:[^"\\]|\\.)*"|[!#$%&'*+\-.^_`|~0-9A-Za-z]+)/;

/**
 * The serializer for a create/update body: a missing Content-Type means the first supported type (JSON),
 * anything else not supported is 415 with the supported list.
 */
export function negotiateBodyType(header: string | undefined, supported: readonly string[] = BODY_MEDIA_TYPES): BodyMediaType {
  const t = header === undefined || header === "" ? supported[0]! : parseMediaType(header);
  if (t !== undefined && supported.includes(t)) return t as BodyMediaType;
  throw apiErrors.unsupportedMediaType(supported);
}

/** The patch handler's check: the Content-Type up to its first `;`, compared exactly. */
export function negotiatePatchType(header: string | undefined, supported: readonly string[] = PATCH_TYPES): string {
  let t = header ?? "";
  const i = t.indexOf(";");
  if (i > 0) t = t.slice(0, i);
  if (supported.includes(t)) return t;
  throw apiErrors.unsupportedMediaType(supported);
}
