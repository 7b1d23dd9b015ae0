/**
 * Generates `schemas/builtin.json.br`: the OpenAPI v3 schemas of Kubernetes' built-in kinds for the
 * releases crdkit supports, from the `api/openapi-spec/v3/*.json` documents of the `k8s.io/kubernetes`
 * module (downloaded through the Go module proxy with `go mod download`). Run on demand (needs Go and
 * network access to the module proxy), not in CI:
 *
 *   npm run gen:builtin                         # newest patch of every minor in MINORS
 *   npm run gen:builtin -- v1.37.2 v1.36.3 ...  # explicit module versions
 *
 * The bundle keeps only what validation needs: the definitions reachable from the kinds that the
 * API serves (a GVK named by an operation of the group-version's paths), descriptions and
 * `x-kubernetes-patch-*` dropped, every distinct definition body stored once across all releases.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants } from "node:zlib";

const MINORS = [27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37];
/**
 * Final patch releases that the module proxy's version list omits (it lists only some versions of
 * k8s.io/kubernetes; `go mod download` of an exact version still works).
 */
const KNOWN_NEWEST: Record<number, string> = { 27: "v1.27.16", 28: "v1.28.15", 29: "v1.29.15" };

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const out = join(root, "schemas", "builtin.json.br");

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

function go(args: string[]): string {
  return execFileSync("go", args, { cwd: "/tmp", encoding: "utf8", maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "pipe"] });
}

function semverCompare(a: string, b: string): number {
  const pa = a.slice(1).split(".").map(Number);
  const pb = b.slice(1).split(".").map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}

/** The newest patch of each minor: `go list -m -versions`, completed by {@link KNOWN_NEWEST}. */
function newestPatches(): string[] {
  const listed = go(["list", "-m", "-versions", "k8s.io/kubernetes"]).trim().split(/\s+/).slice(1);
  const res: string[] = [];
  for (const m of MINORS) {
    const cands = listed.filter((v) => new RegExp(`^v1\\.${m}\\.\\d+$`).test(v));
    const known = KNOWN_NEWEST[m];
    if (known) cands.push(known);
    cands.sort(semverCompare);
    const newest = cands.at(-1);
    if (!newest) throw new Error(`no k8s.io/kubernetes release for 1.${m}`);
    res.push(newest);
  }
  return res;
}

function specDir(moduleVersion: string): string {
  const info = JSON.parse(go(["mod", "download", "-json", `k8s.io/kubernetes@${moduleVersion}`])) as { Dir?: string; Error?: string };
  if (!info.Dir) throw new Error(`go mod download k8s.io/kubernetes@${moduleVersion}: ${info.Error ?? "no Dir"}`);
  return join(info.Dir, "api", "openapi-spec", "v3");
}

const REF_PREFIX = "#/components/schemas/";
const DROP = new Set(["description", "x-kubernetes-patch-strategy", "x-kubernetes-patch-merge-key", "x-kubernetes-group-version-kind", "example", "externalDocs", "title"]);

/** A schema body without documentation; `$ref`s shortened to the definition name. */
function strip(v: Json, inProperties = false): Json {
  if (Array.isArray(v)) return v.map((x) => strip(x));
  if (v === null || typeof v !== "object") return v;
  const o: Obj = {};
  for (const k of Object.keys(v).sort()) {
    if (!inProperties && DROP.has(k)) continue;
    const x = v[k]!;
    if (!inProperties && k === "$ref" && typeof x === "string") o[k] = x.startsWith(REF_PREFIX) ? x.slice(REF_PREFIX.length) : x;
    else if (!inProperties && (k === "properties" || k === "patternProperties")) o[k] = strip(x, true);
    else if (!inProperties && (k === "default" || k === "enum")) o[k] = x;
    else o[k] = strip(x);
  }
  return o;
}

function refs(v: Json, acc: Set<string>): void {
  if (Array.isArray(v)) for (const x of v) refs(x, acc);
  else if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      if (k === "$ref" && typeof x === "string" && x.startsWith(REF_PREFIX)) acc.add(x.slice(REF_PREFIX.length));
      else refs(x, acc);
    }
  }
}

interface Gvk {
  group: string;
  version: string;
  kind: string;
}

function gvksOf(v: Json | undefined): Gvk[] {
  if (!Array.isArray(v)) return [];
  return v.filter((x): x is Obj => x !== null && typeof x === "object" && !Array.isArray(x)).map((x) => ({
    group: String(x["group"] ?? ""),
    version: String(x["version"] ?? ""),
    kind: String(x["kind"] ?? ""),
  }));
}

const names: string[] = [];
const nameIndex = new Map<string, number>();
const bodies: Json[] = [];
const bodyIndex = new Map<string, number>();

function nameId(n: string): number {
  let i = nameIndex.get(n);
  if (i === undefined) {
    i = names.length;
    names.push(n);
    nameIndex.set(n, i);
  }
  return i;
}

function bodyId(b: Json): number {
  const key = JSON.stringify(b);
  let i = bodyIndex.get(key);
  if (i === undefined) {
    i = bodies.length;
    bodies.push(b);
    bodyIndex.set(key, i);
  }
  return i;
}

interface VersionEntry {
  module: string;
  /** [apiVersion, kind, definition name id, namespaced 0/1] */
  kinds: [string, string, number, number][];
  /** [definition name id, body id], sorted by name id */
  defs: [number, number][];
}

function processVersion(moduleVersion: string): VersionEntry {
  const dir = specDir(moduleVersion);
  const kinds: VersionEntry["kinds"] = [];
  const defs = new Map<string, Json>();
  for (const file of readdirSync(dir).sort()) {
    const m = /^(api|apis__(.+))__(v[^_]+)_openapi\.json$/.exec(file);
    if (!m) continue;
    const group = m[1] === "api" ? "" : m[2]!;
    const version = m[3]!;
    const doc = JSON.parse(readFileSync(join(dir, file), "utf8")) as Obj;
    const schemas = ((doc["components"] as Obj | undefined)?.["schemas"] ?? {}) as Obj;
    // kinds the group-version serves: GVKs of its operations, namespaced when under namespaces/{namespace}
    const served = new Map<string, boolean>();
    for (const [path, item] of Object.entries((doc["paths"] ?? {}) as Obj)) {
      for (const op of Object.values((item ?? {}) as Obj)) {
        if (op === null || typeof op !== "object" || Array.isArray(op)) continue;
        for (const g of gvksOf([op["x-kubernetes-group-version-kind"] ?? null])) {
          if (g.group !== group || g.version !== version) continue;
          served.set(g.kind, (served.get(g.kind) ?? false) || path.includes("/namespaces/{namespace}/"));
        }
      }
    }
    const wanted: string[] = [];
    for (const [name, def] of Object.entries(schemas)) {
      for (const g of gvksOf((def as Obj)["x-kubernetes-group-version-kind"])) {
        if (g.group !== group || g.version !== version || !served.has(g.kind)) continue;
        kinds.push([group === "" ? version : `${group}/${version}`, g.kind, nameId(name), served.get(g.kind) ? 1 : 0]);
        wanted.push(name);
      }
    }
    // the closure of referenced definitions
    const seen = new Set<string>();
    while (wanted.length > 0) {
      const n = wanted.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      const def = schemas[n];
      if (def === undefined) throw new Error(`${moduleVersion} ${file}: unresolved reference ${n}`);
      const body = strip(def);
      const prev = defs.get(n);
      if (prev !== undefined && JSON.stringify(prev) !== JSON.stringify(body)) {
        throw new Error(`${moduleVersion}: definition ${n} differs between group-versions`);
      }
      defs.set(n, body);
      const r = new Set<string>();
      refs(def, r);
      wanted.push(...r);
    }
  }
  kinds.sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1));
  const defList: [number, number][] = [...defs].map(([n, b]) => [nameId(n), bodyId(b)]);
  defList.sort((a, b) => a[0] - b[0]);
  return { module: moduleVersion, kinds, defs: defList };
}

const modules = process.argv.length > 2 ? process.argv.slice(2) : newestPatches();
const versions: Record<string, VersionEntry> = {};
for (const mv of modules) {
  const minor = mv.replace(/^v(\d+\.\d+)\..*$/, "$1");
  process.stderr.write(`${mv}...`);
  versions[minor] = processVersion(mv);
  process.stderr.write(` ${versions[minor].kinds.length} kinds, ${versions[minor].defs.length} definitions\n`);
}
const bundle = { format: 1, source: "k8s.io/kubernetes api/openapi-spec/v3", versions, names, bodies };
const json = JSON.stringify(bundle);
const compressed = brotliCompressSync(Buffer.from(json), {
  params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: json.length },
});
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, compressed);
process.stderr.write(
  `${Object.keys(versions).length} releases, ${bodies.length} distinct definition bodies, ${json.length} bytes JSON, ${statSync(out).size} bytes brotli → ${out}\n`,
);
