/**
 * The JSON body fast path (src/server/endpoints/json-body-fast.ts) against the full decoder on random texts
 * built from the hazards where `JSON.parse` and the API server's decoder part: number spellings (1e3, 1.0,
 * 1E+2, -0, -0.0, 15 to 20 digit integers), escapes ("\u0000", "\""), raw control characters, U+2028,
 * U+FFFD, `__proto__`/`constructor` and integer-like keys, duplicate keys at any depth, a BOM, whitespace JSON
 * does not allow, trailing text, truncation. Whenever the fast path answers, its value is the full decoder's
 * (same kinds, own keys in the same order, `__proto__` an own key) with no duplicate field; bodies as bytes
 * (invalid UTF-8 included) and nesting beyond the server's limit give the same answer through `decodeBody`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeBody } from "../../src/server/endpoints/http-io.js";
import { parseSimpleJsonBody } from "../../src/server/endpoints/json-body-fast.js";
import { decodeJsonStream } from "../../src/io/json-decode.js";
import { deepEqual, isObject, kindOf, type JsonValue } from "../../src/value/json-value.js";

function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const NUMBERS = ["0", "-1", "7", "1e3", "1E+2", "1.0", "0.5", "-0", "-0.0", "123456789012345", "-123456789012345", "1234567890123456", "9007199254740993", "18446744073709551616", "01", "1.", "+1"];
const STRINGS = ['"a"', '""', '"x y"', '"ünï ✓ 😀"', '"\u2028"', '"\ufffd"', '"\\u0000"', '"\\""', '"\\/"', '"tab\there"', '"1.5e3"', '"-0"'];
const KEYS = ['"a"', '"b"', '"__proto__"', '"constructor"', '"1"', '"0"', '""', '"a"'];
const SPACES = ["", " ", "\n", "\t", "\r\n", "\u00a0"];

function randomValue(rand: (n: number) => number, depth: number): string {
  const sp = () => (rand(4) === 0 ? SPACES[rand(SPACES.length)]! : "");
  const pick = rand(depth > 4 ? 4 : 7);
  if (pick === 0) return NUMBERS[rand(NUMBERS.length)]!;
  if (pick === 1) return STRINGS[rand(STRINGS.length)]!;
  if (pick === 2) return ["true", "false", "null"][rand(3)]!;
  if (pick === 3) return rand(2) === 0 ? NUMBERS[rand(8)]! : STRINGS[rand(6)]!;
  if (pick === 4) {
    const n = rand(4);
    const items: string[] = [];
    for (let i = 0; i < n; i++) items.push(sp() + randomValue(rand, depth + 1) + sp());
    return `[${items.join(",")}]`;
  }
  const n = rand(5);
  const members: string[] = [];
  for (let i = 0; i < n; i++) members.push(`${sp()}${KEYS[rand(KEYS.length)]}${sp()}:${sp()}${randomValue(rand, depth + 1)}`);
  return `{${members.join(",")}}`;
}

function randomText(rand: (n: number) => number): string {
  let t = `{"apiVersion":"v1","kind":"ConfigMap","data":${randomValue(rand, 1)}}`;
  switch (rand(12)) {
    case 0:
      return `\ufeff${t}`;
    case 1:
      return `${t} {}`;
    case 2:
      return t.slice(0, rand(t.length));
    case 3:
      return randomValue(rand, 0);
    default:
      if (rand(3) === 0) t = ` ${t}\n`;
      return t;
  }
}

/** The same value, kinds and own-key order (the decoders' objects are plain objects). */
function sameShape(a: JsonValue, b: JsonValue): boolean {
  if (kindOf(a) !== kindOf(b) || !deepEqual(a, b)) return false;
  // -0 and 0 apart.
  if (typeof a === "number" && !Object.is(a, b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.every((x, i) => sameShape(x, b[i]!));
  if (isObject(a) && isObject(b)) {
    const ka = Reflect.ownKeys(a);
    if (JSON.stringify(ka) !== JSON.stringify(Reflect.ownKeys(b))) return false;
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    return ka.every((k) => sameShape(a[k as string]!, b[k as string]!));
  }
  return true;
}

describe("JSON body fast path on random texts", () => {
  it("answers only what the full decoder answers", () => {
    let fast = 0;
    let full = 0;
    for (let seed = 1; seed <= 20000; seed++) {
      const text = randomText(prng(seed));
      const v = parseSimpleJsonBody(text);
      if (v === undefined) {
        full++;
        continue;
      }
      fast++;
      const r = decodeJsonStream(text);
      assert.equal(r.problem, undefined, text);
      assert.equal(r.documents.length, 1, text);
      assert.deepEqual(r.documents[0]!.duplicateFields, [], text);
      assert.ok(sameShape(v, r.documents[0]!.value), `seed ${seed}: ${JSON.stringify(text)}`);
    }
    // Both paths are exercised.
    assert.ok(fast > 2000 && full > 2000, `fast ${fast}, full ${full}`);
  });

  it("decodes bodies with invalid UTF-8 and deep nesting as the full decoder does", () => {
    const bodies = [
      Buffer.concat([Buffer.from('{"kind":"A","s":"'), Buffer.from([0xe2, 0x82]), Buffer.from('x"}')]),
      Buffer.concat([Buffer.from('{"kind":"A","s":"'), Buffer.from([0xff, 0xc0, 0x80]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"kind":"A",'), Buffer.from([0xff]), Buffer.from('"s":1}')]),
      Buffer.from(`{"kind":"A","d":${"[".repeat(998)}1${"]".repeat(998)}}`),
      Buffer.from(`{"kind":"A","d":${"[".repeat(999)}1${"]".repeat(999)}}`),
      Buffer.from(`{"kind":"A","d":${"[".repeat(20000)}1${"]".repeat(20000)}}`),
      Buffer.from(`{"kind":"A","d":${'{"a":'.repeat(1200)}1${"}".repeat(1200)}}`),
    ];
    const answer = (body: Buffer): { value: JsonValue } | { error: string } => {
      try {
        return { value: decodeBody(body, "application/json", "A").value };
      } catch (e) {
        // Without the body summary, which differs between the two bodies.
        return { error: (e as Error).message.replace(/ \(\{.*$/s, "") };
      }
    };
    for (const body of bodies) {
      const got = answer(body);
      // The same body with an escaped key first: the fast path cannot take it, the full decoder answers.
      const full = answer(Buffer.concat([Buffer.from('{"\\u007a":0,'), body.subarray(1)]));
      if ("value" in full) {
        assert.ok("value" in got, body.toString("utf8", 0, 60));
        const expected = { ...(full.value as Record<string, JsonValue>) };
        delete expected["z"];
        assert.ok(sameShape(got.value, expected), body.toString("utf8", 0, 60));
      } else assert.deepEqual(got, full, body.toString("utf8", 0, 60));
    }
  });
});
