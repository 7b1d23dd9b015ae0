/**
 * An answer's JSON text without what is random on either server (the server-diff sequences avoid these): the
 * 5-character suffix a generateName gets (`names.SimpleNameGenerator`), the number in the name cel-go's checker gives
 * the type of `self` in a compile error (`selfType869702722`: Kubernetes draws it at random for each rule's object
 * type), the order of an apply conflict's causes (smd collects them walking a Go map of managers), the order of a
 * custom resource's value errors among sibling fields and among its labels (`invalidInAnyOrder`), the order of
 * managedFields entries of one operation (`managedInAnyOrder`), and the
 * resourceVersions and continue tokens the normalizer cannot see in an answer kept as text (pretty-printed JSON,
 * YAML: each server numbers its writes). Used by the live differs (`fuzz:server`, `corpus:server`), which compare
 * answers as they come.
 */
import type { HttpStep, StepResult } from "../runner.js";

export function byChance(req: HttpStep, r: StepResult | undefined): string {
  // (a pretty-printed or converted answer is JSON text)
  const raw = r !== undefined && "body" in r ? r.body : null;
  const parsed = typeof raw === "string" && raw.startsWith("{") ? parseOrNull(raw) : raw;
  const body = parsed as { reason?: unknown; details?: { causes?: unknown[] } } | null;
  const causes = body?.reason === "Conflict" ? body.details?.causes : undefined;
  const sorted = Array.isArray(causes)
    ? { ...r, body: { ...body, details: { ...body!.details, causes: causes.map((c) => JSON.stringify(c)).sort() } } }
    : body?.reason === "Invalid"
      ? { ...r, body: invalidInAnyOrder(body as InvalidStatus) }
      : parsed !== raw && parsed !== null
        ? { ...r, body: managedInAnyOrder(parsed) }
        : r !== undefined && "body" in r
          ? { ...r, body: managedInAnyOrder(r.body) }
          : r;
  let out = JSON.stringify(sorted)
    .replace(/selfType\d+/g, "selfType<n>")
    // a resourceVersion quoted in a pretty-printed answer kept as text, escaped once more than normalize.ts masks
    .replace(/(\\+)"resourceVersion\1":\1"\d+\1"/g, (m) => m.replace(/\d+/, "<rv>"))
    // a continue token in a YAML answer (normalize.ts masks the JSON member): it holds each server's revision, and
    // the oracle's start key is relative to its own etcd prefix
    .replace(/(\\n {2}continue: )[A-Za-z0-9_-]+/g, "$1<continue>")
    // a conflict's stored resourceVersion in a YAML answer, where the message's line may break anywhere
    .replace(/(ResourceVersion(?: |\\n)+in(?: |\\n)+record(?: |\\n)+)\(\d+\)/g, "$1(<rv>)");
  const sent = req.raw ?? (req.body !== undefined ? JSON.stringify(req.body) : "");
  for (const m of sent.matchAll(/"generateName":"([^"\\]+)"/g)) {
    // (the name generator cuts the base to 58 characters before adding the suffix)
    const base = m[1]!.slice(0, 58);
    const prefix = base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    out = out.replace(new RegExp(`${prefix}[bcdfghjklmnpqrstvwxz2456789]{5}`, "g"), `${base}<suffix>`);
  }
  return out;
}

interface Cause {
  field?: string;
  message?: string;
}

interface InvalidStatus {
  message?: unknown;
  details?: { causes?: Cause[] };
}

/**
 * A 422 Invalid whose errors of the object's own fields (neither metadata nor TypeMeta, nor the field-less trailer
 * "some validation rules were not checked") are sorted by field, in its causes and in its message's list alike.
 * Kubernetes finds them walking Go maps: kube-openapi's object validator ranges over the schema's `Properties` and
 * over the value's keys, and the CEL validator over the object's keys, so errors of sibling fields come in a new
 * order on every run (seeds 135, 138 and 166 differed by chance; replayed with --step, 138 and 166 agreed). Errors of
 * one field keep their order (the sort is stable), and so does everything outside the run; the recorded sequences,
 * compared without this, pin crdkit's one fixed order where the real server's is deterministic.
 */
function invalidInAnyOrder(body: InvalidStatus): InvalidStatus {
  const causes = body.details?.causes;
  if (!Array.isArray(causes) || causes.length < 2 || typeof body.message !== "string") return body;
  const own = (c: Cause) => typeof c.field === "string" && c.field !== "<nil>" && c.field !== "" && !/^(metadata|kind|apiVersion)(\.|\[|$)/.test(c.field);
  const found = causes.findIndex(own);
  const first = found < 0 ? causes.length : found;
  let end = first;
  while (end < causes.length && own(causes[end]!)) end++;
  const run = causes.slice(first, end).sort((a, b) => (a.field! < b.field! ? -1 : a.field! > b.field! ? 1 : 0));
  const reordered = [...causes.slice(0, first), ...run, ...causes.slice(end)];
  // ValidateLabels ranges over the labels map: each key's errors come together, the keys in any order (seed 11 step 284)
  for (let i = 0; i < reordered.length; ) {
    let j = i;
    while (j < reordered.length && reordered[j]!.field === "metadata.labels") j++;
    if (j > i + 1) reordered.splice(i, j - i, ...reordered.slice(i, j).sort((a, b) => ((a.message ?? "") < (b.message ?? "") ? -1 : (a.message ?? "") > (b.message ?? "") ? 1 : 0)));
    i = j > i ? j : i + 1;
  }
  const item = (c: Cause) => `${c.field ?? "<nil>"}: ${c.message ?? ""}`;
  // (the message lists each error once: ToAggregate drops repeated texts, as when labels are validated twice)
  const list = (cs: Cause[]) => `[${[...new Set(cs.map(item))].join(", ")}]`;
  const was = list(causes);
  const message = body.message.endsWith(was) ? `${body.message.slice(0, -was.length)}${list(reordered)}` : body.message;
  return { ...body, message, details: { ...body.details, causes: reordered } };
}

/**
 * Objects (an answer, a list's items) with their managedFields entries sorted within each operation. The servers sort
 * them by operation, then by the second of their time, which the comparison masks: two entries written in different
 * seconds on one server and the same second on the other come in another order (seed 11 step 179).
 */
function managedInAnyOrder(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  const o = v as { metadata?: { managedFields?: unknown }; items?: unknown };
  let out = o;
  const mf = o.metadata?.managedFields;
  if (Array.isArray(mf) && mf.length > 1) {
    const key = (e: unknown) => `${(e as { operation?: string }).operation ?? ""}\u0000${JSON.stringify(e)}`;
    out = { ...out, metadata: { ...o.metadata, managedFields: [...mf].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)) } };
  }
  if (Array.isArray(o.items)) out = { ...out, items: o.items.map(managedInAnyOrder) };
  return out;
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
