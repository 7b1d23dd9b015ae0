/**
 * The compiled-program cache of the runtime validator (src/rules/program-entry.ts): for every rule of
 * every corpus CRD, the program read back from its entry (after a JSON round trip, as from the disk
 * cache) evaluates exactly as the freshly compiled one — values, errors and costs — and validating the
 * corpus documents gives the same errors, warnings, budgets and rule traces; malformed or foreign entries
 * are compiled afresh with the same results.
 */
import * as assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { type Activation, CelError, CelOptional, type CelValue, CelSpecial } from "../../src/cel/index.js";
import { decodeCrd } from "../../src/crd/decode-crd.js";
import { errorString } from "../../src/errors/field-error.js";
import { decodeDocuments } from "../../src/io/decode.js";
import { compileDecoded } from "../../src/pipeline/compile.js";
import type { CompiledRule } from "../../src/rules/compile.js";
import { formatCelValue } from "../../src/rules/evaluate-expression.js";
import { compileNodeRulesForEntry, type NodeProgramsJson, PROGRAM_ENTRY_FORMAT, restoreNodeRules } from "../../src/rules/program-entry.js";
import { attachRuleProgramStore } from "../../src/rules/rule-program-store.js";
import { type RuleTrace, validateRules } from "../../src/rules/validate.js";
import { newRuleValidator, type RuleValidator } from "../../src/rules/validator.js";
import { schemaDeclType } from "../../src/rules/decl-type.js";
import { toCelValue } from "../../src/rules/values.js";
import type { Structural } from "../../src/structural/structural.js";
import { isObject, type JsonValue } from "../../src/value/json-value.js";
import { corpusRoot } from "../corpus-root.js";

const root = corpusRoot();
const projects = existsSync(root) ? readdirSync(root).filter((p) => existsSync(join(root, p, "crds"))).sort() : [];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const f of readdirSync(dir).sort()) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else if (/\.(ya?ml|json)$/.test(f)) out.push(p);
  }
  return out;
}

function docsUnder(dirs: string[]): JsonValue[] {
  const out: JsonValue[] = [];
  for (const d of dirs) for (const f of filesUnder(d)) for (const doc of decodeDocuments(readFileSync(f, "utf8"))) if (doc.value !== undefined) out.push(doc.value);
  return out;
}

/** A store in memory whose entries went through JSON (as the disk cache's do). */
class MemoryStore {
  readonly entries = new Map<string, unknown>();
  puts = 0;
  gets = 0;
  get(key: string): unknown {
    this.gets++;
    return this.entries.get(key);
  }
  put(key: string, entry: NodeProgramsJson): void {
    this.puts++;
    this.entries.set(key, JSON.parse(JSON.stringify(entry)));
  }
}

/** Every validator node with its key path (for messages), depth first. */
function* nodes(v: RuleValidator | undefined, path: string): Generator<[string, RuleValidator]> {
  if (!v) return;
  yield [path, v];
  for (let i = 0; i < v.allOf.length; i++) yield* nodes(v.allOf[i], `${path}&${i}`);
  yield* nodes(v.items, `${path}[]`);
  yield* nodes(v.additionalProperties, `${path}{}`);
  for (const [k, p] of v.properties ?? []) yield* nodes(p, `${path}.${k}`);
}

function describe(v: CelValue): string {
  if (v instanceof CelError) return `error: ${v.message}`;
  if (v instanceof CelSpecial) return "unknown";
  return formatCelValue(v);
}

/** Values of the node's type (and of other types) to evaluate the rules on: mostly errors and defaults. */
function selves(s: Structural): CelValue[] {
  const out: CelValue[] = [];
  for (const x of [{}, [], "", "a", 0, 1, 1.5, true, null] as JsonValue[]) {
    try {
      out.push(toCelValue(x, s));
    } catch {
      // not representable for this schema
    }
  }
  return out;
}

function evalBoth(a: CompiledRule, b: CompiledRule, s: Structural, where: string): number {
  let n = 0;
  for (const self of selves(s)) {
    const acts: Activation[] = a.rule.optionalOldSelf === true ? [{ self, oldSelf: CelOptional.of(self) }, { self, oldSelf: CelOptional.NONE }] : [{ self }, { self, oldSelf: self }];
    for (const act of acts) {
      for (const limit of [1000000, 3]) {
        const ra = a.program!.eval(act, { costLimit: limit });
        const rb = b.program!.eval(act, { costLimit: limit });
        assert.equal(describe(rb.value), describe(ra.value), `${where}: ${a.rule.rule}`);
        assert.equal(rb.cost, ra.cost, `${where}: cost of ${a.rule.rule}`);
        n++;
        if (a.messageProgram) {
          // a messageExpression runs with the rule's non-optional activation
          const mact: Activation = act === acts[0] ? { self } : { self, oldSelf: self };
          const ma = a.messageProgram.eval(mact, { costLimit: limit });
          const mb = b.messageProgram!.eval(mact, { costLimit: limit });
          assert.equal(describe(mb.value), describe(ma.value), `${where}: ${a.rule.messageExpression}`);
          assert.equal(mb.cost, ma.cost, `${where}: cost of ${a.rule.messageExpression}`);
        }
      }
    }
  }
  return n;
}

function run(s: Structural, obj: JsonValue, old: JsonValue | undefined): string {
  const traces: RuleTrace[] = [];
  const r = validateRules(s, obj, old, { onRule: (t) => traces.push({ ...t, estimatedMaxCost: 0 }) });
  return JSON.stringify({ errors: r.errors.map(errorString), warnings: r.warnings, remaining: r.remainingBudget, evaluated: r.evaluated, traces });
}

test("every corpus rule read back from its entry evaluates as the freshly compiled one", { skip: projects.length === 0 ? `no corpus at ${root}` : false }, (t) => {
  let rules = 0;
  let evals = 0;
  let docs = 0;
  for (const p of projects) {
    const crdValues = docsUnder([join(root, p, "crds")]).filter((v) => isObject(v) && v["kind"] === "CustomResourceDefinition");
    const objects = docsUnder(["examples", "invalid-examples", "cel-tests"].map((d) => join(root, p, d)));
    for (const value of crdValues) {
      const da = decodeCrd(value);
      const db = decodeCrd(value);
      if (!da.ok || !db.ok) continue;
      const stores = new Map<string, MemoryStore>();
      const ca = compileDecoded(da, [], {
        onStructural: (version, s) => {
          const st = new MemoryStore();
          stores.set(version, st);
          attachRuleProgramStore(s, st);
        },
      });
      const restoredStores = new Map<string, MemoryStore>();
      const cb = compileDecoded(db, [], {
        onStructural: (version, s) => {
          const st = new MemoryStore();
          restoredStores.set(version, st);
          attachRuleProgramStore(s, st);
        },
      });
      if (!ca.ok || !cb.ok) continue;
      for (const [name, va] of ca.compiled.ctx.versions) {
        const sa = va.structural;
        const sb: Structural | undefined = cb.compiled.ctx.versions.get(name)!.structural;
        if (!sa || !sb || va.ruleCount === 0) continue;
        const where: string = `${p} ${da.crd.metadata.name} ${name}`;
        const a = newRuleValidator(sa);
        const b = newRuleValidator(sb);
        // compile every node of the fresh tree (filling its store), then read them all back
        const freshNodes = [...nodes(a, "")];
        for (const [, n] of freshNodes) void n.compiled;
        const stored = stores.get(name)!;
        const restored = restoredStores.get(name)!;
        for (const [k, e] of stored.entries) restored.entries.set(k, e);
        const readNodes = [...nodes(b, "")];
        assert.equal(readNodes.length, freshNodes.length, where);
        for (let i = 0; i < freshNodes.length; i++) {
          const [path, na] = freshNodes[i]!;
          const nb = readNodes[i]![1];
          assert.equal(nb.compilationErr, na.compilationErr, `${where} ${path}`);
          assert.equal(nb.compiled.length, na.compiled.length, `${where} ${path}`);
          for (let j = 0; j < na.compiled.length; j++) {
            const x: CompiledRule = na.compiled[j]!;
            const y: CompiledRule = nb.compiled[j]!;
            assert.deepEqual(y.error, x.error, `${where} ${path}`);
            assert.deepEqual(y.messageExpressionError, x.messageExpressionError, `${where} ${path}`);
            assert.equal(y.usesOldSelf, x.usesOldSelf, `${where} ${path}: ${x.rule.rule}`);
            assert.equal(y.maxCardinality, x.maxCardinality, `${where} ${path}`);
            assert.equal(y.normalizedFieldPath, x.normalizedFieldPath, `${where} ${path}`);
            assert.equal(y.maxCost, x.maxCost, `${where} ${path}: estimated cost of ${x.rule.rule}`);
            assert.equal(y.messageExpressionMaxCost, x.messageExpressionMaxCost, `${where} ${path}`);
            assert.equal(!!y.program, !!x.program);
            assert.equal(!!y.messageProgram, !!x.messageProgram);
            if (x.program) evals += evalBoth(x, y, na.schema, `${where} ${path}`);
            rules++;
          }
        }
        // every node with clean rules was read back, none compiled again
        assert.equal(restored.puts, 0, `${where}: a node was compiled again`);
        assert.equal(restored.gets, stored.puts, where);
        // the corpus documents of this version: the same verdicts, messages, budgets and traces
        const apiVersion = `${da.crd.spec.group}/${name}`;
        for (const o of objects) {
          if (!isObject(o) || o["apiVersion"] !== apiVersion || o["kind"] !== da.crd.spec.names.kind) continue;
          docs++;
          assert.equal(run(sb, o, undefined), run(sa, o, undefined), `${where}: create`);
          assert.equal(run(sb, o, o), run(sa, o, o), `${where}: update`);
        }
      }
    }
  }
  t.diagnostic(`${rules} rules, ${evals} evaluations compared, ${docs} documents`);
  assert.ok(rules > 500 && docs > 50, `${rules} rules, ${docs} documents`);
});

const RULE_SCHEMA = {
  type: "object",
  properties: {
    spec: {
      type: "object",
      properties: { n: { type: "integer" }, s: { type: "string" }, l: { type: "array", items: { type: "string" } } },
      "x-kubernetes-validations": [
        { rule: "self.n < 10 && self.s.matches('^[a-z]+$')", messageExpression: "'n is ' + string(self.n)" },
        { rule: "!has(oldSelf.n) || self.n >= oldSelf.n", optionalOldSelf: false },
        { rule: "self.l.all(x, x.size() < 3) && b'ab' == bytes('ab') && 1.5 < 2.0 && 3u > 2u && null == null" },
      ],
    },
  },
};

function crdWith(schema: unknown): JsonValue {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "things.example.com" },
    spec: {
      group: "example.com",
      scope: "Namespaced",
      names: { plural: "things", kind: "Thing" },
      versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: schema } }],
    },
  } as JsonValue;
}

function specNode(): { s: Structural; rules: NonNullable<Structural["xValidations"]> } {
  const d = decodeCrd(crdWith(RULE_SCHEMA));
  assert.ok(d.ok);
  const c = compileDecoded(d, []);
  assert.ok(c.ok);
  const s = c.compiled.ctx.versions.get("v1")!.structural!.properties!.get("spec")!;
  return { s, rules: s.xValidations! };
}

test("an entry round-trips every constant kind and reads back as the same programs", () => {
  const { s, rules } = specNode();
  const dt = schemaDeclType(s, false);
  const { compiled, entry } = compileNodeRulesForEntry(s, rules, dt);
  assert.ok(Array.isArray(compiled) && entry);
  assert.equal(entry.f, PROGRAM_ENTRY_FORMAT);
  const back = restoreNodeRules(s, rules, dt, JSON.parse(JSON.stringify(entry)));
  assert.ok(back);
  assert.deepEqual(back.map((r) => r.usesOldSelf), [false, true, false]);
  const self = toCelValue({ n: 12, s: "Ab", l: ["a", "bcd"] }, s);
  for (let i = 0; i < compiled.length; i++) {
    const x: { value: CelValue; cost: number } = compiled[i]!.program!.eval({ self, oldSelf: self });
    const y = back[i]!.program!.eval({ self, oldSelf: self });
    assert.equal(describe(y.value), describe(x.value));
    assert.equal(y.cost, x.cost);
  }
  assert.equal(describe(back[0]!.messageProgram!.eval({ self }).value), '"n is 12"');
});

test("a malformed, foreign or stale entry reads as not cached", () => {
  const { s, rules } = specNode();
  const dt = schemaDeclType(s, false);
  const { entry } = compileNodeRulesForEntry(s, rules, dt);
  assert.ok(entry);
  const good = JSON.parse(JSON.stringify(entry)) as { f: number; rules: Record<string, unknown>[] };
  const variants: [string, (e: typeof good) => unknown][] = [
    ["not an object", () => "x"],
    ["null", () => null],
    ["other format", (e) => ({ ...e, f: PROGRAM_ENTRY_FORMAT + 1 })],
    ["fewer rules", (e) => ({ ...e, rules: e.rules.slice(1) })],
    ["another rule text", (e) => ({ ...e, rules: [{ ...e.rules[0], r: "self.n < 11" }, ...e.rules.slice(1)] })],
    ["another messageExpression", (e) => ({ ...e, rules: [{ ...e.rules[0], m: "'x'" }, ...e.rules.slice(1)] })],
    ["missing messageExpression program", (e) => ({ ...e, rules: [{ ...e.rules[0], mp: undefined }, ...e.rules.slice(1)] })],
    ["oldSelf use that the references deny", (e) => ({ ...e, rules: [{ ...e.rules[0], old: true }, ...e.rules.slice(1)] })],
    ["truncated program", (e) => ({ ...e, rules: [{ ...e.rules[0], p: [(e.rules[0]!["p"] as unknown[])[0]] }, ...e.rules.slice(1)] })],
    ["unknown node kind", (e) => ({ ...e, rules: [{ ...e.rules[0], p: [[99, 1], []] }, ...e.rules.slice(1)] })],
    ["bad int constant", (e) => ({ ...e, rules: [{ ...e.rules[0], p: [[0, 1, [2, "1.5"]], []] }, ...e.rules.slice(1)] })],
    ["bad reference row", (e) => ({ ...e, rules: [{ ...e.rules[0], p: [(e.rules[0]!["p"] as unknown[])[0], [["x"]]] }, ...e.rules.slice(1)] })],
    ["deep garbage", () => JSON.parse(`${"[".repeat(5000)}${"]".repeat(5000)}`)],
  ];
  for (const [name, mutate] of variants) {
    assert.equal(restoreNodeRules(s, rules, dt, mutate(good)), undefined, name);
  }
  // an overload this build does not have: the planner refuses it, the node is compiled afresh
  const json = JSON.stringify(good).replaceAll('"less_int64"', '"less_nosuch"');
  assert.ok(json.includes("less_nosuch"));
  const stranger = restoreNodeRules(s, rules, dt, JSON.parse(json));
  if (stranger) {
    // a planner that plans it dynamically must still evaluate as the fresh program
    const self = toCelValue({ n: 1, s: "a", l: [] }, s);
    assert.equal(describe(stranger[0]!.program!.eval({ self }).value), "true");
  }
});

test("a validator with a malformed entry in its store compiles afresh, gives the same errors and replaces the entry", () => {
  const obj: JsonValue = { apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "a" }, spec: { n: 12, s: "A1", l: ["abc"] } };
  const results: string[] = [];
  for (const stored of [undefined, { f: PROGRAM_ENTRY_FORMAT, rules: [] }, "garbage"]) {
    const d = decodeCrd(crdWith(RULE_SCHEMA));
    assert.ok(d.ok);
    const store = new MemoryStore();
    if (stored !== undefined) store.entries.set("r.4:spec", stored);
    const c = compileDecoded(d, [], { onStructural: (_v, s) => attachRuleProgramStore(s, store) });
    assert.ok(c.ok);
    results.push(run(c.compiled.ctx.versions.get("v1")!.structural!, obj, undefined));
    assert.equal(store.puts, 1);
    assert.equal((store.entries.get("r.4:spec") as NodeProgramsJson).f, PROGRAM_ENTRY_FORMAT);
  }
  assert.match(results[0]!, /n is 12/);
  assert.equal(results[1], results[0]);
  assert.equal(results[2], results[0]);
});

test("a read-back program the planner refuses evaluates as the freshly compiled one", () => {
  const { s, rules } = specNode();
  const dt = schemaDeclType(s, false);
  const { compiled, entry } = compileNodeRulesForEntry(s, rules, dt);
  assert.ok(Array.isArray(compiled) && entry);
  const e = JSON.parse(JSON.stringify(entry)) as { rules: { p: unknown }[] };
  // `int('x') < 10`: optimize evaluates the constant conversion when planning, which fails
  e.rules[0]!.p = [[3, 1, "_<_", 0, [[3, 2, "int", 0, [[0, 3, [5, "x"]]]], [0, 4, [2, "10"]]]], [[1, 0, ["less_int64"]], [2, 0, ["string_to_int64"]]]];
  const back = restoreNodeRules(s, rules, dt, e);
  assert.ok(back);
  for (const n of [3, 12]) {
    const self = toCelValue({ n, s: "a", l: [] }, s);
    const x = compiled[0]!.program!.eval({ self });
    const y: { value: CelValue; cost: number } = back[0]!.program!.eval({ self });
    assert.equal(describe(y.value), describe(x.value));
    assert.equal(y.cost, x.cost);
  }
});
