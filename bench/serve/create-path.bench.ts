/**
 * CPU of crdkit's own create path, without HTTP, TLS or etcd: `ApiHandler.handle` of a built tree (dist/) on a
 * MemoryStore, fed in-process requests (a POST of the benches' small CronTab, 16 in flight) and answered into
 * a response object that keeps what it is given. What the server spends around it (Node's HTTPS, grpc-js,
 * etcd's watch events) is left out, so this is the part of a create that crdkit's code decides; then GETs of the
 * created objects (4 per object, after as many unmeasured), the same for a GET. Each tree runs in a child process
 * of its own, `--rounds` times, the trees alternating (A/B/A/B); prints µs per create and per GET of every round
 * and the medians. Build first (`npm run build`).
 *
 *   node --import tsx bench/serve/create-path.bench.ts [--baseline=DIR] [--rounds=6] [--creates=5000] [--warmup=5000]
 */
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { CRONTAB_CRD, cronTab } from "./crontab-fixture.js";

const arg = (name: string, d: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d;
const CONCURRENCY = 16;

/**
 * One measurement, run as plain JavaScript in a child process (no tsx: its loader would compile dist/ again,
 * with keepNames): `warmup` creates, then `creates` measured, then GETs of them; prints µs per create and per
 * GET. argv: root, warmup, creates, the CRD's text, a CronTab's text with NAME where its name goes.
 */
const CHILD = `
const [root, warmup, creates, crdText, bodyText] = process.argv.slice(1);
const { Readable } = await import("node:stream");
const { EventEmitter } = await import("node:events");
const { pathToFileURL } = await import("node:url");
const dist = (p) => import(pathToFileURL(root + "/dist/" + p).href);
const { ApiHandler } = await dist("server/server.js");
const { MemoryStore } = await dist("storage/memory-store.js");
const { setupSecurity } = await dist("server/auth/security.js");
const failures = [];
const log = (r) => { if (r.level === "error") failures.push(String(r.error)); };
const handler = new ApiHandler(new MemoryStore(), log, await setupSecurity({}, "127.0.0.1", undefined), undefined, false, {}, {});
await handler.start();
function request(method, url, body) {
  const bytes = body === undefined ? [] : [Buffer.from(body)];
  const req = Readable.from(bytes, { objectMode: false });
  req.method = method;
  req.url = url;
  req.headers = { host: "127.0.0.1", "user-agent": "bench/1.0" };
  if (body !== undefined) Object.assign(req.headers, { "content-type": "application/json", "content-length": String(bytes[0].length) });
  req.rawHeaders = Object.entries(req.headers).flat();
  req.socket = { remoteAddress: "127.0.0.1" };
  return req;
}
async function call(method, url, body) {
  const headers = new Map();
  const res = new EventEmitter();
  let text = "";
  Object.assign(res, {
    statusCode: 200, headersSent: false, writableEnded: false,
    setHeader: (k, v) => headers.set(k.toLowerCase(), v),
    getHeaderNames: () => [...headers.keys()],
    hasHeader: (k) => headers.has(k.toLowerCase()),
    removeHeader: (k) => headers.delete(k.toLowerCase()),
    writeHead(code) { res.statusCode = code; res.headersSent = true; return res; },
    end(b) { text = b === undefined ? "" : String(b); res.writableEnded = true; res.emit("finish"); },
  });
  await handler.handle(request(method, url, body), res);
  return { code: res.statusCode, body: text };
}
const crd = await call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crdText);
if (crd.code !== 201) throw new Error("CRD create: " + crd.code + " " + crd.body + failures.join("\\n"));
const coll = "/apis/stable.example.com/v1/namespaces/default/crontabs";
for (let i = 0; (await call("GET", coll)).code !== 200; i++) {
  if (i > 200) throw new Error("the CRD is not served");
  await new Promise((r) => setTimeout(r, 25));
}
async function load(prefix, n) {
  let next = 0;
  await Promise.all(Array.from({ length: ${CONCURRENCY} }, async () => {
    while (next < n) {
      const r = await call("POST", coll, bodyText.replace("NAME", prefix + "-" + next++));
      if (r.code !== 201) throw new Error("create: " + r.code + " " + r.body + failures.join("\\n"));
    }
  }));
}
await load("warm", Number(warmup));
const c0 = process.cpuUsage();
await load("ct", Number(creates));
const c = process.cpuUsage(c0);
async function gets(n) {
  let next = 0;
  await Promise.all(Array.from({ length: ${CONCURRENCY} }, async () => {
    while (next < n) {
      const r = await call("GET", coll + "/ct-" + (next++ % Number(creates)));
      if (r.code !== 200) throw new Error("get: " + r.code + " " + r.body);
    }
  }));
}
await gets(Number(creates) * 4);
const g0 = process.cpuUsage();
await gets(Number(creates) * 4);
const g = process.cpuUsage(g0);
process.stdout.write(((c.user + c.system) / Number(creates)).toFixed(1) + " " + ((g.user + g.system) / Number(creates) / 4).toFixed(2) + "\\n");
process.exit(0);
`;

const warmup = arg("warmup", "5000");
const creates = arg("creates", "5000");
const here = resolve(import.meta.dirname, "..", "..");
const baseline = arg("baseline", "");
const rounds = Number(arg("rounds", "6"));
const trees = [["crdkit", here], ...(baseline === "" ? [] : [["baseline", resolve(baseline)]])] as const;
const results = new Map<string, number[]>(trees.map(([label]) => [label, []]));
const getResults = new Map<string, number[]>(trees.map(([label]) => [label, []]));
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? trees : [...trees].reverse();
  for (const [label, root] of order) {
    const body = cronTab("NAME", 0).replace("NAME-0", "NAME");
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", CHILD, root, warmup, creates, CRONTAB_CRD, body], {
      encoding: "utf8",
      timeout: 600_000,
    });
    const [cr, gt] = out.trim().split(" ").map(Number);
    results.get(label)!.push(cr!);
    getResults.get(label)!.push(gt!);
  }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`crdkit's create and GET paths in-process (no HTTP, no etcd), µs CPU per request, ${rounds} rounds of ${creates} creates after ${warmup}, then ${Number(creates) * 4} GETs`);
for (const [label, xs] of results) console.log(`${label.padEnd(9)} ${xs.map((x) => x.toFixed(1)).join(" ")} | median ${med(xs).toFixed(1)}`);
const a = results.get("crdkit")!;
const b = results.get("baseline");
if (b) console.log(`crdkit / baseline, median of paired rounds: ${med(a.map((x, i) => x / b[i]!)).toFixed(3)}`);

for (const [label, xs] of getResults) console.log(`GET ${label.padEnd(9)} ${xs.map((x) => x.toFixed(2)).join(" ")} | median ${med(xs).toFixed(2)}`);
const ga = getResults.get("crdkit")!;
const gb = getResults.get("baseline");
if (gb) console.log(`GET crdkit / baseline, median of paired rounds: ${med(ga.map((x, i) => x / gb[i]!)).toFixed(3)}`);
