/**
 * The CRDs of a `crdkit validate` run, compiled only when used: a CRD given with `--crds` is indexed by
 * group and kind, and compiled (its create checks run, its schemas compiled) when a document of its kind
 * is first looked up. With a {@link SchemaCache}, a CRD file seen before is not even decoded until one of
 * its CRDs is used, and the CRD checks' verdict is read from the cache instead of being computed.
 */
import { resolve as resolvePath } from "node:path";
import { type DecodedDocument, decodeDocuments } from "../io/decode.js";
import { splitYamlDocuments } from "../io/yaml-split.js";
import { type DecodedCrd, decodeCrd } from "../crd/decode-crd.js";
import { type CompileResult, type CompiledCrdImpl, type CrdVerdict, checkCrd, compileDecoded } from "../pipeline/compile.js";
import { type JsonObject, type JsonValue, getKey, isObject } from "../value/json-value.js";
import { decodedCrdEntry, decodedCrdFromEntry, structuralFactsFromEntry } from "./decoded-crd-entry.js";
import { inputIncludes } from "./files.js";
import { rulePrograms } from "./rule-program-cache.js";
import type { CrdFileIndex, IndexedCrd, IndexedProblem, SchemaCache } from "./schema-cache.js";

const CRD_GROUP = "apiextensions.k8s.io";

/** True for a CustomResourceDefinition document (any apiextensions.k8s.io version). */
export function isCrdDoc(v: JsonValue | undefined): v is JsonObject {
  if (!isObject(v) || v["kind"] !== "CustomResourceDefinition") return false;
  const av = getKey(v, "apiVersion");
  return typeof av === "string" && av.startsWith(`${CRD_GROUP}/`);
}

const CRD_HINTS = ["CustomResourceDefinition", "\\"];

/** False when a file's text cannot hold a CRD document (a backslash may hide an escaped `kind`). */
export function mayHoldCrds(text: string): boolean {
  return CRD_HINTS.some((h) => text.includes(h));
}

/** {@link mayHoldCrds} of an input file (its bytes are searched, no text is decoded). */
export function inputMayHoldCrds(path: string): boolean {
  return inputIncludes(path, CRD_HINTS);
}

/** Where a CRD came from, for reporting it. */
export interface CrdOrigin {
  file: string;
  index: number;
  line: number;
  column: number;
}

/** A CRD registered for a group and kind that already had one (`before`); the later one is used. */
export type DuplicateCrdHandler = (before: CrdOrigin, after: CrdOrigin, group: string, kind: string) => void;

/** What {@link LazyCrdRegistry.resolve} finds for a group and kind: the last CRD registered for it. */
export type CrdResolution =
  | { ok: true; compiled: CompiledCrdImpl; origin: CrdOrigin }
  | { ok: false; origin: CrdOrigin; name: string };

/** Called once for a `--crds` CRD that the API server would reject, when it is first needed. */
export type InvalidCrdHandler = (origin: CrdOrigin, value: JsonValue | undefined, errors: string[]) => void;

interface Entry {
  origin: CrdOrigin;
  /** Cache key of the CRD file (CRDs of --crds files, with a cache). */
  fileKey?: string;
  /** The verdict key, when read from the cache with the value. */
  crdKey?: string;
  /** Not reported when rejected (another thread reports it). */
  silent?: boolean;
  /** From a cluster (`--kubeconfig`): replaced by local files without a duplicate warning. */
  fromCluster?: boolean;
  /** `metadata.name`, once the document is loaded. */
  name?: string;
  load: () => JsonValue | undefined;
  /** The CRD compiled from the cache's decoded form (undefined: none cached, load and compile it). */
  loadCompiled?: () => CompileResult | undefined;
  result?: CompileResult;
}

function str(o: JsonObject, k: string): string {
  const v = getKey(o, k);
  return typeof v === "string" ? v : "";
}

function groupKind(v: JsonObject): { group: string; kind: string } {
  const spec = getKey(v, "spec");
  if (!isObject(spec)) return { group: "", kind: "" };
  const names = getKey(spec, "names");
  return { group: str(spec, "group"), kind: isObject(names) ? str(names, "kind") : "" };
}

function countLines(text: string, end: number): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0 && i < end; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** Builds the index of a CRD file from its decoded documents. */
function indexFile(text: string, docs: DecodedDocument[]): CrdFileIndex {
  const body = text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
  const yaml = !body.trimStart().startsWith("{");
  const chunks = yaml ? splitYamlDocuments(body) : [];
  const crds: IndexedCrd[] = [];
  const problems: IndexedProblem[] = [];
  let c = 0;
  for (const d of docs) {
    if (d.problem) {
      problems.push({ index: d.index, message: d.problem.message, ...d.problem.position });
      continue;
    }
    if (!isCrdDoc(d.value)) continue;
    const pos = d.locate("<nil>");
    const e: IndexedCrd = { index: d.index, line: pos.line, column: pos.column, ...groupKind(d.value) };
    while (c < chunks.length && chunks[c]!.offset + chunks[c]!.text.length <= d.offset) c++;
    const ch = chunks[c];
    if (ch && ch.offset <= d.offset) {
      e.chunk = [ch.offset, ch.offset + ch.text.length];
      e.chunkLine = countLines(text, ch.offset);
    }
    crds.push(e);
  }
  return { crds, problems };
}

/** Decodes one indexed CRD document again from its file text. */
function loadIndexed(text: string, c: IndexedCrd): JsonValue | undefined {
  if (c.chunk && c.chunkLine !== undefined) {
    // the chunk alone, after as many newlines as precede it, keeps the file's line numbers
    const chunk = text.slice(c.chunk[0], c.chunk[1]);
    const docs = decodeDocuments(c.chunkLine === 0 ? chunk : "\n".repeat(c.chunkLine) + chunk, { format: "yaml" });
    const v = docs[0]?.value;
    if (docs.length === 1 && isCrdDoc(v)) return v;
  }
  return decodeDocuments(text).find((d) => d.index === c.index)?.value;
}

export class LazyCrdRegistry {
  private readonly byGroupKind = new Map<string, Entry[]>();
  private compiledCount = 0;
  /** Told when a group and kind gets a second CRD (from another place). */
  onDuplicate: DuplicateCrdHandler | undefined;

  constructor(
    private readonly cache: SchemaCache | undefined,
    private readonly onInvalid: InvalidCrdHandler,
  ) {}

  /** Number of CRDs compiled so far. */
  get compiled(): number {
    return this.compiledCount;
  }

  /**
   * Registers the CRDs of a `--crds` file without compiling them. Returns the documents that could not be
   * decoded (to report as DecodeError). `silent`: rejected CRDs of the file are not reported.
   */
  addFile(file: string, text: string, silent = false): IndexedProblem[] {
    return this.addKeyedFile(file, this.cache?.fileKey(text), () => text, silent);
  }

  /**
   * {@link addFile} of a file whose cache key is known (./file-key-memo.ts): its text is read through
   * `text` only when the cache does not have what is needed.
   */
  addKeyedFile(file: string, key: string | undefined, readText: () => string, silent = false): IndexedProblem[] {
    const cached = key === undefined ? undefined : this.cache!.getIndex(key);
    if (cached) {
      for (const c of cached.crds) {
        const e = this.register(c, file, () => {
          const hit = this.cache!.getCrdValue(key!, c.index);
          if (!hit) return loadIndexed(readText(), c);
          e.crdKey = hit.crdKey;
          return hit.value;
        }, silent);
        e.fileKey = key;
        e.loadCompiled = () => this.compileCached(key!, c.index, e);
      }
      return cached.problems;
    }
    const text = readText();
    const docs = decodeDocuments(text);
    const idx = indexFile(text, docs);
    if (key !== undefined) this.cache!.putIndex(key, idx);
    const byIndex = new Map(docs.map((d) => [d.index, d]));
    for (const c of idx.crds) {
      const d = byIndex.get(c.index)!;
      let value = d.value;
      const e = this.register(
        c,
        file,
        () => {
          const v = value;
          value = undefined; // compiled once; the decoded document can be collected
          return v ?? loadIndexed(text, c);
        },
        silent,
      );
      e.fileKey = key;
    }
    return idx.problems;
  }

  /** Registers a CRD found among the inputs: compiled now (it is reported as a result). */
  addDocument(file: string, doc: DecodedDocument): CompileResult {
    const pos = doc.locate("<nil>");
    const value = doc.value!;
    const e: Entry = { origin: { file, index: doc.index, line: pos.line, column: pos.column }, load: () => value };
    const md = isObject(value) ? getKey(value, "metadata") : undefined;
    if (isObject(md)) e.name = str(md, "name");
    const gk = isObject(value) ? groupKind(value) : { group: "", kind: "" };
    // the same document already registered from a `--crds` file the cache knows (a folder given both as
    // --crds and as input): compiled from the cache's decoded form as that entry would be, without
    // hashing the value (and loading node:crypto) for its verdict key; the first time, compiled under
    // the file's key, which writes that decoded form
    const twin = this.sameDocument(`${gk.group}/${gk.kind}`, file, doc.index);
    if (twin?.fileKey !== undefined) e.fileKey = twin.fileKey;
    e.result = twin?.loadCompiled?.() ?? this.compile(value, e);
    this.push(`${gk.group}/${gk.kind}`, e);
    return e.result;
  }

  /** The entry registered last for `key` from the same file (path) and document index, if any. */
  private sameDocument(key: string, file: string, index: number): Entry | undefined {
    const before = this.byGroupKind.get(key)?.at(-1);
    return before && !before.fromCluster && before.origin.index === index && resolvePath(before.origin.file) === resolvePath(file) ? before : undefined;
  }

  /** Registers a CRD read from a cluster (`--kubeconfig`): compiled when first used, never reported. */
  addClusterCrd(source: string, value: JsonValue): void {
    const gk = isObject(value) ? groupKind(value) : { group: "", kind: "" };
    const e: Entry = { origin: { file: source, index: 0, line: 0, column: 0 }, load: () => value, silent: true, fromCluster: true };
    this.push(`${gk.group}/${gk.kind}`, e);
  }

  /** Whether some CRD (valid or not) is registered for the kind of `apiVersion`'s group. */
  definesKind(apiVersion: string, kind: string): boolean {
    const slash = apiVersion.indexOf("/");
    return slash >= 0 && this.byGroupKind.has(`${apiVersion.slice(0, slash)}/${kind}`);
  }

  /**
   * The last CRD registered for an object's group and kind (the later argument wins, even when it is
   * invalid), compiled on first use; undefined when there is none.
   */
  resolve(apiVersion: string, kind: string): CrdResolution | undefined {
    const slash = apiVersion.indexOf("/");
    if (slash < 0) return undefined;
    const list = this.byGroupKind.get(`${apiVersion.slice(0, slash)}/${kind}`);
    const e = list?.[list.length - 1];
    if (!e) return undefined;
    const r = this.ensure(e);
    return r.ok ? { ok: true, compiled: r.compiled, origin: e.origin } : { ok: false, origin: e.origin, name: e.name ?? "" };
  }

  /** The CRD for an object's apiVersion and kind, compiled on first use; undefined when none is valid. */
  lookup(apiVersion: string, kind: string): CompiledCrdImpl | undefined {
    const slash = apiVersion.indexOf("/");
    if (slash < 0) return undefined;
    const list = this.byGroupKind.get(`${apiVersion.slice(0, slash)}/${kind}`);
    if (!list) return undefined;
    // the last registered valid CRD wins
    for (let i = list.length - 1; i >= 0; i--) {
      const r = this.ensure(list[i]!);
      if (r.ok) return r.compiled;
    }
    return undefined;
  }

  private register(c: IndexedCrd, file: string, load: () => JsonValue | undefined, silent: boolean): Entry {
    const e: Entry = { origin: { file, index: c.index, line: c.line, column: c.column }, load, silent };
    // a CRD without group or kind cannot be looked up: it is checked (and reported) when first needed
    this.push(`${c.group}/${c.kind}`, e);
    return e;
  }

  private push(key: string, e: Entry): void {
    const list = this.byGroupKind.get(key);
    const before = list?.[list.length - 1];
    // the same file reached twice (as --crds and inside an input directory) is not a second definition
    if (before && !before.fromCluster && !(resolvePath(before.origin.file) === resolvePath(e.origin.file) && before.origin.index === e.origin.index)) {
      const slash = key.indexOf("/");
      this.onDuplicate?.(before.origin, e.origin, key.slice(0, slash), key.slice(slash + 1));
    }
    if (list) list.push(e);
    else this.byGroupKind.set(key, [e]);
  }

  /** A CRD that passed the checks, compiled from the cache's decoded form (no document read or decoded). */
  private compileCached(fileKey: string, index: number, e: Entry): CompileResult | undefined {
    const hit = this.cache!.getDecodedCrd(fileKey, index);
    const decoded = hit && decodedCrdFromEntry(hit.value);
    if (!hit || !decoded) return undefined;
    e.name = decoded.crd.metadata.name ?? "";
    this.compiledCount++;
    const structuralFacts = structuralFactsFromEntry(hit.value, decoded);
    const onStructural = rulePrograms(this.cache!, fileKey, index);
    return compileDecoded(decoded, hit.warnings, structuralFacts ? { ...LAZY, structuralFacts, onStructural } : { ...LAZY, onStructural });
  }

  private ensure(e: Entry): CompileResult {
    if (e.result) return e.result;
    const compiled = e.loadCompiled?.();
    if (compiled) return (e.result = compiled);
    const value = e.load();
    if (isObject(value)) {
      const md = getKey(value, "metadata");
      if (isObject(md)) e.name = str(md, "name");
    }
    if (value === undefined) {
      e.result = { ok: false, message: "the CRD document could not be read again", errors: ["the CRD document could not be read again"] };
    } else e.result = this.compile(value, e);
    if (!e.result.ok && !e.silent) this.onInvalid(e.origin, value, e.result.errors);
    return e.result;
  }

  private compile(value: JsonValue, e: Entry): CompileResult {
    this.compiledCount++;
    let key = e.crdKey;
    if (this.cache && key === undefined) {
      key = this.cache.crdKey(value);
      // next time, the document is read as JSON instead of being decoded again (written before compiling:
      // compiling may keep parts of the value)
      if (e.fileKey !== undefined) this.cache.putCrdValue(e.fileKey, e.origin.index, key, value);
    }
    const cached = key === undefined ? undefined : this.cache!.getVerdict(key);
    const checked: CrdVerdict & { decoded?: DecodedCrd } = cached ?? checkCrd(value);
    if (!cached && key !== undefined) {
      const v: CrdVerdict = checked.ok ? { ok: true, warnings: checked.warnings } : { ok: false, message: checked.message, errors: checked.errors };
      this.cache!.putVerdict(key, v);
    }
    if (!checked.ok) return checked;
    const d = checked.decoded ?? decodeCrd(value);
    if (!d.ok) return { ok: false, message: d.message, errors: [d.message] };
    // next time, the CRD is compiled from its decoded form (written before compiling, as above)
    if (this.cache && e.fileKey !== undefined) {
      let entry: ReturnType<typeof decodedCrdEntry> | undefined;
      try {
        entry = decodedCrdEntry(d);
      } catch {
        // a schema nested too deeply to copy: not cached (compiled from the document next time)
      }
      if (entry) this.cache.putDecodedCrd(e.fileKey, e.origin.index, checked.warnings, entry);
    }
    return compileDecoded(d, checked.warnings, this.cache && e.fileKey !== undefined ? { ...LAZY, onStructural: rulePrograms(this.cache, e.fileKey, e.origin.index) } : LAZY);
  }
}

/** The CRDs compiled here passed the create checks: each version is compiled when first used. */
const LAZY = { lazyVersions: true };
