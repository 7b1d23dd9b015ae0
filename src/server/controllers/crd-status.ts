/**
 * What Kubernetes' CRD controllers write into `status` (naming, establishing): `acceptedNames`,
 * `NamesAccepted` / `Established` conditions and `storedVersions`. crdkit computes them synchronously
 * on every CRD write, so a CRD is Established as soon as its write is acknowledged.
 */
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { goQuote } from "../../go/fmt.js";
import { nowTimestamp } from "../registry/object-meta.js";

/** The names a CRD claims (spec.names with defaults). */
export interface CrdNames {
  plural: string;
  singular: string;
  kind: string;
  listKind: string;
  shortNames: string[];
  categories: string[];
}

/** Reads names from `spec.names` or `status.acceptedNames`. */
export function readNames(v: JsonValue | undefined): CrdNames {
  const n = isObject(v) ? v : {};
  const str = (k: string) => (typeof n[k] === "string" ? (n[k] as string) : "");
  const list = (k: string) => (Array.isArray(n[k]) ? (n[k] as JsonValue[]).filter((x): x is string => typeof x === "string") : []);
  const kind = str("kind");
  return {
    plural: str("plural"),
    singular: str("singular") || kind.toLowerCase(),
    kind,
    listKind: str("listKind") || (kind ? `${kind}List` : ""),
    shortNames: list("shortNames"),
    categories: list("categories"),
  };
}

function namesToJson(n: CrdNames): JsonObject {
  const o: JsonObject = { plural: n.plural, singular: n.singular, kind: n.kind, listKind: n.listKind };
  if (n.shortNames.length > 0) o["shortNames"] = [...n.shortNames];
  if (n.categories.length > 0) o["categories"] = [...n.categories];
  return o;
}

/** Names already taken in the same group by other CRDs (their accepted names). */
export interface TakenNames {
  resources: Set<string>;
  kinds: Set<string>;
}

/** The naming controller's verdict: a condition reason/message, or undefined when every name is free. */
function nameConflict(n: CrdNames, taken: TakenNames): { reason: string; message: string } | undefined {
  if (taken.resources.has(n.plural)) return { reason: "PluralConflict", message: `${goQuote(n.plural)} is already in use` };
  if (taken.resources.has(n.singular)) return { reason: "SingularConflict", message: `${goQuote(n.singular)} is already in use` };
  for (const s of n.shortNames) {
    if (taken.resources.has(s)) return { reason: "ShortNamesConflict", message: `${goQuote(s)} is already in use` };
  }
  if (taken.kinds.has(n.kind)) return { reason: "KindConflict", message: `${goQuote(n.kind)} is already in use` };
  if (taken.kinds.has(n.listKind)) return { reason: "ListKindConflict", message: `${goQuote(n.listKind)} is already in use` };
  return undefined;
}

function condition(
  old: JsonValue[] | undefined,
  type: string,
  status: string,
  reason: string,
  message: string,
  now: string,
): JsonObject {
  const prev = (old ?? []).find((c) => isObject(c) && c["type"] === type);
  const lastTransitionTime = isObject(prev) && prev["status"] === status && typeof prev["lastTransitionTime"] === "string" ? prev["lastTransitionTime"] : now;
  return { type, status, lastTransitionTime, reason, message };
}

/** Writes `status.acceptedNames`, conditions and storedVersions into `crd` (in place). */
export function computeCrdStatus(crd: JsonObject, taken: TakenNames, storageVersion: string | undefined): void {
  const spec = isObject(crd["spec"]) ? crd["spec"] : {};
  const status: JsonObject = isObject(crd["status"]) ? crd["status"] : {};
  const names = readNames(spec["names"]);
  const oldConds = Array.isArray(status["conditions"]) ? status["conditions"] : undefined;
  const now = nowTimestamp();
  const conflict = nameConflict(names, taken);
  const conds: JsonObject[] = [];
  if (conflict) {
    conds.push(condition(oldConds, "NamesAccepted", "False", conflict.reason, conflict.message, now));
    conds.push(condition(oldConds, "Established", "False", "NotAccepted", "not all names are accepted", now));
    if (!isObject(status["acceptedNames"])) status["acceptedNames"] = { plural: "", kind: "" };
  } else {
    conds.push(condition(oldConds, "NamesAccepted", "True", "NoConflicts", "no conflicts found", now));
    conds.push(condition(oldConds, "Established", "True", "InitialNamesAccepted", "the initial names have been accepted", now));
    status["acceptedNames"] = namesToJson(names);
  }
  // Keep conditions other controllers own (e.g. NonStructuralSchema), replace ours.
  const others = (oldConds ?? []).filter((c) => isObject(c) && c["type"] !== "NamesAccepted" && c["type"] !== "Established");
  status["conditions"] = [...others, ...conds];
  const stored = Array.isArray(status["storedVersions"]) ? [...status["storedVersions"]] : [];
  if (storageVersion && !stored.includes(storageVersion)) stored.push(storageVersion);
  status["storedVersions"] = stored;
  crd["status"] = status;
}

/** True when the CRD's condition `type` has status True. */
export function conditionTrue(crd: JsonObject, type: string): boolean {
  const status = crd["status"];
  if (!isObject(status) || !Array.isArray(status["conditions"])) return false;
  return status["conditions"].some((c) => isObject(c) && c["type"] === type && c["status"] === "True");
}
