/**
 * Optimistic concurrency: 20 concurrent writers increment counters in the same 5 objects with
 * GET + PUT (resourceVersion) and retry on 409 Conflict; no increment is lost. Writes the client did not pin
 * to a resourceVersion (patches, PUTs without one) never answer 409 for a concurrent write: the registry store's
 * GuaranteedUpdate reads the object again and recomputes them, as the server does (rest-write's
 * `retryingConflicts`).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

describe("20 concurrent writers", { timeout: 180_000 }, () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({});
    assert.equal((await api(s.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
    for (let i = 0; i < 5; i++) assert.equal((await api(s.url, "POST", WIDGETS, widget(`c-${i}`, { count: 0 }))).status, 201);
  });
  after(async () => {
    await s.close();
  });

  it("lose no update", async () => {
    const WRITERS = 20;
    const PER_WRITER = 25;
    const done = new Map<string, number>();
    let conflicts = 0;
    const writer = async (w: number) => {
      for (let i = 0; i < PER_WRITER; i++) {
        const name = `c-${(w + i) % 5}`;
        for (;;) {
          const cur = await api(s.url, "GET", `${WIDGETS}/${name}`);
          assert.equal(cur.status, 200);
          cur.json.spec.count += 1;
          const put = await api(s.url, "PUT", `${WIDGETS}/${name}`, cur.json);
          if (put.status === 409) {
            assert.equal(put.json.reason, "Conflict");
            assert.equal(
              put.json.message,
              `Operation cannot be fulfilled on widgets.test.example.com "${name}": the object has been modified; please apply your changes to the latest version and try again`,
            );
            conflicts++;
            continue;
          }
          assert.equal(put.status, 200, put.text);
          assert.ok(Number(put.json.metadata.resourceVersion) > Number(cur.json.metadata.resourceVersion));
          done.set(name, (done.get(name) ?? 0) + 1);
          break;
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    const list = await api(s.url, "GET", WIDGETS);
    let total = 0;
    for (const o of list.json.items) {
      assert.equal(o.spec.count, done.get(o.metadata.name), o.metadata.name);
      total += o.spec.count;
    }
    assert.equal(total, WRITERS * PER_WRITER);
    process.stdout.write(`# conflicts retried: ${conflicts}\n`);
  });

  it("answers no conflict to 40 concurrent merge patches, which all land", async () => {
    assert.equal((await api(s.url, "POST", WIDGETS, widget("patched", { count: 0 }))).status, 201);
    const codes = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const r = await api(s.url, "PATCH", `${WIDGETS}/patched`, { metadata: { labels: { [`l${i}`]: "x" } } }, { "Content-Type": "application/merge-patch+json" });
        return r.status;
      }),
    );
    assert.deepEqual(codes, Array(40).fill(200));
    const got = await api(s.url, "GET", `${WIDGETS}/patched`);
    assert.equal(Object.keys(got.json.metadata.labels).length, 40);
  });

  it("still answers 409 to all but one of 20 concurrent PUTs pinned to the same resourceVersion", async () => {
    // (a custom resource's PUT needs a resourceVersion: the retry reads the object again and finds the pin stale)
    assert.equal((await api(s.url, "POST", WIDGETS, widget("put", { count: 0 }))).status, 201);
    const base = (await api(s.url, "GET", `${WIDGETS}/put`)).json;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => api(s.url, "PUT", `${WIDGETS}/put`, { ...base, spec: { count: i + 1 } })));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array(19).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) {
      assert.equal(a.json.message, 'Operation cannot be fulfilled on widgets.test.example.com "put": the object has been modified; please apply your changes to the latest version and try again');
    }
  });
});
