import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HandlerLimit } from "./http2-handler-limit.js";

/** A handler that runs until `finish()` is called. */
function pending(log: string[], name: string) {
  let finish!: () => void;
  const p = new Promise<void>((r) => {
    finish = r;
  });
  return {
    start: () => {
      log.push(name);
      return p;
    },
    finish: async () => {
      finish();
      // Let the settle callbacks run.
      await p;
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe("HandlerLimit (x/net/http2 scheduleHandler)", () => {
  it("runs at most max handlers, queues 4 × max more, then reports overflow", () => {
    const log: string[] = [];
    const l = new HandlerLimit(2);
    const verdicts = Array.from({ length: 11 }, (_, i) => l.schedule(pending(log, `h${i}`).start, () => true));
    assert.deepEqual(verdicts, ["started", "started", ...Array(8).fill("queued"), "overflow"]);
    assert.deepEqual(log, ["h0", "h1"]);
    assert.equal(l.active, 2);
    assert.equal(l.queued, 8);
  });

  it("counts a handler until it returns, starts waiting ones in order, and skips those reset while waiting", async () => {
    const log: string[] = [];
    const l = new HandlerLimit(1);
    const a = pending(log, "a");
    const b = pending(log, "b");
    const c = pending(log, "c");
    let bAlive = true;
    assert.equal(l.schedule(a.start, () => true), "started");
    assert.equal(l.schedule(b.start, () => bAlive), "queued");
    assert.equal(l.schedule(c.start, () => true), "queued");
    bAlive = false;
    await a.finish();
    assert.deepEqual(log, ["a", "c"]);
    assert.equal(l.active, 1);
    assert.equal(l.queued, 0);
    await c.finish();
    assert.equal(l.active, 0);
  });

  it("frees the slot of a handler that throws or fails", async () => {
    const l = new HandlerLimit(1);
    assert.equal(
      l.schedule(() => {
        throw new Error("boom");
      }, () => true),
      "started",
    );
    assert.equal(l.active, 0);
    assert.equal(l.schedule(() => Promise.reject(new Error("no")), () => true), "started");
    await new Promise((r) => setImmediate(r));
    assert.equal(l.active, 0);
  });
});
