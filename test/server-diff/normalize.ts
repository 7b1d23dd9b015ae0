/**
 * Normalisation of HTTP answers and kubectl output for the server differential suite: values that differ
 * between any two API servers by design (uids, timestamps, resourceVersions, continue tokens, ports) are
 * masked; everything else is compared as is.
 */

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;
const RFC3339 = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})/g;

const AGE = /^\d+(?:s|m(?:\d+s)?|h(?:\d+m)?|d(?:\d+h)?)$/;

/** Keys whose values are masked wherever they occur in a JSON answer. */
const MASKED_KEYS: Record<string, string> = {
  uid: "<uid>",
  creationTimestamp: "<time>",
  deletionTimestamp: "<time>",
  lastTransitionTime: "<time>",
  resourceVersion: "<rv>",
  time: "<time>",
  continue: "<continue>",
  serverAddress: "<address>",
  storageVersionHash: "<hash>",
};

/**
 * Managed-fields entries are sorted by operation, then time (seconds), then manager…: with the times masked, two
 * writes in different seconds must not decide the comparison, so sort as if all were in the same second.
 */
function compareEntries(a: unknown, b: unknown): number {
  const id = (e: unknown) => {
    const m = (e ?? {}) as Record<string, unknown>;
    return [m["operation"], m["manager"], m["apiVersion"], m["subresource"] ?? ""].map(String);
  };
  const x = id(a);
  const y = id(b);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return 0;
}

/** The end (index after) of the JSON array or object starting at `start` of JSON text `t`. */
function containerEnd(t: string, start: number): number {
  let depth = 0;
  for (let i = start; i < t.length; i++) {
    const c = t[i]!;
    if (c === '"') {
      for (i++; i < t.length && t[i] !== '"'; i++) if (t[i] === "\\") i++;
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** The elements' texts of the JSON array text `a` (`[x,y]`, compact). */
function arrayElements(a: string): string[] {
  const out: string[] = [];
  for (let i = 1; i < a.length - 1; ) {
    const end = a[i] === "{" || a[i] === "[" ? containerEnd(a, i) : a.indexOf(",", i) < 0 ? a.length - 1 : a.indexOf(",", i);
    if (end < 0) return [];
    out.push(a.slice(i, end));
    i = end + 1;
  }
  return out;
}

/**
 * A patched document quoted in a 422 on field `patch` (`… Invalid value: "{…}": …`) with its managed-fields entries
 * in the order {@link compareEntries} gives (see there); any other text as it is.
 */
function sortQuotedManagedFields(s: string): string {
  const head = 'Invalid value: "';
  const from = s.indexOf(head) + head.length - 1;
  if (from < head.length - 1) return s;
  let i = from + 1;
  for (; i < s.length && s[i] !== '"'; i++) if (s[i] === "\\") i++;
  const quoted = s.slice(from, i + 1);
  let doc: string;
  try {
    doc = JSON.parse(quoted) as string;
  } catch {
    return s;
  }
  // Only a quoting JSON.stringify reproduces: the text is rewritten, never reinterpreted.
  if (JSON.stringify(doc) !== quoted) return s;
  const at = doc.indexOf('"managedFields":[');
  if (at < 0) return s;
  const start = at + '"managedFields":'.length;
  const end = containerEnd(doc, start);
  if (end < 0) return s;
  const texts = arrayElements(doc.slice(start, end));
  let entries: unknown[];
  try {
    entries = texts.map((t) => JSON.parse(t) as unknown);
  } catch {
    return s;
  }
  const order = texts.map((_, k) => k).sort((x, y) => compareEntries(entries[x], entries[y]));
  const sorted = `${doc.slice(0, start)}[${order.map((k) => texts[k]).join(",")}]${doc.slice(end)}`;
  return `${s.slice(0, from)}${JSON.stringify(sorted)}${s.slice(i + 1)}`;
}

/** Masks the server-specific values of a parsed JSON answer (a copy). */
export function normalizeJson(v: unknown, key = ""): unknown {
  const o = v as Record<string, unknown> | null;
  if (o !== null && typeof o === "object" && o["kind"] === "Status" && o["reason"] === "Invalid" && o["message"] !== "<aggregate of the causes>") {
    const details = o["details"] as { causes?: { field?: string; message?: string }[] } | undefined;
    if (details?.causes && details.causes.length > 1) {
      // Kubernetes validates object properties in Go map order: the order of several errors is not
      // deterministic, so compare them as a set (and the aggregate message, which lists them, not at all).
      const causes = [...details.causes].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      return normalizeJson({ ...o, message: "<aggregate of the causes>", details: { ...details, causes } }, key);
    }
  }
  if (Array.isArray(v) && key === "managedFields") return [...v].sort(compareEntries).map((x) => normalizeJson(x));
  if (Array.isArray(v)) return v.map((x) => normalizeJson(x));
  if (v !== null && typeof v === "object") {
    // Keys are compared sorted: Go encodes typed objects (CRDs, discovery, Table, Scale) in struct field order,
    // crdkit sorts every object's keys (Status excepted); JSON clients do not depend on the order.
    const out: Record<string, unknown> = {};
    // A key such as `__proto__` is the answer's own property, as JSON.parse made it (an assignment would set the prototype).
    const put = (k: string, x: unknown) => Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
    for (const [k, x] of Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const mask = Object.hasOwn(MASKED_KEYS, k) ? MASKED_KEYS[k] : undefined;
      if (k === "cells" && Array.isArray(x)) {
        // Table cells of date columns are ages computed at answer time.
        put(k, x.map((c) => (typeof c === "string" && AGE.test(c) ? "<age>" : normalizeJson(c))));
        continue;
      }
      put(k, mask !== undefined && (typeof x === "string" || typeof x === "number") && x !== "" ? mask : normalizeJson(x, k));
    }
    return out;
  }
  if (typeof v === "string") return normalizeText(key === "message" ? sortQuotedManagedFields(v) : v, key);
  return v;
}

/** Masks uids, timestamps and ports in free text (messages, kubectl output). */
export function normalizeText(s: string, _key = ""): string {
  return s
    .replace(UUID, "<uid>")
    .replace(RFC3339, "<time>")
    // HTTP dates (Last-Modified, Expires).
    .replace(/\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT\b/g, "<http-time>")
    // a Table's age cells (`"cells":[…,"5s"]`) in an answer kept as text
    .replace(/"cells":\[[^\]]*\]/g, (m) => m.replace(/"\d+(?:s|m(?:\d+s)?|h(?:\d+m)?|d(?:\d+h)?)"/g, '"<age>"'))
    .replace(/https?:\/\/127\.0\.0\.1:\d+/g, "<server>")
    .replace(/object not decodable revision=\d+/g, "object not decodable revision=<rv>")
    // The oracle serves each sequence under its own etcd prefix (`/registry-07-conversion/…`); crdkit's is `/registry/`.
    .replace(/\/registry-\d\d-[a-z0-9-]+\//g, "/registry/")
    .replace(/too old resource version: \d+ \(\d+\)/g, "too old resource version: <rv> (<rv>)")
    .replace(/the ResourceVersion in the precondition \(\d+\) does not match the ResourceVersion in record \(\d+\)/g, "the ResourceVersion in the precondition (<rv>) does not match the ResourceVersion in record (<rv>)")
    .replace(/ResourceVersion in precondition: \d+, ResourceVersion in object meta: \d+/g, "ResourceVersion in precondition: <rv>, ResourceVersion in object meta: <rv>")
    .replace(/Too large resource version: (\d+), current: \d+/g, "Too large resource version: $1, current: <rv>")
    .replace(/Resource Version:(\s+)\d+/g, "Resource Version:$1<rv>")
    .replace(/resourceVersion: "\d+"/g, 'resourceVersion: "<rv>"')
    .replace(/"resourceVersion": ?"\d+"/g, (m) => m.replace(/\d+/, "<rv>"))
    // A document quoted in a message (the 422 of a patch whose result does not decode).
    .replace(/\\"resourceVersion\\":\\"\d+\\"/g, '\\"resourceVersion\\":\\"<rv>\\"');
}

/** Masks kubectl's AGE column values (`0s`, `12s`, `3m4s`, `2h`) and free-text server values. */
export function normalizeKubectl(s: string): string {
  const out = sortBulletRuns(normalizeText(s))
    // kubectl diff: its temporary directories and the files' times in the unified diff's header.
    .replace(/\/(LIVE|MERGED)-\d+\//g, "/$1-<n>/")
    .replace(/\t\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ [+-]\d{4}$/gm, "\t<time>")
    .replace(/(?<=^|\s)\d+(?:s|m(?:\d+s)?|h(?:\d+m)?|d(?:\d+h)?)(?=\s|$)/gm, "<age>");
  // A table with ages: kubectl pads columns to the widest cell, so an age of another width ("9s", "10s")
  // moves the columns; compare the cells, not the padding.
  return out.includes("<age>") ? out.replace(/ {2,}/g, "   ") : out;
}

/** Sorts each run of consecutive `* ` lines: kubectl lists a 422's causes, whose order Kubernetes does not fix. */
function sortBulletRuns(s: string): string {
  const lines = s.split("\n");
  for (let i = 0; i < lines.length; ) {
    if (!lines[i]!.startsWith("* ")) {
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && lines[j]!.startsWith("* ")) j++;
    const run = lines.slice(i, j).sort();
    lines.splice(i, j - i, ...run);
    i = j;
  }
  return lines.join("\n");
}

/**
 * The paths both servers list in their index (`GET /`, and the 404 of a path nothing serves). Each server lists
 * what it serves: kube-apiserver also its post-start hooks' health checks, `/metrics` and `/statusz`, crdkit
 * also `/api`, `/api/v1` and its authentication, authorization and RBAC groups (see known-differences.txt,
 * `GET /apis`); so an index is compared by its form and by these paths, in their order.
 */
const COMMON_INDEX_PATHS = new Set([
  "/apis",
  "/apis/",
  "/apis/apiextensions.k8s.io",
  "/apis/apiextensions.k8s.io/v1",
  "/healthz",
  "/healthz/ping",
  "/livez",
  "/livez/ping",
  "/openapi/v2",
  "/openapi/v3",
  "/openapi/v3/",
  "/readyz",
  "/readyz/ping",
  "/version",
]);

/** `json.MarshalIndent` of `metav1.RootPaths` (two-space indent, no trailing newline). */
const INDEX_TEXT = /^\{\n {2}"paths": \[\n((?: {4}"[^"\\\n]*",\n)* {4}"[^"\\\n]*")\n {2}\]\n\}$/;

/**
 * An index answer's text as `{ index: { sorted, paths } }`: whether its paths are in Go's `sort.Strings` order,
 * and the common paths it lists, in its order. Any other text is returned as it is.
 */
export function normalizeIndex(text: string): unknown {
  const m = INDEX_TEXT.exec(text);
  if (!m) return text;
  const paths = m[1]!.split(",\n").map((l) => JSON.parse(l.trim()) as string);
  const sorted = paths.every((p, i) => i === 0 || paths[i - 1]! < p);
  return { index: { sorted, paths: paths.filter((p) => COMMON_INDEX_PATHS.has(p)) } };
}
