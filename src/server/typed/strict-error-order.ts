/**
 * The order of a typed object's strict decoding errors: Go's JSON decoder (sigs.k8s.io/json, strict) reads the text
 * once and reports each unknown field where it meets the field and each duplicate field where it meets the field
 * again, so unknown and duplicate fields interleave in the order of the text. (The unstructured decoder of custom
 * resources reports the duplicates first: this is for Go structs only.)
 */
import { type JsonNode, scanJsonNodes } from "./duplicate-fields.js";

/** Where each field path occurs in the text, in reading order: its first occurrence and its repeats. */
function occurrences(text: string): { first: Map<string, number>; repeats: Map<string, number[]> } {
  const first = new Map<string, number>();
  const repeats = new Map<string, number[]>();
  let rank = 0;
  const walk = (n: JsonNode, path: string): void => {
    if (n.members) {
      const seen = new Set<string>();
      for (const [k, v] of n.members) {
        const p = path === "" ? k : `${path}.${k}`;
        const at = rank++;
        if (seen.has(k)) {
          const list = repeats.get(p) ?? [];
          list.push(at);
          repeats.set(p, list);
        } else {
          seen.add(k);
          if (!first.has(p)) first.set(p, at);
        }
        walk(v, p);
      }
    } else if (n.items) {
      for (let i = 0; i < n.items.length; i++) walk(n.items[i]!, `${path}[${i}]`);
    }
  };
  walk(scanJsonNodes(text), "");
  return { first, repeats };
}

/**
 * `errors` (`unknown field "p"`, `duplicate field "p"` and others) in the order the Go decoder reports them for the
 * JSON `text` it read: the errors it did not find there (a YAML decoder's, a patch's own) first, as they are, then
 * the others in the order of the text. A text that does not scan leaves the errors as they are.
 */
export function orderStrictErrors(errors: readonly string[], text: string): string[] {
  if (errors.length < 2) return [...errors];
  let occ: ReturnType<typeof occurrences>;
  try {
    occ = occurrences(text);
  } catch {
    return [...errors];
  }
  const usedRepeats = new Map<string, number>();
  const ranked = errors.map((e, i) => {
    let rank = -1;
    const unknown = /^unknown field "(.*)"$/.exec(e);
    const duplicate = unknown ? null : /^duplicate field "(.*)"$/.exec(e);
    if (unknown) rank = occ.first.get(unknown[1]!) ?? -1;
    else if (duplicate) {
      const p = duplicate[1]!;
      const k = usedRepeats.get(p) ?? 0;
      const at = occ.repeats.get(p)?.[k];
      if (at !== undefined) {
        usedRepeats.set(p, k + 1);
        rank = at;
      }
    }
    return { e, i, rank };
  });
  ranked.sort((a, b) => a.rank - b.rank || a.i - b.i);
  return ranked.map((x) => x.e);
}
