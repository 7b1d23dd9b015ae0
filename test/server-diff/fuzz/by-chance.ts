/**
 * An answer's JSON text without what is random on either server (the server-diff sequences avoid these): the
 * 5-character suffix a generateName gets (`names.SimpleNameGenerator`), the number in the name cel-go's checker gives
 * the type of `self` in a compile error (`selfType869702722`: Kubernetes draws it at random for each rule's object
 * type), the order of an apply conflict's causes (smd collects them walking a Go map of managers), and the
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
  const sorted = Array.isArray(causes) ? { ...r, body: { ...body, details: { ...body!.details, causes: causes.map((c) => JSON.stringify(c)).sort() } } } : r;
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
    const prefix = m[1]!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    out = out.replace(new RegExp(`${prefix}[bcdfghjklmnpqrstvwxz2456789]{5}`, "g"), `${m[1]!}<suffix>`);
  }
  return out;
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
