/**
 * Before/after check for changes to the YAML reader: prints one line per input — the SHA-256 of everything
 * `decodeDocuments` returns for it (values with int / float / big-int / Float64 told apart and key order
 * kept, strict errors and their positions, problems and their positions, and positions of a few field
 * paths). Inputs: the texts of the decoding goldens, every YAML file of the corpus (crds and examples), then random documents of the decoding
 * fuzzer's generator (`--fuzz N`, seeds 1–3, read whole as the API server reads a body and split as kubectl
 * reads files). Corpus files are also streamed in pieces (`decodeDocumentPieces`) when the build has it. Run it on two builds and diff the outputs:
 *
 *   node --import tsx bench/yaml/decode-dump.ts [--impl /other/checkout/src/io/decode.ts] [--fuzz 10000] > out.txt
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import type { DecodedDocument, DecodeOptions } from "../../src/io/decode.js";
import type { Float64, JsonObject, JsonValue } from "../../src/value/json-value.js";
import { corpusRoot } from "../../test/corpus-root.js";
import { Rng } from "../../test/fuzz/rng.js";
import { genYamlDocument } from "../../test/fuzz/yaml-gen.js";

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const impl = flag("impl") ?? new URL("../../src/io/decode.ts", import.meta.url).pathname;
const fuzz = Number(flag("fuzz") ?? 10000);
const { decodeDocuments, decodeDocumentPieces } = (await import(impl)) as {
  decodeDocuments: (t: string, o?: DecodeOptions) => DecodedDocument[];
  /** Absent in older builds. */
  decodeDocumentPieces?: (pieces: Iterable<string>) => Iterable<DecodedDocument>;
};

/** The text in pieces of 4096 characters, as a file is streamed. */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 4096) out.push(text.slice(i, i + 4096));
  return out;
}

function dump(v: JsonValue, out: string[]): void {
  if (v === null) out.push("null");
  else if (typeof v === "boolean") out.push(String(v));
  else if (typeof v === "string") out.push(JSON.stringify(v));
  else if (typeof v === "bigint") out.push(`big:${v}`);
  else if (typeof v === "number") out.push(`${Number.isInteger(v) ? "int" : "num"}:${Object.is(v, -0) ? "-0" : v}`);
  else if (v.constructor?.name === "Float64") out.push(`F64:${(v as Float64).value}`); // (the class of the build under test)
  else if (Array.isArray(v)) {
    out.push("[");
    for (const x of v) {
      dump(x, out);
      out.push(",");
    }
    out.push("]");
  } else {
    const o = v as JsonObject;
    out.push(`{proto:${Object.getPrototypeOf(o) === Object.prototype}`);
    for (const k of Object.keys(o)) {
      out.push(JSON.stringify(k), ":");
      dump(o[k]!, out);
      out.push(",");
    }
    out.push("}");
  }
}

const PATHS = ["", "<nil>", "metadata", "metadata.name", "spec", "spec.versions[0].name", "spec.template.spec.containers[0].image", "a", "b[0]", "x.y"];

function digest(text: string, opts: DecodeOptions | "pieces"): string {
  const out: string[] = [];
  let docs: DecodedDocument[];
  try {
    docs = opts === "pieces" ? [...decodeDocumentPieces!(pieces(text))] : decodeDocuments(text, opts);
  } catch (e) {
    return `THROWS ${e instanceof Error ? e.message : String(e)}`;
  }
  for (const d of docs) {
    out.push(`#${d.index}@${d.offset}|`);
    if (d.value !== undefined) dump(d.value, out);
    out.push(`|${JSON.stringify(d.strictErrors)}|${JSON.stringify(d.strictErrorPosition)}|${JSON.stringify(d.problem)}|`);
    for (const p of PATHS) out.push(JSON.stringify(d.locate(p)));
  }
  return createHash("sha256").update(out.join("")).digest("hex").slice(0, 24);
}

function yamlFiles(dir: string, out: string[]): string[] {
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (n.endsWith(".yaml") || n.endsWith(".yml")) out.push(p);
  }
  return out;
}

const goldenDir = new URL("../../test/golden/decoding", import.meta.url).pathname;
for (const f of readdirSync(goldenDir).sort()) {
  const g = JSON.parse(readFileSync(join(goldenDir, f), "utf8")) as { cases?: { id: string; text?: string }[] };
  for (const c of g.cases ?? []) {
    if (typeof c.text === "string") console.log(`golden ${c.id} ${digest(c.text, { format: "yaml", whole: true })} ${digest(c.text, {})}`);
  }
}
const root = corpusRoot();
for (const f of yamlFiles(root, [])) {
  const text = readFileSync(f, "utf8");
  console.log(`${relative(root, f)} ${digest(text, {})}${decodeDocumentPieces ? ` ${digest(text, "pieces")}` : ""}`);
}
for (const seed of [1, 2, 3]) {
  const rng = new Rng(seed);
  for (let i = 0; i < fuzz; i++) {
    const t = genYamlDocument(rng);
    console.log(`fuzz s${seed}-${i} ${digest(t, { format: "yaml", whole: true })} ${digest(t, {})}`);
  }
}
