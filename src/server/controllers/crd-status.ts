/**
 * A CRD's `status` as Kubernetes writes it: the registry strategy's part (`storedVersions`, written with
 * the CRD) and what the naming and establishing controllers write afterwards through `/status`
 * (`acceptedNames`, `NamesAccepted` / `Established`; see crd-naming-controller.ts).
 */
import { deepClone, isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { nowTimestamp } from "../registry/object-meta.js";
import { goQuote } from "../../go/fmt.js";

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

/** Names already taken in the same group by other CRDs (their accepted names). */
export interface TakenNames {
  resources: Set<string>;
  kinds: Set<string>;
}

/** `equalToAcceptedOrFresh`: a requested name is fine when it is already ours or nobody else's. */
function nameTaken(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${goQuote(requested)} is already in use`;
}

/**
 * The naming and establishing controllers' status (apiextensions `controller/status`
 * `calculateNamesAndConditions`, `controller/establish`): each requested name is accepted unless another
 * CRD of the group has accepted it (the condition reports the last conflict, in the order plural, singular,
 * shortNames, kind, listKind); `Established` becomes True once the names are accepted and then stays
 * True. Returns the new `status` (the CRD is not changed).
 */
export function namingStatus(crd: JsonObject, taken: TakenNames): JsonObject {
  const spec = isObject(crd["spec"]) ? crd["spec"] : {};
  const status: JsonObject = isObject(crd["status"]) ? deepClone(crd["status"]) : {};
  const requested = readNames(spec["names"]);
  const acceptedRaw = isObject(status["acceptedNames"]) ? status["acceptedNames"] : {};
  const accepted = readRawNames(acceptedRaw);
  const next: JsonObject = deepClone(acceptedRaw);
  let conflict: { reason: string; message: string } | undefined;
  const check = (reason: string, msg: string | undefined, accept: () => void) => {
    if (msg === undefined) accept();
    else conflict = { reason, message: msg };
  };
  check("PluralConflict", nameTaken(requested.plural, accepted.plural, taken.resources), () => (next["plural"] = requested.plural));
  check("SingularConflict", nameTaken(requested.singular, accepted.singular, taken.resources), () => (next["singular"] = requested.singular));
  if (JSON.stringify(requested.shortNames) !== JSON.stringify(accepted.shortNames)) {
    const errs = requested.shortNames.filter((s) => !accepted.shortNames.includes(s)).flatMap((s) => nameTaken(s, "", taken.resources) ?? []);
    // `utilerrors.NewAggregate`: one error's text, or `[a, b]`.
    const msg = errs.length === 0 ? undefined : errs.length === 1 ? errs[0]! : `[${errs.join(", ")}]`;
    check("ShortNamesConflict", msg, () => setList(next, "shortNames", requested.shortNames));
  }
  check("KindConflict", nameTaken(requested.kind, accepted.kind, taken.kinds), () => (next["kind"] = requested.kind));
  check("ListKindConflict", nameTaken(requested.listKind, accepted.listKind, taken.kinds), () => (next["listKind"] = requested.listKind));
  setList(next, "categories", requested.categories);
  const out: JsonObject = { ...status, acceptedNames: omitEmpty(next) };
  const view: JsonObject = { status: out };
  const c = conflict as { reason: string; message: string } | undefined;
  if (c) setCrdCondition(view, "NamesAccepted", "False", c.reason, c.message);
  else setCrdCondition(view, "NamesAccepted", "True", "NoConflicts", "no conflicts found");
  const established = conditionTrue(view, "Established");
  if (!established && c) {
    const had = Array.isArray(out["conditions"]) && out["conditions"].some((x) => isObject(x) && x["type"] === "Established");
    if (!had) setCrdCondition(view, "Established", "False", "NotAccepted", "not all names are accepted");
  } else if (!established) {
    setCrdCondition(view, "Established", "True", "InitialNamesAccepted", "the initial names have been accepted");
  }
  return view["status"] as JsonObject;
}

/** The names as written (no defaults): what `status.acceptedNames` holds. */
function readRawNames(n: JsonObject): CrdNames {
  const str = (k: string) => (typeof n[k] === "string" ? (n[k] as string) : "");
  const list = (k: string) => (Array.isArray(n[k]) ? (n[k] as JsonValue[]).filter((x): x is string => typeof x === "string") : []);
  return { plural: str("plural"), singular: str("singular"), kind: str("kind"), listKind: str("listKind"), shortNames: list("shortNames"), categories: list("categories") };
}

function setList(o: JsonObject, key: string, v: string[]): void {
  if (v.length > 0) o[key] = [...v];
  else delete o[key];
}

/** Go's `omitempty` on the optional names (plural and kind are always written). */
function omitEmpty(n: JsonObject): JsonObject {
  const out: JsonObject = { plural: typeof n["plural"] === "string" ? n["plural"] : "", kind: typeof n["kind"] === "string" ? n["kind"] : "" };
  for (const k of ["singular", "shortNames", "listKind", "categories"]) {
    const v = n[k];
    if (v !== undefined && v !== "" && !(Array.isArray(v) && v.length === 0)) out[k] = v;
  }
  return out;
}

/**
 * The registry strategy's status on create (`PrepareForCreate`): empty accepted names, no conditions, the
 * storage version stored. On update (`PrepareForUpdate`) the old status with the storage version added.
 */
export function strategyStatus(old: JsonValue | undefined, storageVersion: string | undefined): JsonObject {
  const status: JsonObject = isObject(old) ? deepClone(old) : { acceptedNames: { plural: "", kind: "" }, conditions: null, storedVersions: null };
  const stored = Array.isArray(status["storedVersions"]) ? [...status["storedVersions"]] : [];
  if (storageVersion && !stored.includes(storageVersion)) stored.push(storageVersion);
  status["storedVersions"] = stored;
  return status;
}

/** `SetCRDCondition`: replaces the condition of that type (new lastTransitionTime only when the status changes) or appends it. */
export function setCrdCondition(crd: JsonObject, type: string, status: string, reason: string, message: string): void {
  const st: JsonObject = isObject(crd["status"]) ? crd["status"] : (crd["status"] = {});
  const conds: JsonValue[] = Array.isArray(st["conditions"]) ? st["conditions"] : (st["conditions"] = []);
  const i = conds.findIndex((c) => isObject(c) && c["type"] === type);
  const prev = i >= 0 ? conds[i] : undefined;
  const keepTime = isObject(prev) && prev["status"] === status && typeof prev["lastTransitionTime"] === "string";
  const next: JsonObject = { type, status, lastTransitionTime: keepTime ? (prev["lastTransitionTime"] as string) : nowTimestamp(), reason, message };
  if (i >= 0) conds[i] = next;
  else conds.push(next);
}

/** True when the CRD's condition `type` has status True. */
export function conditionTrue(crd: JsonObject, type: string): boolean {
  const status = crd["status"];
  if (!isObject(status) || !Array.isArray(status["conditions"])) return false;
  return status["conditions"].some((c) => isObject(c) && c["type"] === type && c["status"] === "True");
}
