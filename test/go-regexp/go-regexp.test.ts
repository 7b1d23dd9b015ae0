/**
 * Replays real Go's `regexp.Compile` / `MatchString` answers (test/go-regexp/go-answers.json, recorded by
 * `npm run golden:regexp` with tools/go-regexp-oracle) against crdkit's `compileGoRegexp`, its own parser
 * and compiler of Go's `regexp/syntax` (src/go/regexp-syntax.ts, src/go/regexp-compile.ts) and its simple
 * fast path (src/go/regexp-simple.ts), which must give Go's answer or leave the pattern to the compiler.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { compileGoRegexp } from "../../src/go/regexp.js";
import { findAllIndex } from "../../src/go/regexp-find-all.js";
import { compileProg } from "../../src/go/regexp-compile.js";
import { compileMatcher } from "../../src/go/regexp-matcher.js";
import { compileSimpleRegexp } from "../../src/go/regexp-simple.js";
import { GoSyntaxError, parseGoRegexp } from "../../src/go/regexp-syntax.js";
import { compareWithGo, type GoRegexpCase, type RegexpMismatch } from "./compare.js";
import { type HostileCase, hostileSubject } from "./hostile.js";

const cases = JSON.parse(readFileSync(new URL("./go-answers.json", import.meta.url), "utf8")) as GoRegexpCase[];
/** Recorded with Go's FindAllStringIndex of every subject too (`npm run golden:regexp -- --find`). */
const findCases = JSON.parse(readFileSync(new URL("./go-find-answers.json", import.meta.url), "utf8")) as GoRegexpCase[];
const hostile = JSON.parse(readFileSync(new URL("./hostile-answers.json", import.meta.url), "utf8")) as (HostileCase & { go: boolean | string; goFind?: [number, number][] })[];

/**
 * Disagreements with Go, each a bug still open (none now).
 * The test fails when an unlisted disagreement appears or a listed one no longer occurs in the fixture,
 * so fixing one means removing it here.
 */
const KNOWN: readonly { readonly why: string; readonly is: (m: RegexpMismatch) => boolean }[] = [];

const describeMismatch = (m: RegexpMismatch): string =>
  `${m.kind}: ${JSON.stringify(m.pattern)}${m.subject !== undefined ? ` on ${JSON.stringify(m.subject)}` : ""}: Go ${m.go}, crdkit ${m.crdkit}`;

describe("Go regexp answers recorded from real Go", () => {
  it("the fixture covers both sides of the fast path", () => {
    const simple = cases.filter((c) => compileSimpleRegexp(c.pattern) !== undefined).length;
    const rejected = cases.filter((c) => c.error !== undefined).length;
    assert.ok(cases.length >= 2000, `${cases.length} patterns`);
    assert.ok(simple >= 500, `${simple} patterns in the simple subset`);
    assert.ok(rejected >= 500, `${rejected} patterns Go rejects`);
  });

  it("compileGoRegexp gives Go's error text or Go's MatchString answer on every recorded case", () => {
    const unexpected: string[] = [];
    const seenKnown = new Set<string>();
    for (const c of cases) {
      for (const m of compareWithGo(c)) {
        const known = KNOWN.find((k) => k.is(m));
        if (known) seenKnown.add(known.why);
        else unexpected.push(describeMismatch(m));
      }
    }
    assert.deepEqual(unexpected, []);
    assert.deepEqual(KNOWN.map((k) => k.why).filter((w) => !seenKnown.has(w)), [], "known disagreements that are gone: remove them from KNOWN");
  });

  it("findAllIndex gives Go's FindAllStringIndex on every recorded case (simple subset and Go's compiler)", () => {
    const withFinds = findCases.filter((c) => c.finds !== undefined);
    assert.ok(withFinds.length >= 500, `${withFinds.length} patterns with finds`);
    assert.ok(withFinds.filter((c) => compileSimpleRegexp(c.pattern) !== undefined).length >= 200, "simple patterns with finds");
    assert.ok(withFinds.some((c) => c.finds?.some((f) => f.length > 1)), "several matches in one subject");
    const unexpected: string[] = [];
    for (const c of findCases) for (const m of compareWithGo(c)) if (!KNOWN.some((k) => k.is(m))) unexpected.push(describeMismatch(m));
    assert.deepEqual(unexpected, []);
  });

  it("the fast path declines every pattern Go rejects, and nested counted repeats past Go's limit", () => {
    for (const c of cases) if (c.error !== undefined) assert.equal(compileSimpleRegexp(c.pattern), undefined, c.pattern);
    // syntax.repeatIsValid: at most 1000 copies of the innermost thing
    for (const p of ["(a{10}){101}", "((){1000,}x){3,3}", "(a{2,}){501}", "((a|b){2}c){501}"]) {
      assert.equal(compileSimpleRegexp(p), undefined, p);
      assert.equal(compileGoRegexp(p).error, `error parsing regexp: invalid repeat count: \`${p.slice(p.lastIndexOf("{"))}\``, p);
    }
    for (const p of ["(a{10}){100}", "(a{2,}){100}", "((a{1000}){0}){1000}", "(a*){300}", "(a{1,}){300}"]) assert.ok(compileSimpleRegexp(p), p);
  });

  it("matches hostile subjects in linear time (Go's answer, on both compilers)", () => {
    const long = "a".repeat(100_000);
    for (const [p, s, want] of [
      ["(a|aa)*b", long, false],
      ["(a|aa)*b", `${long}b`, true],
      ["^(a|aa)*$", long, true],
      ["^(a|aa)*$", `${long}c`, false],
      ["(a*)*c", long, false],
      ["^(a?){50}a{50}$", "a".repeat(50), true],
      ["(x+x+)+y", "x".repeat(100_000), false],
    ] as const) {
      const simple = compileSimpleRegexp(p);
      assert.ok(simple, p);
      assert.equal(simple.test(s), want, p);
      const tree = parseGoRegexp(p);
      assert.ok(!(tree instanceof GoSyntaxError), p);
      assert.equal(compileMatcher(compileProg(tree)).test(s), want, `Go's compiler on ${p}`);
    }
  });

  it("answers Go's MatchString on large hostile subjects (re2js' own matcher needed minutes)", () => {
    assert.ok(hostile.length >= 8);
    for (const h of hostile) {
      const r = compileGoRegexp(h.pattern);
      assert.ok(r.regexp, h.pattern);
      assert.equal(r.regexp.test(hostileSubject(h.subject)), h.go, `${h.pattern} on ${JSON.stringify(h.subject)}`);
    }
  });

  it("answers Go's FindAllStringIndex on large hostile subjects (re2js' matcher would need minutes)", () => {
    assert.ok(hostile.filter((h) => h.goFind !== undefined).length >= 8);
    for (const h of hostile) {
      if (h.goFind === undefined) continue;
      const r = compileGoRegexp(h.pattern);
      assert.ok(r.regexp, h.pattern);
      const s = hostileSubject(h.subject);
      const utf8 = (at: number): number => Buffer.byteLength(s.slice(0, at));
      const got = findAllIndex(r.regexp, s, -1).map(([a, b]) => [utf8(a), utf8(b)]);
      assert.deepEqual(got, h.goFind, `${h.pattern} on ${JSON.stringify(h.subject)}`);
    }
  });
});
