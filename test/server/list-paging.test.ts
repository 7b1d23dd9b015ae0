/** Chunked lists: limit/continue, remainingItemCount, snapshot reads, resourceVersion(Match) rules. */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { after, before, describe, it } from "node:test";
import { decodeContinue, encodeContinue } from "../../src/server/endpoints/list-paging.js";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import { FutureRevisionError, RevisionCompactedError } from "../../src/storage/types.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const INCONSISTENT =
  "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

function tokenJson(token: string): string {
  return Buffer.from(token, "base64url").toString("utf8");
}

const names = (r: { json: { items: { metadata: { name: string } }[] } }) => r.json.items.map((i) => i.metadata.name);

describe("SqliteStore.listRange", () => {
  it("reads a consistent snapshot at a past revision, from a start key, limited", async () => {
    const s = new SqliteStore({ path: ":memory:" });
    await s.create("/p/a", '"a1"'); // 1
    await s.create("/p/b", '"b1"'); // 2
    await s.create("/p/c", '"c1"'); // 3
    await s.update("/p/a", '"a2"'); // 4
    await s.delete("/p/b"); // 5
    await s.create("/p/d", '"d1"'); // 6
    await s.create("/q/x", '"x"'); // 7
    const view = async (rev: number, startKey?: string, limit?: number) => {
      const r = await s.listRange("/p/", { revision: rev, ...(startKey ? { startKey } : {}), ...(limit ? { limit } : {}) });
      return [r.revision, r.count, r.items.map((i) => `${i.key}=${i.value}@${i.modRevision}/${i.createRevision}`)];
    };
    assert.deepEqual(await view(3), [3, 3, ['/p/a="a1"@1/1', '/p/b="b1"@2/2', '/p/c="c1"@3/3']]);
    assert.deepEqual(await view(4), [4, 3, ['/p/a="a2"@4/1', '/p/b="b1"@2/2', '/p/c="c1"@3/3']]);
    assert.deepEqual(await view(5, "/p/a\u0000", 1), [5, 1, ['/p/c="c1"@3/3']]);
    assert.deepEqual(await view(7, "/p/b", 1), [7, 2, ['/p/c="c1"@3/3']]);
    assert.deepEqual(await view(2, "/p/", 1), [2, 2, ['/p/a="a1"@1/1']]);
    await assert.rejects(s.listRange("/p/", { revision: 8 }), FutureRevisionError);
    await s.close();
  });

  it("refuses revisions older than the kept history", async () => {
    const s = new SqliteStore({ path: ":memory:", historySize: 2 });
    for (let i = 0; i < 6; i++) await s.create(`/p/${i}`, "{}");
    assert.equal(s.compactedRevision(), 4);
    await assert.rejects(s.listRange("/p/", { revision: 3 }), RevisionCompactedError);
    assert.equal((await s.listRange("/p/", { revision: 4 })).items.length, 4);
    await s.close();
  });
});

describe("SqliteStore upgrade", () => {
  it("adds the history columns to a database written before them and still reads past revisions", async () => {
    const dir = mkdtempSync(join(tmpdir(), "crdkit-upgrade-"));
    try {
      const path = join(dir, "crdkit.db");
      const old = new Database(path);
      old.exec(`
        CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL, create_rev INTEGER NOT NULL, mod_rev INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE events (rev INTEGER PRIMARY KEY, type TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, prev TEXT);
        CREATE TABLE meta (name TEXT PRIMARY KEY, num INTEGER NOT NULL);
        INSERT INTO meta VALUES ('revision', 2), ('compacted', 0);
        INSERT INTO kv VALUES ('/p/a', '"a2"', 1, 2);
        INSERT INTO events VALUES (1, 'ADDED', '/p/a', '"a1"', NULL), (2, 'MODIFIED', '/p/a', '"a2"', '"a1"');
      `);
      old.close();
      const s = new SqliteStore({ path });
      await s.update("/p/a", '"a3"'); // 3, recorded with the new columns
      assert.deepEqual(
        await Promise.all([1, 2, 3].map(async (rev) => (await s.listRange("/p/", { revision: rev })).items.map((i) => `${i.value}@${i.modRevision}`))),
        [['"a1"@1'], ['"a2"@2'], ['"a3"@3']],
      );
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("continue tokens", () => {
  it("encodes {v, rv, start} as unpadded base64url and decodes it back", () => {
    const t = encodeContinue("/registry/g/ws/default/w-1\u0000", "/registry/g/ws/default/", 12);
    assert.equal(tokenJson(t), '{"v":"meta.k8s.io/v1","rv":12,"start":"w-1\\u0000"}');
    assert.equal(t.includes("="), false);
    assert.deepEqual(decodeContinue(t, "/registry/g/ws/default/"), { key: "/registry/g/ws/default/w-1\u0000", revision: 12 });
  });
});

describe("chunked lists over HTTP", () => {
  let s: RunningServer;
  before(async () => {
    s = await startServer({ store: new SqliteStore({ path: ":memory:", historySize: 20 }) });
    assert.equal((await api(s.url, "POST", CRDS, widgetCrd())).status, 201);
    for (let i = 0; i < 7; i++) {
      const r = await api(s.url, "POST", WIDGETS, widget(`w-${i}`, { color: i % 2 === 0 ? "red" : "blue", count: i }));
      assert.equal(r.status, 201, r.text);
    }
  });
  after(async () => {
    await s.close();
  });

  it("pages with limit/continue over a snapshot taken at the first page", async () => {
    const p1 = await api(s.url, "GET", `${WIDGETS}?limit=3`);
    assert.equal(p1.status, 200, p1.text);
    assert.deepEqual(names(p1), ["w-0", "w-1", "w-2"]);
    const rv = p1.json.metadata.resourceVersion;
    assert.equal(p1.json.metadata.remainingItemCount, 4);
    assert.equal(tokenJson(p1.json.metadata.continue), `{"v":"meta.k8s.io/v1","rv":${rv},"start":"w-2\\u0000"}`);
    // Writes after the first page do not show up in the following pages.
    const w4 = await api(s.url, "GET", `${WIDGETS}/w-4`);
    assert.equal((await api(s.url, "PUT", `${WIDGETS}/w-4`, { ...w4.json, spec: { count: 40 } })).status, 200);
    assert.equal((await api(s.url, "DELETE", `${WIDGETS}/w-5`)).status, 200);
    assert.equal((await api(s.url, "POST", WIDGETS, widget("w-3a"))).status, 201);
    const p2 = await api(s.url, "GET", `${WIDGETS}?limit=3&continue=${p1.json.metadata.continue}`);
    assert.equal(p2.status, 200, p2.text);
    assert.deepEqual(names(p2), ["w-3", "w-4", "w-5"]);
    assert.equal(p2.json.items[1].spec.count, 4);
    assert.equal(p2.json.items[1].metadata.resourceVersion, w4.json.metadata.resourceVersion);
    assert.equal(p2.json.metadata.resourceVersion, rv);
    assert.equal(p2.json.metadata.remainingItemCount, 1);
    const p3 = await api(s.url, "GET", `${WIDGETS}?limit=3&continue=${p2.json.metadata.continue}`);
    assert.deepEqual(names(p3), ["w-6"]);
    assert.deepEqual(p3.json.metadata, { continue: "", resourceVersion: rv });
    // A fresh list sees the writes.
    const now = await api(s.url, "GET", WIDGETS);
    assert.deepEqual(names(now), ["w-0", "w-1", "w-2", "w-3", "w-3a", "w-4", "w-6"]);
    assert.deepEqual(Object.keys(now.json.metadata), ["continue", "resourceVersion"]);
    // Restore for the other cases.
    await api(s.url, "DELETE", `${WIDGETS}/w-3a`);
    await api(s.url, "POST", WIDGETS, widget("w-5", { color: "blue", count: 5 }));
  });

  it("fills a page through a selector without remainingItemCount; Table lists carry the same ListMeta", async () => {
    const r = await api(s.url, "GET", `${WIDGETS}?limit=2&fieldSelector=spec.color%3Dred`);
    assert.deepEqual(names(r), ["w-0", "w-2"]);
    assert.equal(r.json.metadata.remainingItemCount, undefined);
    assert.match(tokenJson(r.json.metadata.continue), /"start":"w-2\\u0000"/);
    const r2 = await api(s.url, "GET", `${WIDGETS}?limit=2&fieldSelector=spec.color%3Dred&continue=${r.json.metadata.continue}`);
    assert.deepEqual(names(r2), ["w-6"]); // w-4 lost its color in the previous case
    assert.equal(r2.json.metadata.continue, "");
    const t = await api(s.url, "GET", `${WIDGETS}?limit=4`, undefined, { Accept: "application/json;as=Table;v=v1;g=meta.k8s.io" });
    assert.equal(t.json.kind, "Table");
    assert.equal(t.json.rows.length, 4);
    assert.equal(t.json.metadata.remainingItemCount, 3);
    assert.equal(typeof t.json.metadata.continue, "string");
  });

  it("lists at an exact past resourceVersion, and refuses future ones with 504", async () => {
    const before = await api(s.url, "GET", WIDGETS);
    const rv = before.json.metadata.resourceVersion;
    const w0 = await api(s.url, "GET", `${WIDGETS}/w-0`);
    assert.equal((await api(s.url, "PUT", `${WIDGETS}/w-0`, { ...w0.json, spec: { count: 100 } })).status, 200);
    for (const q of [`resourceVersion=${rv}&resourceVersionMatch=Exact`, `resourceVersion=${rv}&limit=100`]) {
      const old = await api(s.url, "GET", `${WIDGETS}?${q}`);
      assert.equal(old.status, 200, old.text);
      assert.equal(old.json.metadata.resourceVersion, rv);
      assert.equal(old.json.items[0].spec.count, 0, q);
    }
    const notOlder = await api(s.url, "GET", `${WIDGETS}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`);
    assert.equal(notOlder.json.items[0].spec.count, 100);
    const cur = Number(notOlder.json.metadata.resourceVersion);
    for (const q of [`resourceVersion=${cur + 5}&resourceVersionMatch=Exact`, `resourceVersion=${cur + 5}`]) {
      const fut = await api(s.url, "GET", `${WIDGETS}?${q}`);
      assert.equal(fut.status, 504);
      assert.deepEqual(fut.json, {
        kind: "Status",
        apiVersion: "v1",
        metadata: {},
        status: "Failure",
        message: `Timeout: Too large resource version: ${cur + 5}, current: ${cur}`,
        reason: "Timeout",
        // the watch cache's answer (it serves these lists): with its retry time (sequence 49-known-gaps)
        details: { causes: [{ reason: "ResourceVersionTooLarge", message: "Too large resource version" }], retryAfterSeconds: 1 },
        code: 504,
      });
    }
  });

  const badRequests: { name: string; query: string; code: number; message: string }[] = [
    {
      name: "resourceVersionMatch without resourceVersion",
      query: "resourceVersionMatch=Exact",
      code: 422,
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    },
    {
      name: "Exact with resourceVersion 0",
      query: "resourceVersion=0&resourceVersionMatch=Exact",
      code: 422,
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    },
    {
      name: "unknown resourceVersionMatch with continue",
      query: "resourceVersion=1&resourceVersionMatch=Newest&continue=x",
      code: 422,
      message:
        'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided, resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""]',
    },
    {
      name: "resourceVersion with continue",
      query: `resourceVersion=5&continue=${encodeContinue("/x/w-1\u0000", "/x/", 3)}`,
      code: 400,
      message: "specifying resource version is not allowed when using continue",
    },
    {
      name: "a token with rv 0",
      query: `continue=${Buffer.from('{"v":"meta.k8s.io/v1","rv":0,"start":"a"}').toString("base64url")}`,
      code: 400,
      message: "invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)",
    },
    {
      name: "a token without start",
      query: `continue=${Buffer.from('{"v":"meta.k8s.io/v1","rv":3}').toString("base64url")}`,
      code: 400,
      message: "invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)",
    },
    {
      name: "a token of another version",
      query: `continue=${Buffer.from('{"v":"v2","rv":3,"start":"a"}').toString("base64url")}`,
      code: 400,
      message: "invalid continue token: continue key is not valid: server does not recognize this encoded version v2",
    },
    {
      name: "a token escaping the prefix",
      query: `continue=${Buffer.from('{"v":"meta.k8s.io/v1","rv":3,"start":"../kube-system/a"}').toString("base64url")}`,
      code: 400,
      message: "invalid continue token: continue key is not valid: ../kube-system/a",
    },
    {
      name: "a token that is not base64",
      query: "continue=ab%21cd",
      code: 400,
      message: "invalid continue token: continue key is not valid: illegal base64 data at input byte 2",
    },
    {
      name: "a malformed resourceVersion",
      query: "resourceVersion=abc",
      code: 400,
      message: 'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    },
  ];
  const badWatches: { query: string; message: string }[] = [
    {
      query: "resourceVersionMatch=NotOlderThan&resourceVersion=1",
      message: 'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
    },
    {
      query: "sendInitialEvents=true&resourceVersionMatch=Exact",
      message:
        'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
    },
  ];
  for (const c of badWatches) {
    it(`rejects a watch with ${c.query}`, async () => {
      const r = await api(s.url, "GET", `${WIDGETS}?watch=true&${c.query}`);
      assert.equal(r.status, 422, r.text);
      assert.equal(r.json.message, c.message);
    });
  }

  for (const c of badRequests) {
    it(`rejects ${c.name}`, async () => {
      const r = await api(s.url, "GET", `${WIDGETS}?${c.query}`);
      assert.equal(r.status, c.code, r.text);
      assert.equal(r.json.message, c.message);
      if (c.code === 422) assert.deepEqual([r.json.details.group, r.json.details.kind, r.json.details.name], ["meta.k8s.io", "ListOptions", undefined]);
    });
  }

  it("answers 410 with a fresh token when the continue snapshot was compacted, and 410 for an old exact list", async () => {
    const p1 = await api(s.url, "GET", `${WIDGETS}?limit=2`);
    const rv = p1.json.metadata.resourceVersion;
    for (let i = 0; i < 45; i++) await api(s.url, "POST", WIDGETS, widget(`z-${i}`));
    const r = await api(s.url, "GET", `${WIDGETS}?limit=2&continue=${p1.json.metadata.continue}`);
    assert.equal(r.status, 410, r.text);
    assert.equal(r.json.reason, "Expired");
    assert.equal(r.json.message, INCONSISTENT);
    assert.equal(tokenJson(r.json.metadata.continue), '{"v":"meta.k8s.io/v1","rv":-1,"start":"w-1\\u0000"}');
    // The fresh token continues at the latest revision.
    const rest = await api(s.url, "GET", `${WIDGETS}?limit=2&continue=${r.json.metadata.continue}`);
    assert.equal(rest.status, 200);
    assert.deepEqual(names(rest), ["w-2", "w-3"]);
    assert.equal(rest.json.metadata.resourceVersion, String(await s.store.currentRevision()));
    const old = await api(s.url, "GET", `${WIDGETS}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    assert.equal(old.status, 410);
    assert.equal(old.json.message, "The resourceVersion for the provided list is too old.");
  });
});

describe("deletecollection pages like the generic store", () => {
  it("deletes one page with limit (answering its ListMeta), everything without", async () => {
    const s = await startServer({});
    try {
      assert.equal((await api(s.url, "POST", CRDS, widgetCrd())).status, 201);
      for (const n of ["a", "b", "c", "d", "e"]) assert.equal((await api(s.url, "POST", WIDGETS, widget(n))).status, 201);
      const one = await api(s.url, "DELETE", `${WIDGETS}?limit=2`);
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(names(one), ["a", "b"]);
      assert.equal(one.json.metadata.remainingItemCount, 3);
      assert.match(tokenJson(one.json.metadata.continue), /"start":"b\\u0000"/);
      assert.deepEqual(names(await api(s.url, "GET", WIDGETS)), ["c", "d", "e"]);
      const all = await api(s.url, "DELETE", WIDGETS);
      assert.deepEqual(names(all), ["c", "d", "e"]);
      assert.deepEqual(Object.keys(all.json.metadata), ["continue", "resourceVersion"]);
      assert.deepEqual(names(await api(s.url, "GET", WIDGETS)), []);
    } finally {
      await s.close();
    }
  });
});
