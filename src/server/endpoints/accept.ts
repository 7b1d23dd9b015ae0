/**
 * Response media-type negotiation of resource requests, reduced to the API server's accept/refuse decision
 * (apiserver `NegotiateMediaTypeOptions`, `acceptMediaTypeOptions`, `RequestScope.AllowsMediaTypeTransform`
 * with the custom resource handler's standard serializers; goautoneg's Accept parsing): the handler serves
 * JSON and YAML (and Table / PartialObjectMetadata conversions); an `Accept` header none of whose clauses it
 * can answer gets 406 with the API server's text. Custom resources are never sent as protobuf.
 */
import { failureStatus } from "../../errors/index.js";
import { ApiError } from "./errors.js";
import { statusIndentedJson, statusProtobuf } from "./status-encodings.js";

/** A custom resource serializer's media types, in order ([type, subtype, has a stream serializer]). */
const SUPPORTED: readonly [string, string, boolean][] = [
  ["application", "json", true],
  ["application", "yaml", false],
  ["application", "vnd.kubernetes.protobuf", true],
];
/** Without a conversion, only these may be sent for custom resources (`StandardSerializers`). */
const STANDARD = new Set(["application/json", "application/yaml"]);

interface Clause {
  type: string;
  subType: string;
  params: Map<string, string>;
}

/** goautoneg's `ParseAccept`, clauses in its order: quality, then specific types before wildcards, then more parameters. */
function parseAccept(header: string): Clause[] {
  const out: (Clause & { q: number; i: number })[] = [];
  for (const raw of header.split(",")) {
    const [range = "", ...paramParts] = raw.trim().split(";");
    const slash = range.split("/");
    const type = slash[0]!.trim();
    let subType: string;
    if (slash.length === 1) {
      if (type !== "*") continue;
      subType = "*";
    } else if (slash.length === 2) subType = slash[1]!.trim();
    else continue;
    const params = new Map<string, string>();
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf("=");
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim();
      if (k === "q") {
        q = Number.parseFloat(p.slice(eq + 1).trim()) || 0;
        continue;
      }
      params.set(k, p.slice(eq + 1).trim());
    }
    out.push({ type, subType, params, q, i: out.length });
  }
  const spec = (c: Clause) => (c.type === "*" ? 0 : 2) + (c.subType === "*" ? 0 : 1);
  return out.sort((a, b) => b.q - a.q || spec(b) - spec(a) || b.params.size - a.params.size || a.i - b.i);
}

/** `acceptMediaTypeOptions` + `AllowsMediaTypeTransform` for one supported media type (`builtin`: a built-in kind, served in protobuf too). */
function allows(params: Map<string, string>, [type, subType, streams]: readonly [string, string, boolean], builtin = false): boolean {
  let convert: { kind: string; group: string; version: string } | undefined;
  for (const [k, v] of params) {
    if (k === "as" || k === "g" || k === "v") {
      convert ??= { kind: "", group: "", version: "" };
      if (k === "as") convert.kind = v;
      else if (k === "g") convert.group = v;
      else convert.version = v;
    } else if (k === "stream") {
      if (v.length > 0 && (!streams || v !== "watch")) return false;
    } else if (k === "sv") {
      if (v.length > 0 && v !== "v1") return false;
    }
  }
  if (!convert) return builtin || STANDARD.has(`${type}/${subType}`);
  if (convert.group === "meta.k8s.io" && (convert.version === "v1" || convert.version === "v1beta1")) {
    if (convert.kind === "Table") return type === "application" && (subType === "json" || subType === "yaml");
    return convert.kind === "PartialObjectMetadata" || convert.kind === "PartialObjectMetadataList";
  }
  return false;
}

/** A conversion of the answer an Accept clause asks for (`as`, `g`, `v`). */
export interface OutputConversion {
  kind: "Table" | "PartialObjectMetadata" | "PartialObjectMetadataList";
  /** `meta.k8s.io/v1` or `meta.k8s.io/v1beta1`. */
  apiVersion: string;
}

/** The answer the negotiation picks: its media subtype (json, yaml, vnd.kubernetes.protobuf) and conversion. */
export interface NegotiatedOutput {
  subType: string;
  convert?: OutputConversion;
}

/**
 * The clause `NegotiateOutputMediaType` picks for a resource answer (the first acceptable one in goautoneg's
 * order), or undefined when none is acceptable (answered by {@link acceptable}'s 406 before).
 */
export function negotiatedOutput(accept: string | undefined): NegotiatedOutput | undefined {
  if (accept === undefined || accept.trim() === "") return { subType: "json" };
  for (const c of parseAccept(accept)) {
    for (const s of SUPPORTED) {
      const matches = (c.type === s[0] && (c.subType === s[1] || c.subType === "*")) || (c.type === "*" && c.subType === "*");
      if (!matches || !allows(c.params, s)) continue;
      const as = c.params.get("as");
      if (as === undefined) return { subType: s[1] };
      return { subType: s[1], convert: { kind: as as OutputConversion["kind"], apiVersion: `meta.k8s.io/${c.params.get("v")}` } };
    }
  }
  return undefined;
}

/**
 * Whether an error answer goes out as indented JSON: `ErrorNegotiated` negotiates without conversions, and when
 * no clause of the Accept header is then acceptable it writes the Status with `WriteRawJSON` (indented).
 */
export function errorsIndented(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === "") return false;
  for (const c of parseAccept(accept)) {
    if (c.params.has("as") || c.params.has("g") || c.params.has("v")) continue;
    // Any serializer of the scope may carry a Status (protobuf too: no StandardSerializers restriction for errors).
    if (SUPPORTED.some((s) => (c.type === s[0] && (c.subType === s[1] || c.subType === "*")) || (c.type === "*" && c.subType === "*"))) return false;
  }
  return true;
}

/**
 * Whether `accept` (an HTTP Accept header) allows a media type crdkit can answer with (`builtin`: the
 * handler's negotiation for a built-in kind, which also offers protobuf).
 */
export function acceptable(accept: string | undefined, builtin = false): boolean {
  if (accept === undefined || accept.trim() === "") return true;
  for (const c of parseAccept(accept)) {
    for (const s of SUPPORTED) {
      const matches = (c.type === s[0] && (c.subType === s[1] || c.subType === "*")) || (c.type === "*" && c.subType === "*");
      if (matches && allows(c.params, s, builtin)) return true;
    }
  }
  return false;
}

/**
 * Whether an error answer goes out in protobuf: `ErrorNegotiated`'s first acceptable clause (no conversion)
 * is `application/vnd.kubernetes.protobuf` (wildcards pick JSON first).
 */
export function errorsProtobuf(accept: string | undefined): boolean {
  if (accept === undefined || !accept.includes("protobuf")) return false;
  for (const c of parseAccept(accept)) {
    if (c.params.has("as") || c.params.has("g") || c.params.has("v")) continue;
    const m = SUPPORTED.find((s) => (c.type === s[0] && (c.subType === s[1] || c.subType === "*")) || (c.type === "*" && c.subType === "*"));
    if (m) return m[1] === "vnd.kubernetes.protobuf";
  }
  return false;
}

/** The media types a built-in group's routes produce (`MediaTypesForSerializer`); list routes add the stream types. */
const RESTFUL_PRODUCES = ["application/json", "application/yaml", "application/vnd.kubernetes.protobuf"];
const RESTFUL_STREAMS = ["application/json;stream=watch", "application/vnd.kubernetes.protobuf;stream=watch"];

/** go-restful's split of a header's media types: at each comma, up to the first `;`, spaces trimmed. */
function restfulMediaTypes(header: string): string[] {
  return header.split(",").map((m) => {
    const i = m.indexOf(";");
    return (i < 0 ? m : m.slice(0, i)).replace(/^ +| +$/g, "");
  });
}

/**
 * go-restful's route selection for a built-in group's resource (RouterJSR311 `detectRoute`): a PATCH whose
 * Content-Type names none of the patch types is `415: Unsupported Media Type`, then an Accept header naming
 * none of the route's media types (exactly, parameters dropped; the all-types range matches) is `406: Not Acceptable`
 * listing them. Both are answered as `NewGenericServerResponse` Statuses (empty details).
 */
export function checkRestfulRoute(method: string, listRoute: boolean, contentType: string | undefined, accept: string | undefined, patchTypes: readonly string[]): void {
  if (method === "PATCH") {
    const types = restfulMediaTypes(contentType === undefined || contentType === "" ? "application/octet-stream" : contentType);
    if (!types.some((t) => patchTypes.includes(t))) throw restfulError(415, "UnsupportedMediaType", "415: Unsupported Media Type");
  }
  const types = restfulMediaTypes(accept === undefined || accept === "" ? "*/*" : accept);
  if (types.some((t) => t === "*/*" || RESTFUL_PRODUCES.includes(t))) return;
  const available = listRoute ? [...RESTFUL_PRODUCES, ...RESTFUL_STREAMS] : RESTFUL_PRODUCES;
  throw restfulError(406, "NotAcceptable", `406: Not Acceptable\n\nAvailable representations: ${available.join(", ")}`);
}

function restfulError(code: number, reason: string, message: string): ApiError {
  return new ApiError(failureStatus(code, reason, message, {}));
}

/**
 * `NewNotAcceptableError` as the serializer negotiation reports it, encoded as `ErrorNegotiated` sends it:
 * in protobuf when the Accept header asks for it (the Status has a protobuf encoding, the custom
 * resource has not), else — no clause can carry it — as indented JSON (`WriteRawJSON`).
 */
export function notAcceptableError(accept?: string): ApiError {
  const err = new ApiError(
    failureStatus(
      406,
      "NotAcceptable",
      `only the following media types are accepted: ${SUPPORTED.map(([t, s]) => `${t}/${s}`).join(", ")}`,
    ),
  );
  const protobufClause = parseAccept(accept ?? "").some(
    (c) => c.type === "application" && c.subType === "vnd.kubernetes.protobuf" && !c.params.has("as"),
  );
  err.encoded = protobufClause
    ? { contentType: "application/vnd.kubernetes.protobuf", body: statusProtobuf(err.status) }
    : { contentType: "application/json", body: statusIndentedJson(err.status) };
  return err;
}
