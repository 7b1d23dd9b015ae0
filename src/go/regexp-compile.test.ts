/**
 * Go's `syntax.Compile(syntax.Parse(p, syntax.Perl).Simplify())` instruction for instruction: the
 * expected programs are Go 1.26's, printed from `prog.Inst` with Go's op codes (`InstAlt` 0 …
 * `InstRuneAnyNotNL` 10; see GO_OP).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compileProg } from "./regexp-compile.js";
import { compileMatcher } from "./regexp-matcher.js";
import { GoSyntaxError, parseGoRegexp } from "./regexp-syntax.js";

/** [pattern, start, [Go op, out, arg][]] as Go 1.26 compiles it. */
const GO_PROGRAMS: readonly [string, number, readonly (readonly [number, number, number])[]][] = [
  ["a+b*", 1, [[5, 0, 0], [8, 2, 0], [0, 1, 4], [8, 4, 0], [0, 3, 5], [4, 0, 0]]],
  ["(?i)k|x{2,3}?", 6, [[5, 0, 0], [7, 7, 1], [7, 3, 1], [7, 5, 1], [7, 7, 1], [0, 7, 4], [0, 1, 2], [4, 0, 0]]],
  ["[^a-c]|\\pN", 1, [[5, 0, 0], [7, 2, 0], [4, 0, 0]]],
  ["(a|)*", 7, [[5, 0, 0], [2, 4, 2], [8, 5, 0], [6, 5, 0], [0, 2, 3], [2, 6, 3], [0, 1, 8], [0, 1, 8], [4, 0, 0]]],
  ["^(?:ab|ac)$", 1, [[5, 0, 0], [3, 2, 4], [8, 3, 0], [7, 4, 0], [3, 5, 8], [4, 0, 0]]],
];

/** Our op code → Go's `syntax.InstOp` (src/go/regexp-prog.ts numbers `FAIL` 5 and `MATCH` 6, Go 5 and 4). */
const GO_OP = [-1, 0, 1, 2, 3, 5, 4, 6, 7, 8, 9, 10];

function prog(p: string) {
  const tree = parseGoRegexp(p);
  if (tree instanceof GoSyntaxError) throw tree;
  return compileProg(tree);
}

describe("compileProg", () => {
  for (const [p, start, insts] of GO_PROGRAMS) {
    it(`${JSON.stringify(p)}: Go's instructions`, () => {
      const g = prog(p);
      assert.equal(g.start, start);
      assert.deepEqual(
        Array.from(g.op, (op, i) => [GO_OP[op], g.out[i], g.arg[i]]),
        insts.map((x) => [...x]),
      );
    });
  }

  it("rune instructions match Go's runes, case folding included", () => {
    const k = prog("(?i)k|x{2,3}?");
    // K (pc 1, folded): K, k and the Kelvin sign
    for (const r of [0x4b, 0x6b, 0x212a]) assert.equal(k.matchRune(1, r), true, r.toString(16));
    assert.equal(k.matchRune(1, 0x4c), false);
    const cls = prog("[^a-c]|\\pN");
    for (const [r, want] of [[0x60, true], [0x61, false], [0x63, false], [0x64, true], [0x10ffff, true]] as const) assert.equal(cls.matchRune(1, r), want, r.toString(16));
    const ac = prog("^(?:ab|ac)$");
    assert.equal(ac.matchRune(3, 0x62), true);
    assert.equal(ac.matchRune(3, 0x63), true);
    assert.equal(ac.matchRune(3, 0x61), false);
  });

  it("gives rune classes that split where an instruction's answer changes", () => {
    const g = prog("[\\p{Greek}]x|(?i)k");
    const c = g.classes;
    assert.ok(c);
    // runes of one class are matched alike by every rune instruction
    const probe = [0x4b, 0x6b, 0x78, 0x212a, 0x370, 0x373, 0x374, 0x3a9, 0x1f00, 0x10ffff, 0x41, 0x4c];
    for (const a of probe)
      for (const b of probe) {
        const ca = a < 128 ? c.ascii[a] : c.wide(a);
        const cb = b < 128 ? c.ascii[b] : c.wide(b);
        if (ca !== cb) continue;
        for (let pc = 0; pc < g.op.length; pc++) if (g.op[pc] === 8 || g.op[pc] === 9) assert.equal(g.matchRune(pc, a), g.matchRune(pc, b), `${a} ${b} at ${pc}`);
      }
  });

  it("an empty class adds no rune class boundary and hides none of the next instruction's (fuzz:regexp seed 11)", () => {
    // `[^\\S\\D]` is empty: its rune array has the offset of `a`'s, which must still split `a` from `s`
    const g = prog("[^\\S\\D]??a{3}\\pL*");
    const c = g.classes;
    assert.ok(c);
    assert.notEqual(c.ascii[0x61], c.ascii[0x73]);
    // Go: "aaa" matches, "asa" does not, in either order on one matcher (the lazy DFA keeps its states)
    const m1 = compileMatcher(g);
    assert.deepEqual([m1.test("asa"), m1.test("aaa")], [false, true]);
    const m2 = compileMatcher(prog("[^\\S\\D]??a{3}\\pL*"));
    assert.deepEqual([m2.test("aaa"), m2.test("asa")], [true, false]);
  });

  it("leaves programs past 20,000 instructions without DFA classes", () => {
    assert.ok(prog("(?:abcdefghijklmnopqrstuvwxyz0123){1000}").classes === undefined);
    assert.ok(prog("(?:abcdefghij){100}").classes !== undefined);
  });
});
