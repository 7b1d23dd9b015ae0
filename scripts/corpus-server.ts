/**
 * The real-world corpus through `crdkit serve` and the real apiextensions-apiserver (tools/k8s-server-oracle on
 * etcd; see test/server-diff/oracle.ts), compared answer by answer:
 *
 *   npm run corpus:server -- [--project NAME]... [--quiet] [--full] [--tls] [--etcd] [--kubectl]
 *
 * For each project of the corpus (test/corpus-root.ts), on a fresh crdkit server and a fresh oracle (own etcd
 * prefix): creates every CRD (as `kubectl create -f` sends it), waits for each to be Established, then creates every
 * example custom resource (in namespace `default`, the one the oracle has), reads each back, updates it with the
 * same manifest (PUT), reads it at every other served version of its CRD, applies it again
 * (server-side, another manager), merge-patches a label onto it, reads its status, lists each resource as a Table
 * (`kubectl get`), reads discovery and the OpenAPI v3 document of each group version, and deletes the examples. Prints each
 * differing answer (the request and both answers) and a summary grouped by signature
 * (test/server-diff/fuzz/signature.ts). Needs `K8S_SERVER_ORACLE_BIN` (or Go) and `K8S_SERVER_ORACLE_ETCD` (or
 * `etcd` on the PATH), as `npm run golden:server`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { decodeDocuments } from "../src/io/index.js";
import { startServer } from "../src/server/server.js";
import { EtcdStore } from "../src/storage/etcd/etcd-store.js";
import { corpusRoot } from "../test/corpus-root.js";
import { byChance } from "../test/server-diff/fuzz/by-chance.js";
import { cutText, showAnswer } from "../test/server-diff/fuzz/show-answer.js";
import { signature } from "../test/server-diff/fuzz/signature.js";
import { oracleBinary, startOracleCluster } from "../test/server-diff/oracle.js";
import { runSequence, type HttpStep, type KubectlStep, type Sequence, type Step, type StepResult } from "../test/server-diff/runner.js";

const quiet = process.argv.includes("--quiet");
const full = process.argv.includes("--full");
const tls = process.argv.includes("--tls");
/** crdkit on the oracle's etcd (under a prefix of its own) instead of its default in-memory store */
const onEtcd = process.argv.includes("--etcd");
/** the real kubectl against both servers instead of HTTP requests (apply, server-side apply, get, explain, delete) */
const withKubectl = process.argv.includes("--kubectl");
const chosen = process.argv.flatMap((a, i) => (a === "--project" ? [process.argv[i + 1]!] : a.startsWith("--project=") ? [a.slice(10)] : []));

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every document of every YAML/JSON file under `dir` (sorted paths), with its file. */
function documents(dir: string): { file: string; value: Obj }[] {
  if (!existsSync(dir)) return [];
  const out: { file: string; value: Obj }[] = [];
  const walk = (d: string) => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ya?ml|json)$/.test(f)) {
        for (const doc of decodeDocuments(readFileSync(p, "utf8"))) {
          if (isObj(doc.value)) out.push({ file: p, value: doc.value });
        }
      }
    }
  };
  walk(dir);
  return out;
}

interface Resource {
  group: string;
  plural: string;
  namespaced: boolean;
  versions: string[];
  /** the versions with a status subresource */
  status: Set<string>;
}

/** The sequence of one project: its CRDs, their examples, reads, tables, discovery and OpenAPI. */
function projectSequence(project: string): { seq: Sequence; crds: number; examples: number } {
  const root = join(corpusRoot(), project);
  const crdDocs = documents(join(root, "crds")).filter((d) => d.value["kind"] === "CustomResourceDefinition");
  const byKind = new Map<string, Resource>();
  const steps: Step[] = [];
  const seen = new Set<string>();
  for (const { value } of crdDocs) {
    const name = String((value["metadata"] as Obj | undefined)?.["name"] ?? "");
    if (seen.has(name)) continue; // a second channel of the same CRD (gateway-api's experimental one)
    seen.add(name);
    const spec = value["spec"] as Obj;
    const names = spec["names"] as Obj;
    const versions = ((spec["versions"] as Obj[] | undefined) ?? []).filter((v) => v["served"] !== false).map((v) => String(v["name"]));
    const status = new Set(((spec["versions"] as Obj[] | undefined) ?? []).filter((v) => isObj(v["subresources"]) && isObj(v["subresources"]["status"])).map((v) => String(v["name"])));
    byKind.set(`${String(spec["group"])}/${String(names["kind"])}`, { group: String(spec["group"]), plural: String(names["plural"]), namespaced: spec["scope"] === "Namespaced", versions, status });
    steps.push({ name: `create CRD ${name}`, method: "POST", path: "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body: value, literal: true });
  }
  for (const name of seen) steps.push({ wait: { established: name, listable: true } });
  let examples = 0;
  const created: { path: string; name: string; body: Obj; status: boolean; version: string; otherVersions: string[] }[] = [];
  for (const dir of ["examples", "invalid-examples"]) {
    for (const { file, value } of documents(join(root, dir))) {
      const apiVersion = typeof value["apiVersion"] === "string" ? value["apiVersion"] : "";
      const slash = apiVersion.lastIndexOf("/");
      const group = slash < 0 ? "" : apiVersion.slice(0, slash);
      const r = byKind.get(`${group}/${String(value["kind"])}`);
      if (!r) continue;
      const version = apiVersion.slice(slash + 1);
      const meta = isObj(value["metadata"]) ? { ...value["metadata"] } : {};
      if (r.namespaced) meta["namespace"] = "default";
      else delete meta["namespace"];
      const body = { ...value, metadata: meta };
      const base = `/apis/${group}/${version}${r.namespaced ? "/namespaces/default" : ""}/${r.plural}`;
      examples++;
      const label = `${dir}/${file.slice(root.length + 1).split("/").pop()}`;
      steps.push({ name: `create ${label} ${String(value["kind"])}`, method: "POST", path: `${base}?fieldValidation=Strict`, body, literal: true });
      if (typeof meta["name"] === "string" && meta["name"] !== "") created.push({ path: `${base}/${meta["name"]}`, name: label, body, status: r.status.has(version), version, otherVersions: r.versions.filter((x) => x !== version) });
    }
  }
  for (const c of created) steps.push({ name: `get ${c.name}`, method: "GET", path: c.path });
  // Writes on what was created: a server-side apply of the same manifest by another manager (no conflict: the
  // values are the same), a merge patch, the status subresource, and the deletes.
  for (const c of created) {
    steps.push({ name: `put ${c.name} again`, method: "PUT", path: c.path, body: c.body, literal: true });
    for (const v of c.otherVersions) steps.push({ name: `get ${c.name} at ${v}`, method: "GET", path: c.path.replace(`/${c.version}/`, `/${v}/`) });
    steps.push({ name: `apply ${c.name}`, method: "PATCH", path: `${c.path}?fieldManager=corpus-apply`, contentType: "application/apply-patch+yaml", body: c.body, literal: true });
    steps.push({ name: `merge patch ${c.name}`, method: "PATCH", path: c.path, contentType: "application/merge-patch+json", body: { metadata: { labels: { "corpus.crdkit.dev/patched": "yes" } } } });
    if (c.status) steps.push({ name: `status of ${c.name}`, method: "GET", path: `${c.path}/status` });
  }
  const groupVersions = new Set<string>();
  for (const r of byKind.values()) {
    for (const v of r.versions) {
      groupVersions.add(`${r.group}/${v}`);
      steps.push({ name: `table of ${r.plural}.${r.group}/${v}`, method: "GET", path: `/apis/${r.group}/${v}/${r.plural}`, headers: { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" } });
    }
  }
  for (const gv of [...groupVersions].sort()) {
    steps.push({ name: `discovery of ${gv}`, method: "GET", path: `/apis/${gv}` });
    steps.push({ name: `openapi v3 of ${gv}`, method: "GET", path: `/openapi/v3/apis/${gv}` });
  }
  for (const c of created) steps.push({ name: `delete ${c.name}`, method: "DELETE", path: c.path });
  return { seq: { description: `corpus ${project}`, garbageCollectorController: false, ...(tls ? { tls: true } : {}), steps }, crds: seen.size, examples };
}

/** The places two answers differ (at most `max`): each path and both values (short), for answers too long to print whole. */
function differences(a: unknown, b: unknown, max = 5, path = "", out: string[] = []): string[] {
  if (out.length >= max || JSON.stringify(a) === JSON.stringify(b)) return out;
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[k], b[k], max, `${path}.${k}`, out);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) differences(a[i], b[i], max, `${path}[${i}]`, out);
    return out;
  }
  if (typeof a === "string" && typeof b === "string" && (a.includes("\n") || b.includes("\n"))) {
    // long texts (kubectl's output): the first line that differs
    const [la, lb] = [a.split("\n"), b.split("\n")];
    const i = la.findIndex((l, j) => l !== lb[j]);
    const at = i < 0 ? la.length : i;
    out.push(`${path} line ${at + 1}: kubernetes ${JSON.stringify(la[at] ?? "(none)")}, crdkit ${JSON.stringify(lb[at] ?? "(none)")}`);
    return out;
  }
  const short = (v: unknown) => (v === undefined ? "(absent)" : JSON.stringify(v).slice(0, 400));
  out.push(`${path || "(whole)"}: kubernetes ${short(a)}, crdkit ${short(b)}`);
  return out;
}

/**
 * What differs by chance between two runs of the real server itself, put in one order: the resources of a CRD
 * group version's discovery (the discovery controller lists the CRDs from its informer's cache, a Go map, and does
 * not sort them: `customresource_discovery_controller.go`), and the rows of a Table whose objects got
 * generateName's random suffixes (rows come in name order); and the errors of an apply's typed conversion
 * (`failed to create typed patch object (…): …`): smd walks each of the object's maps in Go's map order and stops at
 * the first field the type does not declare, so which fields it names, and in which order, changes from one run of
 * the real server to the next (the lines are sorted, and an answer naming an undeclared field is compared up to the
 * object's name).
 */
/**
 * kubectl's text of a 422 lists the causes inline (`is invalid: [a: …, b: …]`) in the order the server gave them,
 * which for sibling properties is Go's map order in the real server's OpenAPI validator: sorted here.
 */
function sortedInlineCauses(text: string): string {
  return text.replace(/is invalid: \[(.*)\]$/gm, (_, list: string) => `is invalid: [${list.split(/, (?=(?:[\w.\-[\]]+|<nil>): )/).sort().join(", ")}]`);
}

/** An apply's typed-conversion error as kubectl prints it (one line, or `errors:` and one line per error): see `ordered`. */
function typedPatchErrorsMasked(text: string): string {
  return text
    .replace(/(failed to create typed patch object \([^)]*\)): errors:\n(?: {2}\..*(?:\n|$))+/g, "$1: (fields in Go map order)\n")
    .replace(/(failed to create typed patch object \([^)]*\)): \..*field not declared in schema$/gm, "$1: (fields in Go map order)");
}

function kubectlOrdered(r: StepResult | undefined): StepResult | undefined {
  const normal = (t: string) => typedPatchErrorsMasked(sortedInlineCauses(t));
  return r !== undefined && "stderr" in r ? { ...r, stderr: normal(r.stderr), stdout: normal(r.stdout) } : r;
}

function ordered(req: HttpStep, r: StepResult | undefined): StepResult | undefined {
  if (r === undefined || !("body" in r) || !isObj(r.body)) return r;
  const body = r.body;
  const sortBy = (key: (x: unknown) => string) => (l: unknown) => (Array.isArray(l) ? [...l].sort((x, y) => (key(x) < key(y) ? -1 : key(x) > key(y) ? 1 : 0)) : l);
  const message = body["message"];
  if (typeof message === "string" && message.startsWith("failed to create typed patch object")) {
    const head = message.indexOf("): ") + 3;
    const errors = message.slice(head);
    const lines = errors.startsWith("errors:\n") ? errors.slice(8).split("\n").sort() : [errors];
    const normal = errors.includes("field not declared in schema") ? "(fields in Go map order)" : lines.join("\n");
    return { ...r, body: { ...body, message: `${message.slice(0, head)}${normal}` } };
  }
  if (body["kind"] === "APIResourceList") return { ...r, body: { ...body, resources: sortBy((x) => String(isObj(x) ? x["name"] : ""))(body["resources"]) } };
  if (body["kind"] === "Table" && req.name?.startsWith("table of")) return { ...r, body: { ...body, rows: sortBy((x) => JSON.stringify(x))(body["rows"]) } };
  return r;
}

/**
 * `--kubectl`: the same project through the real kubectl on both servers, as a user installs and uses it: the CRDs
 * applied server-side (client-side apply would store each whole CRD in an annotation, too long for the big ones),
 * the examples applied client-side then server-side (as `kubectl apply` with and without `--server-side`),
 * `kubectl get -o wide` of every resource, `kubectl explain` of the first resources, and a delete of the examples.
 */
function kubectlSequence(project: string, http: Sequence): Sequence {
  const steps: Step[] = [];
  const crds = http.steps.filter((s): s is HttpStep => "method" in s && s.name?.startsWith("create CRD ") === true);
  const examples = http.steps.filter((s): s is HttpStep => "method" in s && s.method === "POST" && s.name?.startsWith("create CRD ") === false);
  // a JSON stream: kubectl reads input that starts with `{` as JSON objects one after the other (no `---`)
  const stream = (docs: HttpStep[]) => docs.map((d) => JSON.stringify(d.body)).join("\n");
  steps.push({ name: `kubectl apply --server-side the CRDs of ${project}`, kubectl: ["apply", "--server-side", "-f", "-"], stdin: stream(crds) });
  steps.push(...http.steps.filter((s) => "wait" in s));
  const resources = crds.map((c) => {
    const spec = (c.body as Obj)["spec"] as Obj;
    return `${String((spec["names"] as Obj)["plural"])}.${String(spec["group"])}`;
  });
  if (examples.length > 0) {
    steps.push({ name: "kubectl apply the examples", kubectl: ["apply", "-f", "-"], stdin: stream(examples) });
    steps.push({ name: "kubectl apply --server-side the examples", kubectl: ["apply", "--server-side", "-f", "-"], stdin: stream(examples) });
  }
  steps.push({ name: "kubectl get -o wide", kubectl: ["get", resources.join(","), "-A", "-o", "wide"] });
  for (const r of resources.slice(0, 3)) steps.push({ name: `kubectl explain ${r}`, kubectl: ["explain", r] });
  if (examples.length > 0) steps.push({ name: "kubectl delete the examples", kubectl: ["delete", "--wait=false", "-f", "-"], stdin: stream(examples) });
  return { ...http, steps };
}

const cut = (s: string): string => cutText(s, full);
const show = (r: StepResult | undefined): string => showAnswer(r, full);

const projects = readdirSync(corpusRoot())
  .filter((p) => existsSync(join(corpusRoot(), p, "crds")))
  .filter((p) => chosen.length === 0 || chosen.includes(p))
  .sort();
const cluster = await startOracleCluster(oracleBinary());
const groups = new Map<string, { count: number; example: string }>();
let total = 0;
let differing = 0;
try {
  for (const project of projects) {
    const built = projectSequence(project);
    const { crds, examples } = built;
    const seq = withKubectl ? kubectlSequence(project, built.seq) : built.seq;
    const store = onEtcd ? new EtcdStore({ servers: [cluster.etcdUrl], prefix: `/crdkit-corpus-${project}-${Date.now()}` }) : undefined;
    const crdkit = await startServer({ port: 0, garbageCollectorController: false, logRequests: false, ...(store ? { store } : {}) });
    const oracle = await cluster.startOracle(`corpus-${project}-${Date.now()}`);
    let want: StepResult[];
    let got: StepResult[];
    try {
      [want, got] = await Promise.all([runSequence(oracle.target, seq), runSequence({ url: crdkit.url, kubectlFlags: [] }, seq)]);
    } finally {
      await oracle.stop();
      await crdkit.close();
    }
    // one answer per request or kubectl run, in order (waits answer nothing)
    const requests = seq.steps.filter((s): s is HttpStep | KubectlStep => "method" in s || "kubectl" in s);
    let here = 0;
    for (let i = 0; i < requests.length; i++) {
      const req = requests[i]!;
      const w = want[i];
      const g = got[i];
      total++;
      const http = "method" in req ? req : undefined;
      if (http ? byChance(http, ordered(http, w)) === byChance(http, ordered(http, g)) : JSON.stringify(kubectlOrdered(w)) === JSON.stringify(kubectlOrdered(g))) continue;
      here++;
      const sig = http ? signature(http, w, g) : `kubectl ${(req as KubectlStep).kubectl.slice(0, 2).join(" ")}`;
      const e = groups.get(sig);
      if (e) e.count++;
      else groups.set(sig, { count: 1, example: `${project}: ${req.name}` });
      if (quiet) continue;
      const body = http?.body !== undefined ? JSON.stringify(http.body) : "";
      process.stdout.write(`\n=== DIFFERS (${project}): ${req.name}\nrequest: ${http ? `${http.method} ${http.path}` : `kubectl ${(req as KubectlStep).kubectl.join(" ")}`}\n`);
      if (body) process.stdout.write(`body: ${cut(body)}\n`);
      process.stdout.write(`kubernetes: ${show(w)}\ncrdkit:     ${show(g)}\ndifferences:\n  ${(http ? differences(ordered(http, w), ordered(http, g)) : differences(kubectlOrdered(w), kubectlOrdered(g))).join("\n  ")}\n`);
    }
    differing += here;
    process.stdout.write(`corpus:server ${project}: ${crds} CRDs, ${examples} examples, ${requests.length} requests, ${here} differ\n`);
  }
} finally {
  await cluster.close();
}
process.stdout.write(`\ncorpus:server: ${projects.length} projects, ${total} requests, ${differing} differ, ${groups.size} signatures\n`);
for (const [sig, { count, example }] of [...groups].sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))) {
  process.stdout.write(`${String(count).padStart(5)}  ${sig}  (e.g. ${example})\n`);
}
