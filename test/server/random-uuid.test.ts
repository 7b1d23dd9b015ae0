import assert from "node:assert/strict";
import { test } from "node:test";
import { randomUuid } from "../../src/server/random-uuid.js";

test("randomUuid: version 4 texts, all distinct across batches, every random digit varies", () => {
  const seen = new Set<string>();
  const digits = Array.from({ length: 36 }, () => new Set<string>());
  for (let i = 0; i < 1000; i++) {
    const u = randomUuid();
    assert.match(u, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(seen.has(u), false, `${u} repeated after ${i} UUIDs`);
    seen.add(u);
    for (let c = 0; c < 36; c++) digits[c]!.add(u[c]!);
  }
  // 1,000 UUIDs span eight batches of 128; a digit stuck at one value would mean bytes left unwritten.
  for (let c = 0; c < 36; c++) {
    const want = [8, 13, 18, 23].includes(c) ? 1 : c === 14 ? 1 : c === 19 ? 4 : 16;
    assert.equal(digits[c]!.size, want, `position ${c}: ${[...digits[c]!].sort().join("")}`);
  }
});
