/**
 * The compiled-CRD cache of `crdkit validate` on disk, in the user cache directory
 * (`$XDG_CACHE_HOME/crdkit`, else `~/.cache/crdkit`): what is expensive and serialisable.
 *
 * - `verdict/<sha256>.json`: the CRD create checks' verdict (accepted with its warnings, or Kubernetes'
 *   errors), keyed by the CRD's content and crdkit's build — repeat runs skip the checks, CEL compilation
 *   and cost estimation.
 * - `index/<sha256>.json`: for a CRD file (keyed by its text and crdkit's build), where its CRDs are and
 *   which group and kind each defines — repeat runs decode only the CRDs a document uses.
 * - `value/<sha256>-<n>.json`: document n of such a file as JSON (with its verdict key): reading it is
 *   ~10x cheaper than decoding the YAML again.
 * - `builtin/<sha256>.json`: a built-in kind (release, apiVersion, kind) of the shipped schema bundle,
 *   resolved: repeat runs neither decompress the bundle nor resolve the kind's definitions.
 * - `decoded/<sha256>-<n>.json`: for such a document that passed the CRD checks, what decoding it as a CRD
 *   gives (./decoded-crd-entry.ts) and the checks' warnings: repeat runs compile it without reading the
 *   document, hashing it or decoding it again.
 * - `stat/<sha256>.json`: for a CRD file's path, its `file` key with the file's identity and times when it
 *   was hashed (./file-key-memo.ts): repeat runs neither read nor hash a file that has not changed since.
 *
 * - `programs/<sha256>-<n>.json`: for such a CRD, the compiled CEL programs of the schema nodes that
 *   validated objects reached (./rule-program-cache.ts): repeat runs plan them without parsing or
 *   type-checking the rules again.
 *
 * Entries live in a directory per build (`v1/<build>/`), pruned by ./cache-prune.ts.
 * Entries carry their key, crdkit's build and a checksum, and are checked when read (a corrupt, truncated
 * or foreign file is ignored and rewritten, never trusted) and
 * written to a temporary file renamed into place, so concurrent writers never leave a torn file.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import * as zlib from "node:zlib";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CrdVerdict } from "../pipeline/compile.js";
import { noteCacheFilled } from "./cache-filled.js";
import { buildDir, pruneCacheIfDue, touchBuild } from "./cache-prune.js";
import { lazyBuiltin } from "./lazy-builtin.js";
import { Float64, type JsonValue } from "../value/json-value.js";

const FORMAT = 1;

/** zlib's CRC-32 (Node >= 20.15 / 22.2), else undefined. */
/** node:crypto, loaded when a key is hashed or an entry written: a warm run of unchanged files does neither. */
const crypto = lazyBuiltin<typeof import("node:crypto")>("node:crypto");
const crc32: ((data: string) => number) | undefined = (zlib as { crc32?: (data: string) => number }).crc32;

/** Where a CRD document is in its file and what it defines (see {@link CrdFileIndex}). */
export interface IndexedCrd {
  /** Document index in the file. */
  index: number;
  /** Document position (1-based). */
  line: number;
  column: number;
  /** The YAML chunk holding the document: [start, end) in the file text; absent for JSON streams. */
  chunk?: [number, number];
  /** Lines before the chunk (to decode the chunk alone with the file's line numbers). */
  chunkLine?: number;
  group: string;
  kind: string;
}

/** A document of a CRD file that could not be decoded (reported as a DecodeError). */
export interface IndexedProblem {
  index: number;
  message: string;
  line: number;
  column: number;
}

/** What a CRD file holds, without its schemas. */
export interface CrdFileIndex {
  crds: IndexedCrd[];
  problems: IndexedProblem[];
}

/** The user cache directory of crdkit. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env["XDG_CACHE_HOME"];
  return join(xdg?.startsWith("/") ? xdg : join(homedir(), ".cache"), "crdkit");
}

let stampMemo: string | undefined;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else if (e.name.endsWith(".ts")) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

/** The cache for a `crdkit validate` run: none with --no-cache or `CRDKIT_NO_CACHE=1`. */
export function cacheFor(noCache: boolean, env: NodeJS.ProcessEnv = process.env): SchemaCache | undefined {
  if (noCache || (env["CRDKIT_NO_CACHE"] ?? "") !== "") return undefined;
  const cache = new SchemaCache(defaultCacheDir(env));
  // entries of other builds are never read again: pruned by age and size about once a day (./cache-prune.ts)
  touchBuild(cache.buildPath);
  pruneCacheIfDue(cache.dir, cache.buildName);
  return cache;
}

/**
 * crdkit's version and build: the package version plus this compiled module's size and mtime (every
 * `npm run build` rewrites it), so that a rebuilt crdkit never reads verdicts of another build.
 */
export function buildStamp(): string {
  if (stampMemo === undefined) {
    const self = fileURLToPath(import.meta.url);
    let version = "unknown";
    try {
      const pkg = JSON.parse(readFileSync(join(dirname(self), "..", "..", "package.json"), "utf8")) as { version?: unknown };
      if (typeof pkg.version === "string") version = pkg.version;
    } catch {
      // not in a package layout: the build stamp alone identifies the code
    }
    const st = statSync(self);
    // run from TypeScript sources (development): any edited source file makes a new build
    const dev = self.endsWith(".ts") ? ` ${newestMtime(join(dirname(self), ".."))}` : "";
    stampMemo = `crdkit ${version} ${st.size} ${st.mtimeMs}${dev}`;
  }
  return stampMemo;
}

/**
 * A deterministic serialisation of a value that keeps what the CRD checks see: key order, int64 vs
 * float64 (`1` vs `1.0`), big integers.
 */
export function serializeValue(v: JsonValue, out: string[] = []): string[] {
  if (v === null || typeof v === "boolean" || typeof v === "string") out.push(JSON.stringify(v));
  else if (typeof v === "number") out.push(Number.isInteger(v) ? String(v) : `f${String(v)}`);
  else if (typeof v === "bigint") out.push(`${v}n`);
  else if (v instanceof Float64) out.push(`f${Object.is(v.value, -0) ? "-0" : String(v.value)}`);
  else if (Array.isArray(v)) {
    out.push("[");
    for (const x of v) {
      serializeValue(x, out);
      out.push(",");
    }
    out.push("]");
  } else {
    out.push("{");
    for (const k of Object.keys(v)) {
      out.push(JSON.stringify(k), ":");
      serializeValue(v[k]!, out);
      out.push(",");
    }
    out.push("}");
  }
  return out;
}

function sha256(...parts: string[]): string {
  const h = crypto().createHash("sha256");
  for (const p of parts) h.update(p).update("\u0000");
  return h.digest("hex");
}

/**
 * A file name for what needs no strong hash: the build's directory and a file path's stat entry. Each entry
 * holds its key's own text (the build stamp, the path) and is checked against it when read, so two names
 * that meet only make a miss. 16 hex digits: CRC-32 and the length where Node has `zlib.crc32` (no node:crypto to load in a
 * warm run: its keys are all remembered), else SHA-256.
 */
function nameKey(...parts: string[]): string {
  if (!crc32) return sha256(...parts).slice(0, 16);
  const text = parts.join("\u0000");
  return `${(crc32(text) >>> 0).toString(16).padStart(8, "0")}${(text.length >>> 0).toString(16).padStart(8, "0")}`;
}

/**
 * The checksum an entry carries of its text: CRC-32 (zlib's, native; ~10x cheaper than SHA-256 on the
 * megabytes of schemas a run reads), or SHA-256 where Node has no `zlib.crc32` (before 20.15). It guards
 * against torn or corrupt files, not against forgery (the cache is the user's own); an entry written by a
 * Node that used the other sum is a miss and is written again.
 */
function checksum(text: string): string {
  return crc32 ? `crc32:${(crc32(text) >>> 0).toString(16)}` : sha256(text);
}

const isStringArray = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === "string");
const isInt = (x: unknown): x is number => Number.isSafeInteger(x);

function parseVerdict(x: unknown): CrdVerdict | undefined {
  if (typeof x !== "object" || x === null) return undefined;
  const o = x as Record<string, unknown>;
  if (o["ok"] === true && isStringArray(o["warnings"])) return { ok: true, warnings: o["warnings"] };
  if (o["ok"] === false && typeof o["message"] === "string" && isStringArray(o["errors"])) {
    return { ok: false, message: o["message"], errors: o["errors"] };
  }
  return undefined;
}

/** A file's identity and times (bigint `stat` fields, as decimal strings) when its text had key `key`. */
export interface FileStatEntry {
  path: string;
  dev: string;
  ino: string;
  size: string;
  mtimeNs: string;
  ctimeNs: string;
  /** When the file was stat'ed and read (ms since the epoch). */
  checkedAt: number;
  key: string;
}

function parseFileStat(x: unknown): FileStatEntry | undefined {
  if (typeof x !== "object" || x === null) return undefined;
  const o = x as Record<string, unknown>;
  for (const k of ["path", "dev", "ino", "size", "mtimeNs", "ctimeNs", "key"]) if (typeof o[k] !== "string") return undefined;
  if (typeof o["checkedAt"] !== "number" || !Number.isFinite(o["checkedAt"])) return undefined;
  return o as unknown as FileStatEntry;
}

function parseIndex(x: unknown): CrdFileIndex | undefined {
  if (typeof x !== "object" || x === null) return undefined;
  const o = x as Record<string, unknown>;
  const crds = o["crds"];
  const problems = o["problems"];
  if (!Array.isArray(crds) || !Array.isArray(problems)) return undefined;
  for (const c of crds as Record<string, unknown>[]) {
    if (typeof c !== "object" || c === null) return undefined;
    if (!isInt(c["index"]) || !isInt(c["line"]) || !isInt(c["column"]) || typeof c["group"] !== "string" || typeof c["kind"] !== "string") return undefined;
    const ch = c["chunk"];
    if (ch !== undefined && !(Array.isArray(ch) && ch.length === 2 && isInt(ch[0]) && isInt(ch[1]) && ch[0] >= 0 && ch[0] <= ch[1] && isInt(c["chunkLine"]))) return undefined;
  }
  for (const p of problems as Record<string, unknown>[]) {
    if (typeof p !== "object" || p === null || !isInt(p["index"]) || typeof p["message"] !== "string" || !isInt(p["line"]) || !isInt(p["column"])) return undefined;
  }
  return { crds: crds as IndexedCrd[], problems: problems as IndexedProblem[] };
}

const TAG_F64 = "\u0000f64";
const TAG_INT = "\u0000int";
const TAG_NUM = "\u0000num";

/**
 * JSON of a value; int64 beyond 2^53, integral float64, -0 and non-finite numbers become tagged objects
 * (read back by {@link untag}).
 */
export function encodeValue(v: unknown): { json: string; tagged: boolean } {
  let tagged = false;
  const json = JSON.stringify(v, function (this: Record<string, unknown>, k: string, x: unknown) {
    const orig = this[k];
    if (orig instanceof Float64) {
      tagged = true;
      return { [TAG_F64]: Object.is(orig.value, -0) || !Number.isFinite(orig.value) ? String(orig.value) : orig.value };
    }
    if (typeof x === "bigint") {
      tagged = true;
      return { [TAG_INT]: x.toString() };
    }
    if (Object.is(x, -0)) {
      tagged = true;
      return { [TAG_INT]: "-0" };
    }
    if (typeof x === "number" && !Number.isFinite(x)) {
      tagged = true;
      return { [TAG_NUM]: String(x) };
    }
    return x;
  });
  return { json, tagged };
}

/** The value of {@link encodeValue}'s JSON, parsed: tagged objects become the values they stand for. */
export function untag(v: unknown): JsonValue {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = untag(v[i]);
    return v as JsonValue[];
  }
  if (typeof v !== "object" || v === null) return v as JsonValue;
  const o = v as Record<string, unknown>;
  if (Object.hasOwn(o, TAG_F64)) {
    const n = o[TAG_F64];
    return new Float64(typeof n === "string" ? Number(n) : (n as number));
  }
  if (Object.hasOwn(o, TAG_INT)) {
    const n = o[TAG_INT] as string;
    return n === "-0" ? -0 : BigInt(n);
  }
  if (Object.hasOwn(o, TAG_NUM)) return Number(o[TAG_NUM] as string);
  for (const k of Object.keys(o)) o[k] = untag(o[k]);
  return o as JsonValue;
}

/** The cache; every method swallows I/O problems (a cache that cannot be read or written is a miss). */
export class SchemaCache {
  private readonly stamp: string;
  /** This build's directory under {@link dir}: `v<format>/<hash of the build stamp>`. */
  readonly buildName: string;
  readonly buildPath: string;
  /** What each {@link builtinKey} stands for. */
  private readonly builtinIds = new Map<string, string>();

  constructor(
    readonly dir: string = defaultCacheDir(),
    stamp: string = buildStamp(),
  ) {
    this.stamp = stamp;
    const build = nameKey(stamp);
    this.buildName = `v${FORMAT}/${build}`;
    this.buildPath = buildDir(dir, FORMAT, build);
  }

  /** The cache key of a CRD value. */
  crdKey(value: JsonValue): string {
    return sha256(this.stamp, "crd", serializeValue(value).join(""));
  }

  /** The cache key of a CRD file's text. */
  fileKey(text: string): string {
    return sha256(this.stamp, "file", text);
  }

  getVerdict(key: string): CrdVerdict | undefined {
    return this.read("verdict", key, parseVerdict);
  }

  putVerdict(key: string, v: CrdVerdict): void {
    const stored: CrdVerdict = v.ok ? { ok: true, warnings: v.warnings } : { ok: false, message: v.message, errors: v.errors };
    this.write("verdict", key, stored);
  }

  /** What {@link putFileStat} recorded for a file path (absolute). */
  getFileStat(path: string): FileStatEntry | undefined {
    const e = this.read("stat", nameKey("stat", path), parseFileStat);
    return e?.path === path ? e : undefined;
  }

  putFileStat(e: FileStatEntry): void {
    this.write("stat", nameKey("stat", e.path), e);
  }

  getIndex(key: string): CrdFileIndex | undefined {
    return this.read("index", key, parseIndex);
  }

  putIndex(key: string, idx: CrdFileIndex): void {
    this.write("index", key, idx);
  }

  /** A CRD document of an indexed file, with its verdict key. */
  getCrdValue(fileKey: string, index: number): { crdKey: string; value: JsonValue } | undefined {
    const e = this.readTagged("value", `${fileKey}-${index}`);
    return e && typeof e.head["crdKey"] === "string" ? { crdKey: e.head["crdKey"], value: e.value } : undefined;
  }

  putCrdValue(fileKey: string, index: number, crdKey: string, value: JsonValue): void {
    this.writeTagged("value", `${fileKey}-${index}`, { crdKey }, value);
  }

  /**
   * What document `index` of an indexed CRD file decodes to (./decoded-crd-entry.ts), with the CRD
   * checks' warnings: a CRD that passed them is compiled from it without being read or decoded again.
   */
  getDecodedCrd(fileKey: string, index: number): { warnings: string[]; value: JsonValue } | undefined {
    const e = this.readTagged("decoded", `${fileKey}-${index}`);
    return e && isStringArray(e.head["warnings"]) ? { warnings: e.head["warnings"], value: e.value } : undefined;
  }

  putDecodedCrd(fileKey: string, index: number, warnings: readonly string[], value: unknown): void {
    this.writeTagged("decoded", `${fileKey}-${index}`, { warnings }, value);
  }

  /** The compiled CEL programs of document `index` of an indexed CRD file (./rule-program-cache.ts), by node. */
  getRulePrograms(fileKey: string, index: number): Record<string, unknown> | undefined {
    // the tagged layout: its checksum is of the text read (not of the parsed entry serialised again)
    const x = this.readTagged("programs", `${fileKey}-${index}`)?.value;
    return typeof x === "object" && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;
  }

  putRulePrograms(fileKey: string, index: number, nodes: Record<string, unknown>): void {
    this.writeTagged("programs", `${fileKey}-${index}`, {}, nodes);
  }

  /** The cache key of a built-in kind of a schema bundle (./builtin-kind-cache.ts). */
  builtinKey(...parts: string[]): string {
    // a short name; the entry holds the parts themselves and is read only when they match
    const id = parts.join("\u0000");
    const key = nameKey("builtin", id);
    this.builtinIds.set(key, id);
    return key;
  }

  /** A built-in kind's resolved schema (or that the release has no usable such kind). */
  getBuiltinKind(key: string): JsonValue | undefined {
    const e = this.readTagged("builtin", key);
    return e !== undefined && e.head["id"] === this.builtinIds.get(key) ? e.value : undefined;
  }

  putBuiltinKind(key: string, value: unknown): void {
    const id = this.builtinIds.get(key);
    if (id !== undefined) this.writeTagged("builtin", key, { id }, value);
  }

  /** A value written by {@link writeTagged}: a header line (with the checksum of the rest), then its JSON. */
  private readTagged(kind: string, key: string): { head: Record<string, unknown>; value: JsonValue } | undefined {
    let text: string;
    try {
      text = readFileSync(this.path(kind, key), "utf8");
    } catch {
      return undefined;
    }
    const nl = text.indexOf("\n");
    if (nl < 0) return undefined;
    try {
      const head = JSON.parse(text.slice(0, nl)) as Record<string, unknown>;
      const body = text.slice(nl + 1);
      if (head["format"] !== FORMAT || head["key"] !== key || head["stamp"] !== this.stamp) return undefined;
      if (head["sum"] !== checksum(body)) return undefined;
      const parsed = JSON.parse(body) as unknown;
      return { head, value: head["tagged"] === true ? untag(parsed) : (parsed as JsonValue) };
    } catch {
      return undefined;
    }
  }

  private writeTagged(kind: string, key: string, extra: Record<string, unknown>, value: unknown): void {
    let enc: ReturnType<typeof encodeValue>;
    try {
      enc = encodeValue(value);
    } catch {
      return;
    }
    const head = JSON.stringify({ format: FORMAT, key, stamp: this.stamp, sum: checksum(enc.json), ...extra, tagged: enc.tagged });
    this.writeText(kind, key, `${head}\n${enc.json}`);
  }

  private path(kind: string, key: string): string {
    return join(this.buildPath, kind, `${key}.json`);
  }

  private read<T>(kind: string, key: string, parse: (x: unknown) => T | undefined): T | undefined {
    let text: string;
    try {
      text = readFileSync(this.path(kind, key), "utf8");
    } catch {
      return undefined;
    }
    try {
      const o = JSON.parse(text) as { format?: unknown; key?: unknown; stamp?: unknown; sum?: unknown; entry?: unknown };
      if (o.format !== FORMAT || o.key !== key || o.stamp !== this.stamp) return undefined;
      if (o.sum !== checksum(JSON.stringify(o.entry))) return undefined;
      return parse(o.entry);
    } catch {
      return undefined;
    }
  }

  private write(kind: string, key: string, entry: unknown): void {
    const json = JSON.stringify(entry);
    this.writeText(kind, key, `{"format":${FORMAT},"key":${JSON.stringify(key)},"stamp":${JSON.stringify(this.stamp)},"sum":"${checksum(json)}","entry":${json}}`);
  }

  private writeText(kind: string, key: string, text: string): void {
    if (kind !== "stat") noteCacheFilled();
    const file = this.path(kind, key);
    const tmp = `${file}.${process.pid}.${crypto().randomBytes(6).toString("hex")}.tmp`;
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(tmp, text);
      renameSync(tmp, file);
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // nothing written
      }
    }
  }
}
