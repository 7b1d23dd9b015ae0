/**
 * RBAC rule matching (`rbac.RuleAllows` and the `rbac/v1` evaluation helpers): verbs, API groups,
 * resources (`*`, `resource/subresource`, `*\/subresource`), resource names, non-resource URLs (`*` and
 * trailing-`*` prefixes).
 */
import type { RequestAttributes } from "./request-attributes.js";

/** `rbacv1.PolicyRule`. */
export interface PolicyRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

function has(list: readonly string[], v: string): boolean {
  return list.includes("*") || list.includes(v);
}

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources) {
    if (r === "*" || r === combined) return true;
    if (subresource !== "" && r.length === subresource.length + 2 && r.startsWith("*/") && r.endsWith(subresource)) return true;
  }
  return false;
}

function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs) {
    if (u === "*" || u === path) return true;
    if (u.endsWith("*") && path.startsWith(u.replace(/\*+$/, ""))) return true;
  }
  return false;
}

/** Whether `rule` allows the request. */
export function ruleAllows(a: RequestAttributes, rule: PolicyRule): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (!a.resourceRequest) return nonResourceURLMatches(rule, a.path);
  const combined = a.subresource === "" ? a.resource : `${a.resource}/${a.subresource}`;
  return (
    has(rule.apiGroups, a.apiGroup) &&
    resourceMatches(rule, combined, a.subresource) &&
    (rule.resourceNames.length === 0 || rule.resourceNames.includes(a.name))
  );
}
