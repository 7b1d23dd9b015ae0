/**
 * `authorization.k8s.io/v1 SelfSubjectAccessReview` (`kubectl auth can-i`) and
 * `authentication.k8s.io/v1 SelfSubjectReview` (`kubectl auth whoami`): create-only, never stored,
 * answered for the requesting user.
 */
import type { IncomingMessage } from "node:http";
import { fieldError, FieldPath } from "../../errors/index.js";
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { apiErrors } from "../endpoints/errors.js";
import { decodeBody, mediaType, readBody } from "../endpoints/http-io.js";
import type { RestResponse } from "../endpoints/rest-common.js";
import type { Authorizer } from "./authorizer.js";
import type { PolicyRule } from "./rbac-rules.js";
import type { RequestAttributes } from "./request-attributes.js";
import type { UserInfo } from "./user-info.js";

export const AUTHORIZATION_GROUP = "authorization.k8s.io";
export const AUTHENTICATION_GROUP = "authentication.k8s.io";

/** The review resources, for discovery. */
export const REVIEW_RESOURCES = [
  { group: AUTHORIZATION_GROUP, plural: "selfsubjectaccessreviews", kind: "SelfSubjectAccessReview" },
  { group: AUTHORIZATION_GROUP, plural: "selfsubjectrulesreviews", kind: "SelfSubjectRulesReview" },
  { group: AUTHENTICATION_GROUP, plural: "selfsubjectreviews", kind: "SelfSubjectReview" },
] as const;

function str(o: JsonObject, k: string): string {
  return typeof o[k] === "string" ? (o[k] as string) : "";
}

async function readReview(req: IncomingMessage, kind: string): Promise<JsonObject> {
  const body = await readBody(req);
  const { value } = decodeBody(body, mediaType(req.headers["content-type"]), kind);
  if (!isObject(value)) throw apiErrors.badRequest(`the object provided is unrecognized (must be of type ${kind}): body is not an object`);
  return value;
}

function userInfoJson(u: UserInfo): JsonObject {
  const out: JsonObject = { username: u.name };
  if (u.uid !== "") out["uid"] = u.uid;
  if (u.groups.length > 0) out["groups"] = u.groups;
  if (u.extra && Object.keys(u.extra).length > 0) out["extra"] = u.extra as unknown as JsonValue;
  return out;
}

/** `SubjectRulesReviewStatus` of the rules a user has (kubectl `auth can-i --list`). */
function rulesReviewStatus(r: { rules: PolicyRule[]; errors: string[] }): JsonObject {
  const resourceRules: JsonObject[] = [];
  const nonResourceRules: JsonObject[] = [];
  for (const rule of r.rules) {
    if (rule.resources.length > 0) {
      const o: JsonObject = { verbs: rule.verbs };
      if (rule.apiGroups.length > 0) o["apiGroups"] = rule.apiGroups;
      o["resources"] = rule.resources;
      if (rule.resourceNames.length > 0) o["resourceNames"] = rule.resourceNames;
      resourceRules.push(o);
    }
    if (rule.nonResourceURLs.length > 0) nonResourceRules.push({ verbs: rule.verbs, nonResourceURLs: rule.nonResourceURLs });
  }
  const status: JsonObject = { resourceRules, nonResourceRules, incomplete: r.errors.length > 0 };
  if (r.errors.length > 0) status["evaluationError"] = r.errors.join(", ");
  return status;
}

/** Serves a POST to a review collection; undefined when the path is not a review resource. */
export async function serveSelfReview(
  group: string,
  version: string,
  plural: string,
  method: string,
  req: IncomingMessage,
  user: UserInfo,
  authorizer: Authorizer,
): Promise<RestResponse | undefined> {
  const known = REVIEW_RESOURCES.find((r) => r.group === group && r.plural === plural);
  if (!known || version !== "v1") return undefined;
  if (method !== "POST") throw apiErrors.methodNotAllowed();
  const obj = await readReview(req, known.kind);
  const meta = isObject(obj["metadata"]) ? obj["metadata"] : {};
  if (known.kind === "SelfSubjectReview") {
    return {
      code: 201,
      body: { kind: known.kind, apiVersion: `${group}/v1`, metadata: meta, status: { userInfo: userInfoJson(user) } },
    };
  }
  const spec = isObject(obj["spec"]) ? obj["spec"] : {};
  if (known.kind === "SelfSubjectRulesReview") {
    return { code: 201, body: { kind: known.kind, apiVersion: `${group}/v1`, metadata: meta, spec, status: rulesReviewStatus(authorizer.rulesFor(user, str(spec, "namespace"))) } };
  }
  const ra = isObject(spec["resourceAttributes"]) ? spec["resourceAttributes"] : undefined;
  const na = isObject(spec["nonResourceAttributes"]) ? spec["nonResourceAttributes"] : undefined;
  if ((ra === undefined) === (na === undefined)) {
    throw apiErrors.invalid(known.kind, group, "", [
      fieldError.invalid(FieldPath.of("spec", "resourceAttributes"), na ?? null, "exactly one of nonResourceAttributes or resourceAttributes must be specified"),
    ]);
  }
  const attrs: RequestAttributes = ra
    ? {
        user,
        verb: str(ra, "verb"),
        resourceRequest: true,
        path: "",
        apiGroup: str(ra, "group"),
        apiVersion: str(ra, "version"),
        namespace: str(ra, "namespace"),
        resource: str(ra, "resource"),
        subresource: str(ra, "subresource"),
        name: str(ra, "name"),
      }
    : {
        user,
        verb: str(na!, "verb"),
        resourceRequest: false,
        path: str(na!, "path"),
        apiGroup: "",
        apiVersion: "",
        namespace: "",
        resource: "",
        subresource: "",
        name: "",
      };
  const d = authorizer.authorize(attrs);
  const status: JsonObject = { allowed: d.allowed };
  if (d.reason !== "") status["reason"] = d.reason;
  return { code: 201, body: { kind: known.kind, apiVersion: `${group}/v1`, metadata: meta, spec, status } };
}
