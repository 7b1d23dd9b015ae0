/**
 * GETs answered from the encoded-answer cache (endpoints/encoded-objects.ts) are exactly what decoding the
 * stored value gives: a CRD change (new read defaults) or a write through another server is seen at once,
 * and YAML / Table / another version are answered as before.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import { EncodedObjects } from "../../src/server/endpoints/encoded-objects.js";
import type { ResourceType } from "../../src/server/registry/resource-type.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

describe("encoded answers of GET", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({ store: new SqliteStore({ path: ":memory:" }) });
    const r = await api(s.url, "POST", CRDS, widgetCrd());
    assert.equal(r.status, 201, r.text);
  });
  after(() => s.close());

  it("answers the same bytes as the create, and the read defaults of a changed CRD at once", async () => {
    const created = await api(s.url, "POST", WIDGETS, widget("cached", { color: "red" }));
    assert.equal(created.status, 201, created.text);
    const first = await api(s.url, "GET", `${WIDGETS}/cached`);
    assert.equal(first.status, 200);
    assert.equal(first.text, created.text);
    assert.equal(first.headers.get("content-type"), "application/json");
    // json.Encoder's newline ends a cached answer once; ?pretty indents it without one (json.MarshalIndent)
    assert.ok(first.text.endsWith("}\n") && !first.text.endsWith("\n\n"), JSON.stringify(first.text.slice(-5)));
    const pretty = await api(s.url, "GET", `${WIDGETS}/cached?pretty=true`);
    assert.equal(pretty.text, JSON.stringify(JSON.parse(first.text), null, 2));
    // A default added to the schema applies when the stored object is read (same stored text and revision).
    const crd = (await api(s.url, "GET", `${CRDS}/widgets.test.example.com`)).json;
    crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.size = { type: "string", default: "medium" };
    const put = await api(s.url, "PUT", `${CRDS}/widgets.test.example.com`, crd);
    assert.equal(put.status, 200, put.text);
    const after = await api(s.url, "GET", `${WIDGETS}/cached`);
    assert.equal(after.json.spec.size, "medium");
    assert.equal(after.json.metadata.resourceVersion, first.json.metadata.resourceVersion);
  });

  it("answers YAML and Table requests as before, after a cached JSON answer", async () => {
    await api(s.url, "POST", WIDGETS, widget("formats", { color: "blue" }));
    assert.equal((await api(s.url, "GET", `${WIDGETS}/formats`)).status, 200);
    const yaml = await api(s.url, "GET", `${WIDGETS}/formats`, undefined, { Accept: "application/yaml" });
    assert.equal(yaml.headers.get("content-type"), "application/yaml");
    assert.match(yaml.text, /^apiVersion: test\.example\.com\/v1\n/);
    assert.match(yaml.text, /\n {2}color: blue\n/);
    const table = await api(s.url, "GET", `${WIDGETS}/formats`, undefined, { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io,application/json" });
    assert.equal(table.json.kind, "Table");
    assert.equal(table.json.rows[0].cells[0], "formats");
  });

  it("answers the new state after an update and after a write through another server on the same store", async () => {
    const store = new SqliteStore({ path: ":memory:" });
    const a = await startServer({ store });
    try {
      assert.equal((await api(a.url, "POST", CRDS, widgetCrd())).status, 201);
      await api(a.url, "POST", WIDGETS, widget("w", { color: "red" }));
      const before = await api(a.url, "GET", `${WIDGETS}/w`);
      const obj = before.json;
      obj.spec.color = "green";
      const put = await api(a.url, "PUT", `${WIDGETS}/w`, obj);
      assert.equal(put.status, 200, put.text);
      const got = await api(a.url, "GET", `${WIDGETS}/w`);
      assert.equal(got.text, put.text);
      assert.equal(got.json.spec.color, "green");
      // A write that bypasses this server's handlers (as another replica's would) is read, not the cache.
      const key = "/registry/test.example.com/widgets/default/w";
      const sv = await store.get(key);
      assert.ok(sv);
      await store.update(key, sv.value.replace('"green"', '"violet"'), sv.modRevision);
      const again = await api(a.url, "GET", `${WIDGETS}/w`);
      assert.equal(again.json.spec.color, "violet");
      assert.notEqual(again.json.metadata.resourceVersion, got.json.metadata.resourceVersion);
    } finally {
      await a.close();
    }
  });
});

describe("EncodedObjects", () => {
  const rt = { version: "v1" } as ResourceType;
  const sv = (key: string, value: string, modRevision: number) => ({ key, value, modRevision, createRevision: 1 });

  it("matches on resource type, revision and stored text", () => {
    const c = new EncodedObjects();
    const json = c.put(rt, sv("/k", '{"a":1}', 5), { a: 1 });
    assert.equal(json, '{"a":1}\n');
    assert.equal(c.get(rt, sv("/k", '{"a":1}', 5)), '{"a":1}\n');
    assert.equal(c.get(rt, sv("/k", '{"a":1}', 6)), undefined);
    assert.equal(c.get(rt, sv("/k", '{"a":2}', 5)), undefined);
    assert.equal(c.get({ version: "v1" } as ResourceType, sv("/k", '{"a":1}', 5)), undefined);
  });

  it("keeps at most its bounds, dropping the least recently used", () => {
    const c = new EncodedObjects(2, 1_000_000);
    c.put(rt, sv("/a", "{}", 1), {});
    c.put(rt, sv("/b", "{}", 1), {});
    assert.ok(c.get(rt, sv("/a", "{}", 1)));
    c.put(rt, sv("/c", "{}", 1), {});
    assert.equal(c.size, 2);
    assert.equal(c.get(rt, sv("/b", "{}", 1)), undefined);
    assert.ok(c.get(rt, sv("/a", "{}", 1)));
    // The versions a key was read in are kept side by side and leave together.
    const v2 = { version: "v2" } as ResourceType;
    const both = new EncodedObjects(3, 1_000_000);
    assert.equal(both.put(rt, sv("/k", '{"a":1}', 1), { a: 1 }), '{"a":1}\n');
    assert.equal(both.put(v2, sv("/k", '{"a":1}', 1), { b: 2 }), '{"b":2}\n');
    assert.equal(both.put(rt, sv("/k", '{"a":1}', 1), { a: 3 }), '{"a":3}\n');
    assert.equal(both.size, 2);
    assert.equal(both.get(rt, sv("/k", '{"a":1}', 1)), '{"a":3}\n');
    assert.equal(both.get(v2, sv("/k", '{"a":1}', 1)), '{"b":2}\n');
    both.put(rt, sv("/x", "{}", 1), {});
    both.put(rt, sv("/y", "{}", 1), {});
    assert.equal(both.size, 2);
    assert.equal(both.get(rt, sv("/k", '{"a":1}', 1)), undefined);
    assert.equal(both.get(v2, sv("/k", '{"a":1}', 1)), undefined);
    assert.equal(both.get(rt, sv("/y", "{}", 1)), "{}\n");
    const small = new EncodedObjects(100, 160);
    small.put(rt, sv("/big", "x".repeat(20), 1), { x: "y" });
    assert.equal(small.size, 0);
  });
});
