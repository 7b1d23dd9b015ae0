import assert from "node:assert/strict";
import { AsyncResource, executionAsyncId } from "node:async_hooks";
import { describe, it } from "node:test";
import { installCheapAsyncBind } from "./serve-async-bind.js";

/** What a bound function shows: its result, `this`, arguments and async scope, its length and accessor. */
function observe(bindIt: (r: AsyncResource, fn: (...a: unknown[]) => unknown) => (...a: unknown[]) => unknown, thisArg?: unknown) {
  const r = new AsyncResource("test-resource");
  const seen: unknown[] = [];
  function fn(this: unknown, a: unknown, b: unknown) {
    seen.push(this === thisArg || (thisArg === undefined && this === receiver), a, b, executionAsyncId() === r.asyncId());
    return "result";
  }
  const receiver = { name: "receiver" };
  const bound = bindIt(r, fn) as ((...a: unknown[]) => unknown) & { asyncResource: AsyncResource };
  const result = Reflect.apply(bound, receiver, [1, 2]);
  const d = Object.getOwnPropertyDescriptor(bound, "asyncResource")!;
  const lengthDesc = Object.getOwnPropertyDescriptor(bound, "length")!;
  return {
    result,
    seen,
    length: lengthDesc.value,
    lengthWritable: lengthDesc.writable,
    lengthEnumerable: lengthDesc.enumerable,
    accessor: [d.enumerable, d.configurable, typeof d.get, typeof d.set],
    keys: Object.keys(bound),
    name: bound.name,
  };
}

describe("installCheapAsyncBind", () => {
  // Node's answers first (before the replacement), then the same cases after it.
  const nodeBind = (r: AsyncResource, fn: (...a: unknown[]) => unknown) => r.bind(fn);
  const withThis = { name: "thisArg" };
  const nodeAnswers = [observe(nodeBind), observe((r, fn) => Reflect.apply(r.bind, r, [fn, withThis]), withThis)];
  let nodeError: unknown;
  try {
    new AsyncResource("x").bind("not a function" as unknown as () => void);
  } catch (e) {
    nodeError = e;
  }
  const nodeMajor = Number(process.versions.node.split(".")[0]);
  const installed = installCheapAsyncBind();

  it("replaces Node 20's method (its accessor is made by util.deprecate), once", { skip: nodeMajor !== 20 }, () => {
    assert.equal(installed, true);
    assert.equal(installCheapAsyncBind(), true);
    const getter = Object.getOwnPropertyDescriptor(new AsyncResource("x").bind(() => {}), "asyncResource")!.get!;
    assert.equal(Object.getPrototypeOf(getter), Function.prototype);
  });

  it("binds as Node's method: result, this, arguments, async scope, length and accessor", () => {
    assert.deepEqual(observe(nodeBind), nodeAnswers[0]);
    assert.deepEqual(observe((r, fn) => Reflect.apply(r.bind, r, [fn, withThis]), withThis), nodeAnswers[1]);
    assert.deepEqual(nodeAnswers[0]!.seen, [true, 1, 2, true]);
    assert.deepEqual(nodeAnswers[1]!.seen, [true, 1, 2, true]);
    assert.equal(nodeAnswers[0]!.length, 2);
  });

  it("keeps Node's error for a non-function", () => {
    assert.throws(() => new AsyncResource("x").bind("not a function" as unknown as () => void), (e: Error & { code?: string }) => {
      assert.equal(e.code, (nodeError as { code?: string }).code);
      assert.equal(e.message, (nodeError as Error).message);
      return true;
    });
  });

  it("the accessor reads and sets the resource and warns DEP0172 once", async () => {
    const warnings: { name: string; code?: string; message: string }[] = [];
    const onWarning = (w: Error & { code?: string }) => warnings.push({ name: w.name, code: w.code, message: w.message });
    process.on("warning", onWarning);
    try {
      const r = new AsyncResource("a");
      const other = new AsyncResource("b");
      const bound = r.bind(() => executionAsyncId()) as (() => number) & { asyncResource: AsyncResource };
      assert.equal(bound.asyncResource, r);
      bound.asyncResource = other;
      assert.equal(bound.asyncResource, other);
      // the setter changes what the getter answers, not the scope the function runs in (as Node's)
      assert.equal(bound(), r.asyncId());
      await new Promise((done) => setImmediate(done));
    } finally {
      process.off("warning", onWarning);
    }
    assert.deepEqual(
      warnings.filter((w) => w.code === "DEP0172"),
      [{ name: "DeprecationWarning", code: "DEP0172", message: "The asyncResource property on bound functions is deprecated" }],
    );
  });
});
