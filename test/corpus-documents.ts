/** Every decoded document of the corpus' CRD and example files, with a label `project/dir/file#index`. */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { decodeDocuments } from "../src/io/decode.js";
import type { JsonValue } from "../src/value/json-value.js";

export function* corpusDocuments(root: string): Generator<{ label: string; value: JsonValue }> {
  for (const p of readdirSync(root)) {
    for (const d of ["crds", "examples"]) {
      const dir = join(root, p, d);
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir)) {
        for (const doc of decodeDocuments(readFileSync(join(dir, f), "utf8"))) {
          if (doc.value !== undefined) yield { label: `${p}/${d}/${f}#${doc.index}`, value: doc.value };
        }
      }
    }
  }
}
