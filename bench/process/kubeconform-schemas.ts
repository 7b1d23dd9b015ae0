/**
 * Converts CRDs into kubeconform's JSON-Schema layout, as its openapi2jsonschema script does with
 * FILENAME_FORMAT='{kind}-{group}-{version}': one `<kind>-<group>-<version>.json` file per CRD version
 * (kind lower-cased), OpenAPI's `nullable` and `x-kubernetes-int-or-string` turned into JSON Schema, and
 * (strict) `additionalProperties: false` on objects that list properties, like `openapi2jsonschema
 * --strict`. Used by the process benchmark so that kubeconform validates the same CRDs as crdkit.
 *
 *   node --import tsx bench/process/kubeconform-schemas.ts OUT_DIR CRD_PATH...
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expandPaths } from "../../src/cli/files.js";
import { decodeDocuments } from "../../src/io/decode.js";
import type { JsonValue } from "../../src/value/json-value.js";

type Schema = { [k: string]: unknown };

function toPlain(v: JsonValue): unknown {
  // Float64 boxes render through their toJSON; int64 beyond 2^53 loses precision (schemas only)
  return JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? Number(x) : x)));
}

function convert(s: unknown, strict: boolean): unknown {
  if (Array.isArray(s)) return s.map((x) => convert(x, strict));
  if (typeof s !== "object" || s === null) return s;
  const out: Schema = {};
  for (const [k, v] of Object.entries(s as Schema)) {
    if (k === "default" || k === "example" || k === "enum") out[k] = v;
    else out[k] = convert(v, strict);
  }
  if (out["x-kubernetes-int-or-string"] === true) {
    delete out["type"];
    out["oneOf"] = [{ type: "string" }, { type: "integer" }];
  }
  if (out["nullable"] === true && typeof out["type"] === "string") out["type"] = [out["type"], "null"];
  if (strict && out["properties"] !== undefined && out["additionalProperties"] === undefined && out["x-kubernetes-preserve-unknown-fields"] !== true) {
    out["additionalProperties"] = false;
  }
  return out;
}

/** Writes the schemas of every CRD in `paths` into `outDir`; returns the number of files written. */
export function writeKubeconformSchemas(outDir: string, paths: readonly string[], strict = true): number {
  mkdirSync(outDir, { recursive: true });
  let n = 0;
  for (const file of expandPaths(paths)) {
    for (const d of decodeDocuments(readFileSync(file, "utf8"))) {
      const crd = d.value === undefined ? undefined : (toPlain(d.value) as Schema);
      if (crd?.["kind"] !== "CustomResourceDefinition") continue;
      const spec = (crd["spec"] ?? {}) as Schema;
      const group = String(spec["group"] ?? "");
      const kind = String((spec["names"] as Schema | undefined)?.["kind"] ?? "").toLowerCase();
      const versions = (spec["versions"] as Schema[] | undefined) ?? [{ name: spec["version"], schema: spec["validation"] }];
      for (const v of versions) {
        const schema = ((v["schema"] ?? spec["validation"]) as Schema | undefined)?.["openAPIV3Schema"];
        if (schema === undefined) continue;
        writeFileSync(join(outDir, `${kind}-${group}-${String(v["name"])}.json`), JSON.stringify(convert(schema, strict)));
        n++;
      }
    }
  }
  return n;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [out, ...paths] = process.argv.slice(2);
  if (!out || paths.length === 0) {
    console.error("usage: kubeconform-schemas.ts OUT_DIR CRD_PATH...");
    process.exit(2);
  }
  console.log(`${writeKubeconformSchemas(out, paths)} schemas written to ${out}`);
}
