/**
 * CPU of the CR pipeline's first use on the corpus, for a build's `dist/`: per round, every corpus CRD is
 * compiled afresh (`tryCompileCrd`: the CRD checks with CEL compilation and cost limits, as `crdkit validate
 * --no-cache` runs them), then every example document is validated as a create once (its rules compiled per
 * schema node on first use, each evaluated program planned on its first evaluation), then once more (all
 * planned). Prints the median CPU ms per phase over ROUNDS rounds (after one unmeasured round), and a digest
 * of every verdict so that two builds can be compared. Run it for two roots in turns:
 *
 *   node bench/rules/first-validation.mjs ROOT [ROUNDS]      ROOT: a checkout with dist/ built
 * @module
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const [root, roundsArg] = process.argv.slice(2);
if (root === undefined) throw new Error("usage: first-validation.mjs ROOT [ROUNDS]");
const rounds = Number(roundsArg ?? 7);
const dist = (p) => import(join(root, "dist", p));
const { tryCompileCrd } = await dist("pipeline/compile.js");
const { decodeDocuments } = await dist("io/decode.js");
const { expandPaths } = await dist("cli/files.js");
const corpus = process.env.CRDKIT_CORPUS ?? "/work/shared/corpus";

const crdTexts = [];
const exampleTexts = [];
for (const project of readdirSync(corpus).sort()) {
  const crds = join(corpus, project, "crds");
  const examples = join(corpus, project, "examples");
  if (!existsSync(crds) || !existsSync(examples)) continue;
  for (const f of expandPaths([crds])) crdTexts.push(readFileSync(f, "utf8"));
  for (const f of expandPaths([examples])) exampleTexts.push(readFileSync(f, "utf8"));
}
const isObj = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const examples = [];
for (const t of exampleTexts) {
  try {
    for (const d of decodeDocuments(t)) if (isObj(d.value)) examples.push(d);
  } catch {
    // templates the decoder refuses
  }
}

function cpu(f) {
  const t = process.cpuUsage();
  const r = f();
  const d = process.cpuUsage(t);
  return [(d.user + d.system) / 1000, r];
}

function round() {
  const crds = [];
  for (const t of crdTexts) for (const d of decodeDocuments(t)) if (isObj(d.value) && d.value.kind === "CustomResourceDefinition") crds.push(d.value);
  const docs = examples.map((d) => ({ value: structuredClone(d.value), strictErrors: d.strictErrors }));
  const docs2 = examples.map((d) => ({ value: structuredClone(d.value), strictErrors: d.strictErrors }));
  const [compileMs, byKind] = cpu(() => {
    const m = new Map();
    for (const crd of crds) {
      const r = tryCompileCrd(crd);
      if (!r.ok) continue;
      const c = r.compiled;
      m.set(`${c.group}/${c.kind}`, c);
    }
    return m;
  });
  const validate = (list) => {
    const h = createHash("sha256");
    for (const d of list) {
      const av = d.value.apiVersion;
      const kind = d.value.kind;
      if (typeof av !== "string" || typeof kind !== "string") continue;
      const slash = av.indexOf("/");
      const c = byKind.get(`${slash < 0 ? "" : av.slice(0, slash)}/${kind}`);
      const version = av.slice(slash + 1);
      if (!c?.servedVersions.includes(version)) continue;
      const r = c.create(d.value, { version, fieldValidation: "Strict", strictDecodingErrors: d.strictErrors });
      h.update(JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)) ?? "");
    }
    return h.digest("hex").slice(0, 16);
  };
  const [firstMs, digest] = cpu(() => validate(docs));
  const [againMs, digest2] = cpu(() => validate(docs2));
  return { compileMs, firstMs, againMs, digest, digest2, kinds: byKind.size };
}

round();
const rs = [];
for (let i = 0; i < rounds; i++) rs.push(round());
const med = (k) => rs.map((r) => r[k]).sort((a, b) => a - b)[rs.length >> 1].toFixed(0);
const r0 = rs[0];
console.log(
  `${root}: ${r0.kinds} kinds, ${examples.length} documents; median of ${rounds} rounds, CPU ms: compile CRDs ${med("compileMs")}, first validation ${med("firstMs")}, ` +
    `second validation ${med("againMs")} (digests ${r0.digest} / ${r0.digest2})`,
);
