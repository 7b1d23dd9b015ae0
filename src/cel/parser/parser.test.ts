import * as assert from "node:assert/strict";
import { test } from "node:test";
import { exprLocation } from "../ast.js";
import type { Expr } from "../ast.js";
import type { Macro } from "./macros.js";
import { parse } from "./parser.js";

const errorCases: { expr: string; want: string }[] = [
  {
    expr: "self.x ==",
    want: "ERROR: <input>:1:10: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.x ==\n | .........^",
  },
  { expr: "1 +\n  if", want: "ERROR: <input>:2:3: reserved identifier: if\n |   if\n | ..^" },
  { expr: "'é' == 1 +", want: "ERROR: <input>:1:11: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | 'é' == 1 +\n | .．........^" },
  { expr: "has(a)", want: "ERROR: <input>:1:5: invalid argument to has() macro\n | has(a)\n | ....^" },
  { expr: "[1].all(x.y, true)", want: "ERROR: <input>:1:10: argument must be a simple name\n | [1].all(x.y, true)\n | .........^" },
  { expr: "[1].map(1, true)", want: "ERROR: <input>:1:9: argument is not an identifier\n | [1].map(1, true)\n | ........^" },
  { expr: "{'a':1}.all(k, k, true)", want: "ERROR: <input>:1:16: duplicate variable name: k\n | {'a':1}.all(k, k, true)\n | ...............^" },
  { expr: "[1].all(@result, true)", want: "ERROR: <input>:1:9: Syntax error: token recognition error at: '@'\n | [1].all(@result, true)\n | ........^" },
  { expr: "9223372036854775808", want: "ERROR: <input>:1:1: invalid int literal\n | 9223372036854775808\n | ^" },
  { expr: "18446744073709551616u", want: "ERROR: <input>:1:1: invalid uint literal\n | 18446744073709551616u\n | ^" },
  { expr: "'\\400'", want: "ERROR: <input>:1:1: Syntax error: token recognition error at: ''\\4'\n | '\\400'\n | ^\nERROR: <input>:1:6: Syntax error: token recognition error at: '''\n | '\\400'\n | .....^" },
  { expr: "'\\ud800'", want: "ERROR: <input>:1:1: invalid unicode code point\n | '\\ud800'\n | ^" },
  { expr: "b'\\u00ff'", want: "ERROR: <input>:1:1: unable to unescape string\n | b'\\u00ff'\n | ^" },
];

for (const c of errorCases) {
  test(`parse error: ${c.expr}`, () => {
    const r = parse(c.expr);
    assert.equal(r.ast, undefined);
    assert.equal(r.errorText, c.want);
  });
}

function lit(e: Expr): unknown {
  assert.equal(e.kind, "const");
  return e.kind === "const" && "value" in e.value ? e.value.value : null;
}

const literalCases: { expr: string; want: unknown }[] = [
  { expr: "-9223372036854775808", want: -9223372036854775808n },
  { expr: "0x7fffffffffffffff", want: 9223372036854775807n },
  { expr: "-0x10", want: -16n },
  { expr: "18446744073709551615u", want: 18446744073709551615n },
  { expr: "1e3", want: 1000 },
  { expr: ".5", want: 0.5 },
  { expr: "'\\x41\\101\\u0041\\U00000041'", want: "AAAA" },
  { expr: "r'\\n'", want: "\\n" },
  { expr: "'''a\nb'''", want: "a\nb" },
  { expr: '"""x"y"""', want: 'x"y' },
  { expr: "'\\xff'", want: "ÿ" },
  { expr: "'a\\r\\n'", want: "a\r\n" },
];

for (const c of literalCases) {
  test(`literal: ${c.expr}`, () => {
    const r = parse(c.expr);
    assert.ok(r.ast, r.errorText);
    assert.deepEqual(lit(r.ast.expr), c.want);
  });
}

test("bytes literals: escapes are raw bytes, text is UTF-8", () => {
  const r = parse("b'\\xff\\377ÿ'");
  assert.ok(r.ast);
  assert.deepEqual(lit(r.ast.expr), Uint8Array.from([0xff, 0xff, 0xc3, 0xbf]));
});

test("positions are code-point offsets; locations are line/column", () => {
  const r = parse("'😀' +\n  x");
  assert.ok(r.ast);
  const call = r.ast.expr;
  assert.equal(call.kind, "call");
  if (call.kind !== "call") return;
  const x = call.args[1] as Expr;
  assert.deepEqual(exprLocation(r.ast.sourceInfo, x.id), { line: 2, column: 2 });
  assert.deepEqual(exprLocation(r.ast.sourceInfo, call.id), { line: 1, column: 4 });
  assert.deepEqual(r.ast.sourceInfo.lineOffsets, [6, 10]);
});

test("macro calls are recorded under the expansion id", () => {
  const r = parse("[1].exists(x, x > 0)");
  assert.ok(r.ast);
  assert.equal(r.ast.expr.kind, "comprehension");
  const m = r.ast.sourceInfo.macroCalls.get(r.ast.expr.id);
  assert.ok(m && m.kind === "call" && m.function === "exists");
});

test("optional syntax", () => {
  const r = parse("a.?b[?0]");
  assert.ok(r.ast);
  assert.ok(r.ast.expr.kind === "call" && r.ast.expr.function === "_[?_]");
  const off = parse("a.?b", { enableOptionalSyntax: false });
  assert.equal(off.errorText, "ERROR: <input>:1:2: unsupported syntax '.?'\n | a.?b\n | .^");
});

test("backtick identifiers: accepted by default (cel-go v0.29.2), rejectable", () => {
  const r = parse("a.`b-c` + {`x.y`: 1}");
  assert.ok(r.ast === undefined || r.ast !== undefined);
  const sel = parse("a.`b-c`");
  assert.ok(sel.ast && sel.ast.expr.kind === "select" && sel.ast.expr.field === "b-c");
  const off = parse("a.`b`", { enableIdentEscapeSyntax: false });
  assert.equal(off.errorText, "ERROR: <input>:1:3: unsupported syntax: '`'\n | a.`b`\n | ..^");
});

test("ids are unique", () => {
  const r = parse("[1,2].map(x, {'a': x}).filter(y, has(y.a)) + [?optional.of(1)]");
  assert.ok(r.ast);
  const seen = new Set<number>();
  const walk = (e: Expr): void => {
    assert.ok(!seen.has(e.id), `duplicate id ${e.id}`);
    seen.add(e.id);
    switch (e.kind) {
      case "select":
        walk(e.operand);
        break;
      case "call":
        if (e.target) walk(e.target);
        e.args.forEach(walk);
        break;
      case "list":
        e.elements.forEach(walk);
        break;
      case "map":
        for (const en of e.entries) {
          walk(en.key);
          walk(en.value);
        }
        break;
      case "comprehension":
        [e.iterRange, e.accuInit, e.loopCondition, e.loopStep, e.result].forEach(walk);
        break;
      default:
    }
  };
  walk(r.ast.expr);
});

test("limits: recursion and size fail cleanly", () => {
  assert.match(parse("(".repeat(300) + "1" + ")".repeat(300)).errorText, /expression recursion limit exceeded: 250/);
  assert.match(parse(Array(400).fill("a").join(" + ")).errorText, /max recursion depth exceeded/);
  assert.match(parse("a" + ".b".repeat(400)).errorText, /max recursion depth exceeded/);
  assert.match(parse("1".repeat(100001)).errorText, /expression code point size exceeds limit: size: 100001, limit 100000/);
  // cel-go: two mismatches, then one recovery may skip at most 256 tokens (the parse stops there)
  const many = parse("?".repeat(500));
  const mismatch = `Syntax error: mismatched input '?' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}`;
  assert.deepEqual(
    many.issues.map((i) => [i.message, i.offset]),
    [
      [mismatch, 0],
      [mismatch, 1],
      ["error recovery token lookahead limit exceeded: 256", -1],
    ],
  );
  // deleting an extraneous token is no recovery attempt: 150 errors, the first 100 reported
  const deleted = parse("1 + : ".repeat(150) + "1");
  assert.equal(deleted.issues.length, 101);
  assert.equal(deleted.issues[100]!.message, "Syntax error: More than 100 syntax errors");
  // each call recovers twice (the `)`, then its rule): the 31st recovery stops the parse (cel-go's errorRecoveryLimit 30)
  const attempts = parse("f(a b c) + ".repeat(40) + "1");
  assert.equal(attempts.issues.length, 16);
  assert.equal(attempts.issues[15]!.message, "Syntax error: error recovery attempt limit exceeded: 30");
});

test("a macro named like an operator's function expands operator calls, as cel-go's parser does", () => {
  const plus: Macro = {
    name: "_+_",
    argCount: 2,
    receiver: false,
    expand: (h, _target, args) => h.call("_-_", ...args),
  };
  const r = parse("1 + 2 * 3", { macros: [plus] });
  assert.ok(r.ast, r.errorText);
  const e = r.ast.expr;
  assert.equal(e.kind === "call" ? e.function : e.kind, "_-_");
  assert.equal([...r.sourceInfo.macroCalls.values()].map((c) => (c.kind === "call" ? c.function : c.kind)).join(), "_+_");
  const plain = parse("1 + 2 * 3", { macros: [] });
  assert.equal(plain.ast?.expr.kind === "call" ? plain.ast.expr.function : "", "_+_");
});
