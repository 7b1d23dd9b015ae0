/**
 * The request generator of `npm run fuzz:server`: from a seed, the same list of steps every time (it never
 * looks at answers; later requests reach earlier answers only through `saveAs` templates). Each step is one
 * or two HTTP requests (a PUT is preceded by the GET whose resourceVersion it sends).
 */
import { Rng } from "../../fuzz/rng.js";
import type { HttpStep, Step } from "../runner.js";
import { GADGETS, GROUP, RESOURCES, WIDGETS, type FuzzResource, gadgetsCrd, validGadgetSpec, validWidgetSpec, widgetsCrd } from "./crds.js";
import { Entries, RawJson, jsonRawText, needsRaw } from "./json-raw.js";

export interface FuzzStep {
  /** 1-based. */
  index: number;
  requests: HttpStep[];
}

export interface FuzzPlan {
  /** Installs the CRDs (their answers are compared too, as step 0). */
  setup: Step[];
  steps: FuzzStep[];
}

const CRD_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

const LONG = "x".repeat(300);
const WEIRD: unknown[] = [
  null, true, false, "", "x", "1", "M", 0, -1, 1.5, 0.25, 2147483648, 1e21, LONG, "ü", [], {}, ["a", "a"], [1, "a"], { a: 1 },
  new RawJson("9223372036854775807"), new RawJson("9223372036854775808"), new RawJson("-9223372036854775809"),
  new RawJson("1.0"), new RawJson("1e3"), new RawJson("-0"), new RawJson("1e400"), new RawJson("100000000000000000000000"),
];
const UNKNOWN_KEYS = ["unknown", "Mode", "replicas", "spec", "metadata", "apiVersion", "x-y", ""];
// (Not "." or "..": a client resolves them in the path; request targets are 10-request-targets' concern.)
const BAD_NAMES = ["", "UPPER", "a_b", "-a", "a.", "a/b", "a%b", "x".repeat(254), "ab".repeat(40), "1.2.3", "é"];
const LABEL_KEYS = ["app", "a/b", "example.com/x", "-bad", "a".repeat(64), "kubernetes.io/", "/x", "a b", "UP/x", "x".repeat(254) + "/a"];
const LABEL_VALUES = ["v", "", "a".repeat(64), "-v", "v v", "ü", "1"];

class Gen {
  constructor(readonly rng: Rng) {}
  pick<T>(xs: readonly T[]): T {
    return this.rng.pick(xs);
  }
  chance(p: number): boolean {
    return this.rng.chance(p);
  }
  weird(): unknown {
    return this.pick(WEIRD);
  }

  /** Replaces, removes, adds or doubles one node of `v` (a fresh copy). */
  mutate(v: unknown, depth = 0): unknown {
    if (depth > 0 && this.chance(0.3)) return this.weird();
    if (Array.isArray(v)) {
      if (v.length === 0 || this.chance(0.3)) return this.chance(0.5) ? [...v, this.weird()] : [...v, ...v];
      const i = this.rng.int(0, v.length - 1);
      return v.map((x, j) => (j === i ? this.mutate(x, depth + 1) : x));
    }
    if (v !== null && typeof v === "object" && !(v instanceof RawJson) && !(v instanceof Entries)) {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      const r = this.rng.next();
      if (keys.length === 0 || r < 0.12) return { ...o, [this.pick(UNKNOWN_KEYS)]: this.weird() };
      const k = this.pick(keys);
      if (r < 0.22) {
        const { [k]: _, ...rest } = o;
        return rest;
      }
      if (r < 0.3) return new Entries([...Object.entries(o), [k, this.chance(0.5) ? o[k] : this.mutate(o[k], depth + 1)]]);
      return { ...o, [k]: this.mutate(o[k], depth + 1) };
    }
    return this.weird();
  }

  name(res: FuzzResource): string {
    return this.chance(0.05) ? this.pick(BAD_NAMES) : this.pick(res.names);
  }

  labels(): Record<string, string> {
    const out: Record<string, string> = {};
    for (let i = this.rng.int(0, 2); i > 0; i--) out[this.chance(0.7) ? "app" : this.pick(LABEL_KEYS)] = this.chance(0.8) ? this.pick(["1", "2", "v"]) : this.pick(LABEL_VALUES);
    return out;
  }

  /** Metadata with mostly valid, sometimes bad, fields. */
  metadata(name: string, res: FuzzResource): Record<string, unknown> {
    const m: Record<string, unknown> = { name };
    if (this.chance(0.5)) m["labels"] = this.labels();
    const r = this.rng.next();
    if (r < 0.04) m["annotations"] = { [this.pick(LABEL_KEYS)]: this.pick(["v", LONG.repeat(900)]) };
    else if (r < 0.08) m["finalizers"] = [this.pick(["example.com/f", "bad", "kubernetes", "a/b/c", "example.com/f", "orphan", "foregroundDeletion"])];
    else if (r < 0.12)
      m["ownerReferences"] = [
        this.mutate({ apiVersion: `${GROUP}/v1`, kind: "Gadget", name: "g1", uid: "11111111-2222-3333-4444-555555555555", controller: this.chance(0.5) }),
      ];
    else if (r < 0.15) m["generateName"] = this.pick(["w-", "BAD-", "", "x".repeat(70)]);
    else if (r < 0.18) m["namespace"] = this.pick(["default", "other", "", "BAD"]);
    else if (r < 0.21) m["resourceVersion"] = this.pick(["1", "abc", "", "0"]);
    else if (r < 0.24) m[this.pick(["uid", "creationTimestamp", "deletionGracePeriodSeconds", "generation", "selfLink", "managedFields", "deletionTimestamp"])] = this.weird();
    else if (r < 0.27) return this.mutate(m) as Record<string, unknown>;
    if (!res.namespaced && this.chance(0.05)) m["namespace"] = "default";
    return m;
  }

  object(res: FuzzResource, name: string, version = res.versions[0]!): Record<string, unknown> {
    const i = this.rng.int(0, 6);
    const spec = res === WIDGETS ? validWidgetSpec(i) : validGadgetSpec(i);
    if (res === WIDGETS) for (const k of Object.keys(spec)) if (k !== "mode" && this.chance(0.3)) delete spec[k];
    return { apiVersion: `${GROUP}/${version}`, kind: res.kind, metadata: this.metadata(name, res), spec };
  }

  /** An object as a body: valid, or with 1–3 mutations, sometimes without apiVersion/kind or not an object. */
  objectBody(res: FuzzResource, name: string, version?: string): unknown {
    let o: unknown = this.object(res, name, version);
    if (this.chance(0.55)) for (let n = this.rng.int(1, 3); n > 0; n--) o = this.mutateSome(o);
    return o;
  }

  mutateSome(o: unknown): unknown {
    if (o === null || typeof o !== "object" || o instanceof Entries || Array.isArray(o)) return o;
    const obj = o as Record<string, unknown>;
    const r = this.rng.next();
    if (r < 0.55 && obj["spec"] !== null && typeof obj["spec"] === "object" && !(obj["spec"] instanceof Entries)) return { ...obj, spec: this.mutate(obj["spec"], 0) };
    if (r < 0.65) return { ...obj, [this.pick(["apiVersion", "kind"])]: this.pick([undefined, "", `${GROUP}/v3`, "v1", "Other", "widget", 1]) };
    if (r < 0.75) return { ...obj, status: this.mutate({ replicas: 1, phase: "Up" }) };
    if (r < 0.8) return this.pick([null, [], "x", 1, [obj]]);
    return this.mutate(obj);
  }

  query(kind: "create" | "update" | "patch" | "get" | "list" | "delete" | "deletecollection"): string {
    const ps: [string, string][] = [];
    const add = (p: number, k: string, vs: readonly string[]) => {
      if (this.chance(p)) ps.push([k, this.pick(vs)]);
    };
    const write = kind === "create" || kind === "update" || kind === "patch";
    if (write || kind === "delete" || kind === "deletecollection") add(0.15, "dryRun", ["All", "All", "all", "x", ""]);
    if (write) {
      add(0.15, "fieldManager", ["fz", "", "m".repeat(200), "a b", "kubectl-client-side-apply"]);
      add(0.25, "fieldValidation", ["Strict", "Warn", "Ignore", "strict", "x", ""]);
    }
    if (kind === "get" || kind === "list" || kind === "deletecollection") {
      add(0.12, "resourceVersion", ["0", "", "1", "abc", "-1", "{{list.metadata.resourceVersion}}"]);
      add(0.08, "resourceVersionMatch", ["NotOlderThan", "Exact", "x", ""]);
    }
    if (kind === "list" || kind === "deletecollection") {
      add(0.25, "limit", ["1", "2", "0", "-1", "x", "500"]);
      add(0.1, "continue", ["x", "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJ3MVx1MDAwMCJ9", "{{list.metadata.continue}}", ""]);
      add(0.2, "labelSelector", ["app=1", "app in (1,2)", "!app", "app!=", "===", "app=1,b", "app", "a/b=c", "app=" + "v".repeat(70), "app notin (v)"]);
      add(0.15, "fieldSelector", ["metadata.name=w1", "metadata.namespace=default", "metadata.name!=w2", "spec.mode=a", "metadata.name==w1", "x", "metadata.name=w1,metadata.namespace!=x", "status.phase=Up"]);
      add(0.08, "timeoutSeconds", ["1", "x", "-5"]);
    }
    if (kind === "delete" || kind === "deletecollection") {
      add(0.2, "propagationPolicy", ["Foreground", "Background", "Orphan", "x"]);
      add(0.15, "gracePeriodSeconds", ["0", "30", "-1", "x"]);
      add(0.05, "orphanDependents", ["true", "false", "x"]);
    }
    if (this.chance(0.03)) ps.push(["pretty", this.pick(["true", "x"])]);
    if (ps.length === 0) return "";
    return `?${ps.map(([k, v]) => `${k}=${v.includes("{{") ? v : encodeURIComponent(v)}`).join("&")}`;
  }

  headers(): Record<string, string> | undefined {
    if (!this.chance(0.12)) return undefined;
    return {
      Accept: this.pick([
        "application/json",
        "application/yaml",
        "application/vnd.kubernetes.protobuf",
        "application/json;as=Table;v=v1;g=meta.k8s.io",
        "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io",
        "application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io",
        "text/plain",
        "*/*",
        "garbage",
        "application/json;stream=watch",
      ]),
    };
  }

  collection(res: FuzzResource, version = res.versions[0]!): string {
    return res.namespaced ? `/apis/${GROUP}/${version}/namespaces/default/${res.plural}` : `/apis/${GROUP}/${version}/${res.plural}`;
  }
}

/** Sets `body` (JSON or raw text) on a request. */
function withBody(req: HttpStep, body: unknown): HttpStep {
  if (needsRaw(body)) return { ...req, raw: jsonRawText(body) };
  if (body === undefined) return { ...req, raw: "" };
  return { ...req, body };
}

function httpStep(name: string, method: string, path: string, extra: Partial<HttpStep> = {}): HttpStep {
  return { name, method, path, ...extra };
}

function createContentType(g: Gen): string | undefined {
  if (!g.chance(0.1)) return undefined;
  // (Not protobuf: the real server drops the connection on a JSON body sent as protobuf to a custom resource.)
  return g.pick(["application/yaml", "text/plain", "", "application/json; charset=utf-8", "application/merge-patch+json", "x"]);
}

function genStep(g: Gen, index: number): HttpStep[] {
  const tag = `#${index}`;
  const res = g.chance(0.75) ? WIDGETS : GADGETS;
  const version = g.chance(0.85) ? res.versions[0]! : g.pick([...res.versions, "v9"]);
  const coll = g.collection(res, version);
  const headers = g.headers();
  const h = headers ? { headers } : {};
  const r = g.rng.next();
  const req = (method: string, path: string, extra: Partial<HttpStep> = {}): HttpStep => {
    const s = httpStep(`${tag} ${method} ${path}`, method, path, { ...h, ...extra });
    if (extra.contentType === undefined) delete s.contentType;
    return s;
  };
  if (r < 0.24) {
    // create
    const name = g.name(res);
    const ct = createContentType(g);
    const body = g.chance(0.03) ? g.pick(["{", "", "{\"apiVersion\":", "null", "[]", "apiVersion: x"]) : g.objectBody(res, name, version);
    const q = g.query("create");
    const s = req("POST", coll + q, ct !== undefined ? { contentType: ct } : {});
    return [typeof body === "string" ? { ...s, raw: body } : withBody(s, body)];
  }
  if (r < 0.36) {
    // update: GET the current object, then PUT a (mutated) object with its resourceVersion
    const name = g.name(res);
    const sub = res === WIDGETS && g.chance(0.3) ? g.pick(["status", "scale"]) : "";
    const path = `${coll}/${name}${sub ? `/${sub}` : ""}`;
    const saved = `cur${index}`;
    const get = httpStep(`${tag} GET ${path} (for the update)`, "GET", path, { saveAs: saved });
    let body: unknown;
    if (sub === "scale") {
      body = { apiVersion: "autoscaling/v1", kind: "Scale", metadata: { name, namespace: "default", resourceVersion: `{{${saved}.metadata.resourceVersion}}` }, spec: { replicas: g.rng.int(0, 3) } };
      if (g.chance(0.4)) body = g.mutate(body);
    } else {
      const o = g.object(res, name, version);
      const m = o["metadata"] as Record<string, unknown>;
      const rv = g.rng.next();
      if (rv < 0.75) m["resourceVersion"] = `{{${saved}.metadata.resourceVersion}}`;
      else if (rv < 0.85) m["resourceVersion"] = g.pick(["1", "x", ""]);
      if (sub === "status") o["status"] = g.chance(0.7) ? { replicas: g.rng.int(0, 3), selector: "app=1", phase: g.pick(["Up", "Down"]) } : g.mutate({ replicas: 1 });
      body = o;
      if (g.chance(0.5)) for (let n = g.rng.int(1, 2); n > 0; n--) body = g.mutateSome(body);
    }
    const ct = createContentType(g);
    return [get, withBody(req("PUT", path + g.query("update"), ct !== undefined ? { contentType: ct } : {}), body)];
  }
  if (r < 0.56) {
    // patch, of the four content types
    const name = g.name(res);
    const sub = res === WIDGETS && g.chance(0.25) ? g.pick(["status", "scale"]) : "";
    const path = `${coll}/${name}${sub ? `/${sub}` : ""}`;
    const kind = g.pick(["merge", "merge", "json", "json", "apply", "apply", "strategic"] as const);
    let q = g.query("patch");
    let body: unknown;
    let contentType: string;
    if (kind === "merge" || kind === "strategic") {
      contentType = kind === "merge" ? "application/merge-patch+json" : "application/strategic-merge-patch+json";
      if (sub === "scale") body = { spec: { replicas: g.rng.int(0, 5) } };
      else if (sub === "status") body = g.chance(0.6) ? { status: { replicas: g.rng.int(0, 3), phase: g.pick(["Up", "Down", "Sideways"]) } } : g.mutate({ status: { replicas: 1 } });
      else {
        const spec: Record<string, unknown> = {};
        const full = res === WIDGETS ? validWidgetSpec(g.rng.int(0, 6)) : validGadgetSpec(g.rng.int(0, 6));
        for (const k of Object.keys(full)) if (g.chance(0.3)) spec[k] = g.chance(0.25) ? null : full[k];
        let p: unknown = { spec };
        if (g.chance(0.25)) p = { ...(p as object), metadata: g.chance(0.5) ? { labels: g.labels() } : g.metadata(name, res) };
        if (g.chance(0.45)) p = g.mutate(p);
        body = g.chance(0.04) ? g.pick([null, [], "x", 1]) : p;
      }
    } else if (kind === "json") {
      contentType = "application/json-patch+json";
      const paths = sub === "scale" ? ["/spec/replicas", "/metadata/labels", "/spec"] : ["/spec/replicas", "/spec/mode", "/spec/tags/-", "/spec/tags/0", "/spec/items/0/value", "/spec/labels/k", "/metadata/labels", "/metadata/labels/app", "/status", "/spec/count", "/spec/x", "/nope/a", "", "/", "spec", "/spec/tags/9", "/metadata/name", "/apiVersion", "/spec/labels/a~1b"];
      const ops: unknown[] = [];
      for (let n = g.rng.int(1, 3); n > 0; n--) {
        const op = g.pick(["add", "replace", "remove", "test", "move", "copy", "x"]);
        const o: Record<string, unknown> = { op, path: g.pick(paths) };
        if (op === "move" || op === "copy") o["from"] = g.pick(paths);
        if (op !== "remove" && g.chance(0.9)) o["value"] = g.chance(0.5) ? g.pick([1, "b", ["t"], { app: "1" }, 3]) : g.weird();
        ops.push(g.chance(0.1) ? g.mutate(o) : o);
      }
      body = g.chance(0.05) ? g.pick([{}, null, "x", [[]]]) : ops;
    } else {
      contentType = "application/apply-patch+yaml";
      if (sub === "scale") return genStep(g, index); // apply to /scale: a known difference (24-status-scale-paging)
      if (!q.includes("fieldManager") && g.chance(0.9)) q += `${q ? "&" : "?"}fieldManager=${g.pick(["fz", "fz2"])}`;
      if (g.chance(0.2)) q += `${q ? "&" : "?"}force=${g.pick(["true", "false", "x"])}`;
      let o: unknown = g.object(res, name, version);
      if (sub === "status") (o as Record<string, unknown>)["status"] = { replicas: g.rng.int(0, 3), phase: "Up" };
      if (g.chance(0.45)) o = g.mutateSome(o);
      body = o;
      if (g.chance(0.05)) return [req("PATCH", path + q, { contentType, raw: g.pick(["a: [", "- 1", "", "apiVersion: x\nkind: Y\n", "{\"a\":1"]) })];
    }
    if (sub === "scale" && JSON.stringify(body).includes("replicas\":\"")) body = { spec: { replicas: 2 } }; // string replicas: known (24)
    return [withBody(req("PATCH", path + q, { contentType }), body)];
  }
  if (r < 0.68) {
    // get
    const name = g.name(res);
    const sub = res === WIDGETS && g.chance(0.25) ? g.pick(["status", "scale", "x"]) : "";
    return [req("GET", `${coll}/${name}${sub ? `/${sub}` : ""}${g.query("get")}`)];
  }
  if (r < 0.8) {
    // list
    const scope = res.namespaced && g.chance(0.2) ? `/apis/${GROUP}/${version}/${res.plural}` : coll;
    return [req("GET", scope + g.query("list"), { saveAs: "list" })];
  }
  if (r < 0.88) {
    // delete
    const name = g.name(res);
    const q = g.query("delete");
    const s = req("DELETE", `${coll}/${name}${q}`);
    if (g.chance(0.15)) {
      const opts = g.mutate({ kind: "DeleteOptions", apiVersion: "v1", propagationPolicy: "Background", preconditions: { uid: "11111111-2222-3333-4444-555555555555" } });
      return [withBody(s, opts)];
    }
    return [s];
  }
  if (r < 0.91) {
    return [req("DELETE", coll + g.query("deletecollection"))];
  }
  if (r < 0.97) {
    // a CRD create with a mutated schema (dry run: no CRD is made, so no controller timing enters)
    const n = g.rng.int(1, 99);
    const crd = JSON.parse(JSON.stringify(g.chance(0.6) ? widgetsCrd() : gadgetsCrd())) as Record<string, unknown>;
    const spec = crd["spec"] as Record<string, unknown>;
    const names = spec["names"] as Record<string, unknown>;
    names["plural"] = `fz${n}s`;
    names["kind"] = `Fz${n}`;
    names["singular"] = `fz${n}`;
    delete names["listKind"];
    delete names["shortNames"];
    crd["metadata"] = { name: `fz${n}s.${GROUP}` };
    let body: unknown = crd;
    const versions = spec["versions"] as Record<string, unknown>[];
    const where = g.rng.next();
    for (let k = g.rng.int(1, 2); k > 0; k--) {
      if (where < 0.7) {
        const v = versions[0]!;
        const schema = (v["schema"] as Record<string, unknown>)["openAPIV3Schema"] as Record<string, unknown>;
        (v["schema"] as Record<string, unknown>)["openAPIV3Schema"] = mutateSchema(g, schema);
      } else body = g.mutate(body);
    }
    return [withBody(req("POST", `${CRD_PATH}?dryRun=All${g.chance(0.2) ? "&fieldValidation=Strict" : ""}`), body)];
  }
  // a CRD update (dry run): a merge patch of an installed CRD
  const target = g.pick(RESOURCES);
  const patch = g.pick<unknown>([
    { spec: { scope: g.pick(["Cluster", "Namespaced", "x"]) } },
    { spec: { names: { kind: g.pick(["Other", "", "widget"]) } } },
    { spec: { group: "other.example.com" } },
    { spec: { versions: [{ name: "v1", served: true, storage: false }] } },
    { spec: { versions: null } },
    { metadata: { name: "other" } },
    { spec: { preserveUnknownFields: true } },
    { spec: { conversion: { strategy: "Webhook" } } },
    { status: { storedVersions: ["v3"] } },
  ]);
  return [withBody(req("PATCH", `${CRD_PATH}/${target.crdName}?dryRun=All`, { contentType: "application/merge-patch+json" }), g.chance(0.3) ? g.mutate(patch) : patch)];
}

/** A schema node mutated the ways CRD validation has texts for. */
function mutateSchema(g: Gen, schema: Record<string, unknown>): unknown {
  const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Entries);
  const spec = isObj(schema) && isObj(schema["properties"]) ? schema["properties"]["spec"] : undefined;
  const props = isObj(spec) && isObj(spec["properties"]) ? (spec["properties"] as Record<string, Record<string, unknown>>) : undefined;
  if (!isObj(spec) || !props || Object.keys(props).length === 0) return g.mutate(schema);
  const key = g.pick(Object.keys(props));
  const node = isObj(props[key]) ? props[key] : {};
  const edits: Record<string, unknown>[] = [
    { type: g.pick(["strin", "", "null", "integer", "object", "array"]) },
    { default: g.weird() },
    { enum: g.pick([[], [1, "a"], ["a", "a"], [null], "x"]) },
    { "x-kubernetes-list-type": g.pick(["map", "set", "atomic", "x"]) },
    { "x-kubernetes-list-map-keys": g.pick([[], ["name", "name"], ["nope"], "name"]) },
    { "x-kubernetes-validations": [{ rule: g.pick(["self ==", "self.nope == 1", "oldSelf == self", "self.size() > 1", "1", "has(self.x)", "self.matches('[')", "self == oldSelf", ""]), message: g.pick(["m", "", "a\nb", undefined]) }] },
    { "x-kubernetes-validations": [{ rule: "self == oldSelf", optionalOldSelf: g.pick([true, "x"]) , reason: g.pick(["FieldValueInvalid", "Nope", undefined]), fieldPath: g.pick([".spec", ".x", "spec", undefined]) }] },
    { "x-kubernetes-int-or-string": true },
    { nullable: g.pick([true, "yes"]) },
    { maxLength: g.pick([-1, 1.5, "x", 2]), minLength: g.pick([3, undefined]) },
    { pattern: g.pick(["[", "(?=a)", "^a$", "\\p{Greek}"]) },
    { format: g.pick(["nope", "int32", "email", "byte"]) },
    { additionalProperties: g.pick([true, false, { type: "string" }]) },
    { items: g.pick([undefined, {}, [{ type: "string" }], { type: "x" }]) },
    { "x-kubernetes-preserve-unknown-fields": g.pick([true, false]) },
    { "x-kubernetes-embedded-resource": true },
    { required: g.pick([["nope"], "x", [1]]) },
    { $ref: "#/x" },
    { uniqueItems: true },
    { minimum: 5, maximum: 1 },
    { multipleOf: g.pick([0, -1, 2]) },
  ];
  const edit = g.pick(edits);
  const next = { ...node };
  for (const [k, v] of Object.entries(edit)) if (v === undefined) delete next[k];
  else next[k] = v;
  if (g.chance(0.2)) return { ...schema, [g.pick(["type", "properties", "x-kubernetes-preserve-unknown-fields", "default", "metadata"])]: g.weird() };
  return { ...schema, properties: { ...(schema["properties"] as object), spec: { ...spec, properties: { ...props, [key]: next } } } };
}

/** The plan of a seed: the setup and `count` steps. */
export function generatePlan(seed: number, count: number): FuzzPlan {
  const g = new Gen(new Rng(seed));
  const setup: Step[] = [
    { name: "#0 create the widgets CRD", method: "POST", path: CRD_PATH, body: widgetsCrd() },
    { name: "#0 create the gadgets CRD", method: "POST", path: CRD_PATH, body: gadgetsCrd() },
    { wait: { established: WIDGETS.crdName, listable: true } },
    { wait: { established: GADGETS.crdName, listable: true } },
  ];
  const steps: FuzzStep[] = [];
  for (let i = 1; i <= count; i++) steps.push({ index: i, requests: genStep(g, i) });
  return { setup, steps };
}
