import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tierServerSooner } from "./serve-tiering.js";

describe("tierServerSooner", () => {
  it("sets a quarter of Node 20's interrupt budget", () => {
    const set: string[] = [];
    assert.equal(tierServerSooner(["--enable-source-maps"], (f) => set.push(f)), true);
    assert.deepEqual(set, ["--interrupt-budget=16896"]);
  });

  it("keeps a budget given to node", () => {
    const set: string[] = [];
    assert.equal(tierServerSooner(["--interrupt-budget=100000"], (f) => set.push(f)), false);
    // V8 takes its flags with - or _.
    assert.equal(tierServerSooner(["--interrupt_budget=100000"], (f) => set.push(f)), false);
    assert.deepEqual(set, []);
  });
});
