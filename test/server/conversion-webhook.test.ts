/**
 * `conversion.strategy: Webhook` against a real HTTPS webhook started by the test: objects are stored in
 * the storage version and served in the request version through ConversionReviews (reads, writes, lists,
 * watches), with the API server's error texts when the webhook fails or misbehaves
 * (apiextensions `webhook_converter.go`, client-go's `rest` client).
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { createServer as createNetServer } from "node:net";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { api } from "./client.js";
import { startConversionWebhook, type ConversionWebhook } from "./conversion-webhook-fixture.js";
import { WatchStream } from "./watch-stream.js";

const CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const BETA = "/apis/conv.example.com/v1beta1/namespaces/default/gadgets";
const V1 = "/apis/conv.example.com/v1/namespaces/default/gadgets";

function gadgetCrd(name: string, clientConfig: Record<string, unknown>, reviewVersions: string[] = ["v1", "v1beta1"]): Record<string, unknown> {
  const plural = name.split(".")[0]!;
  const kind = plural === "gadgets" ? "Gadget" : `${plural[0]!.toUpperCase()}${plural.slice(1, -1)}`;
  const schema = (field: string) => ({
    openAPIV3Schema: {
      type: "object",
      properties: { spec: { type: "object", properties: { [field]: { type: "integer" }, color: { type: "string", default: "blue" } } } },
    },
  });
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name },
    spec: {
      group: "conv.example.com",
      scope: "Namespaced",
      names: { plural, singular: plural.slice(0, -1), kind },
      versions: [
        { name: "v1beta1", served: true, storage: false, deprecated: true, schema: schema("count") },
        { name: "v1", served: true, storage: true, schema: schema("replicas") },
      ],
      conversion: { strategy: "Webhook", webhook: { conversionReviewVersions: reviewVersions, clientConfig } },
    },
  };
}

function gadget(name: string, count: number, labels?: Record<string, string>): Record<string, unknown> {
  return { apiVersion: "conv.example.com/v1beta1", kind: "Gadget", metadata: { name, ...(labels ? { labels } : {}) }, spec: { count } };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((resolve) => srv.listen(0, "127.0.0.1", resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

const STORAGE_ERROR = (name: string) =>
  new RegExp(
    `^Internal error occurred: StorageError: corrupt object, Code: 7, Key: /conv\\.example\\.com/gadgets/default/${name}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=\\d+: `,
  );

describe("conversion webhooks", () => {
  let hook: ConversionWebhook;
  let s: RunningServer;
  before(async () => {
    hook = await startConversionWebhook(["127.0.0.1", "localhost", "conv.webhooks.svc"]);
    s = await startServer({
      ui: false,
      conversionWebhooks: {
        serviceResolver: (namespace, name, port) => (namespace === "webhooks" && name === "conv" && port === 8443 ? { host: "127.0.0.1", port: hook.port } : undefined),
      },
    });
    const c = await api(s.url, "POST", CRDS, gadgetCrd("gadgets.conv.example.com", { url: hook.url, caBundle: hook.caBundle }));
    assert.equal(c.status, 201, c.text);
  });
  after(async () => {
    await s.close();
    await hook.close();
  });
  beforeEach(() => {
    hook.mode = "ok";
    hook.reviews.length = 0;
  });

  it("stores in the storage version and serves the request version through the webhook", async () => {
    const created = await api(s.url, "POST", BETA, gadget("a", 3));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.apiVersion, "conv.example.com/v1beta1");
    assert.deepEqual(created.json.spec, { count: 3, color: "blue" });
    // One review to the storage version for the write, one back to v1beta1 for the answer.
    assert.deepEqual(
      hook.reviews.map((r) => [r.apiVersion, r.request.desiredAPIVersion, r.request.objects.map((o: { apiVersion: string }) => o.apiVersion)]),
      [
        ["apiextensions.k8s.io/v1", "conv.example.com/v1", ["conv.example.com/v1beta1"]],
        ["apiextensions.k8s.io/v1", "conv.example.com/v1beta1", ["conv.example.com/v1"]],
      ],
    );
    // The object sent for storage has no resourceVersion; the one sent back is the stored one.
    assert.equal(hook.reviews[0].request.objects[0].metadata.resourceVersion, undefined);
    assert.deepEqual(hook.reviews[0].response, { uid: "", convertedObjects: null, result: { metadata: {} } });
    const stored = await s.store.get("/registry/conv.example.com/gadgets/default/a");
    const storedObj = JSON.parse(stored!.value);
    assert.equal(storedObj.apiVersion, "conv.example.com/v1");
    assert.deepEqual(storedObj.spec, { replicas: 3, color: "blue" });

    const v1 = await api(s.url, "GET", `${V1}/a`);
    assert.equal(v1.status, 200);
    assert.deepEqual(v1.json.spec, { replicas: 3, color: "blue" });
    hook.reviews.length = 0;
    const beta = await api(s.url, "GET", `${BETA}/a`);
    assert.equal(beta.json.apiVersion, "conv.example.com/v1beta1");
    assert.deepEqual(beta.json.spec, { count: 3, color: "blue" });
    assert.equal(beta.headers.get("warning"), '299 - "conv.example.com/v1beta1 Gadget is deprecated; use conv.example.com/v1 Gadget"');
    assert.equal(hook.reviews.length, 1);

    const list = await api(s.url, "GET", BETA);
    assert.deepEqual(list.json.items.map((o: { apiVersion: string; spec: unknown }) => [o.apiVersion, o.spec]), [["conv.example.com/v1beta1", { count: 3, color: "blue" }]]);

    // An update in v1beta1: the old and the new object are compared in the storage version (managedFields).
    const upd = await api(s.url, "PUT", `${BETA}/a`, { ...beta.json, spec: { count: 4 } });
    assert.equal(upd.status, 200, upd.text);
    assert.deepEqual(upd.json.spec, { count: 4, color: "blue" });
    const patched = await api(s.url, "PATCH", `${BETA}/a`, { spec: { count: 5 } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.json.spec, { count: 5, color: "blue" });
    assert.deepEqual(JSON.parse((await s.store.get("/registry/conv.example.com/gadgets/default/a"))!.value).spec, { replicas: 5, color: "blue" });
    assert.equal((await api(s.url, "DELETE", `${BETA}/a`)).status, 200);
  });

  it("converts watch events and warns about the deprecated version on watches", async () => {
    const res = await fetch(`${s.url}${BETA}?watch=true&resourceVersion=0&timeoutSeconds=1`);
    assert.equal(res.headers.get("warning"), '299 - "conv.example.com/v1beta1 Gadget is deprecated; use conv.example.com/v1 Gadget"');
    await res.body?.cancel();
    const w = await WatchStream.open(`${s.url}${BETA}?watch=true`);
    assert.equal((await api(s.url, "POST", V1, { apiVersion: "conv.example.com/v1", kind: "Gadget", metadata: { name: "w" }, spec: { replicas: 7 } })).status, 201);
    await w.waitFor(1);
    assert.equal(w.events[0]!.type, "ADDED");
    assert.equal(w.events[0]!.object.apiVersion, "conv.example.com/v1beta1");
    assert.deepEqual(w.events[0]!.object.spec, { count: 7, color: "blue" });
    // A failing webhook ends the watch with an ERROR event.
    hook.mode = "fail";
    assert.equal((await api(s.url, "PATCH", `${V1}/w`, { spec: { replicas: 8 } }, { "Content-Type": "application/merge-patch+json" })).status, 200);
    await w.ended;
    const last = w.events.at(-1)!;
    assert.equal(last.type, "ERROR");
    assert.equal(last.object.code, 500);
    assert.match(last.object.message, /conversion webhook for conv\.example\.com\/v1, Kind=Gadget failed: gadgets cannot be converted today$/);
    hook.mode = "ok";
    assert.equal((await api(s.url, "DELETE", `${V1}/w`)).status, 200);
  });

  it("answers the API server's texts when the webhook fails or misbehaves", async () => {
    assert.equal((await api(s.url, "POST", V1, { apiVersion: "conv.example.com/v1", kind: "Gadget", metadata: { name: "e" }, spec: { replicas: 1 } })).status, 201);
    const cases: [ConversionWebhook["mode"], string | RegExp][] = [
      ["fail", "gadgets cannot be converted today"],
      ["fail-no-message", "response.result.status was 'Failure', not 'Success'"],
      ["text-500", 'an error on the server ("boom") has prevented the request from succeeding'],
      ["status-403", "webhook says no"],
      ["empty-200", "0-length response with status code: 200 and content type: application/json"],
      ["not-json", /^couldn't get version\/kind; json parse error: /],
      ["v1beta1-answer", "converting (v1beta1.ConversionReview) to (v1.ConversionReview): unknown conversion"],
    ];
    for (const [mode, text] of cases) {
      hook.mode = mode;
      const r = await api(s.url, "GET", `${BETA}/e`);
      assert.equal(r.status, 500, mode);
      assert.equal(r.json.reason, "InternalError", mode);
      assert.match(r.json.message, STORAGE_ERROR("e"), mode);
      const tail = r.json.message.replace(STORAGE_ERROR("e"), "");
      const prefix = "conversion webhook for conv.example.com/v1, Kind=Gadget failed: ";
      assert.ok(tail.startsWith(prefix), `${mode}: ${tail}`);
      const rest = tail.slice(prefix.length);
      if (typeof text === "string") assert.equal(rest, text.replace("URL", hook.url), mode);
      else assert.match(rest, text, mode);
    }
    hook.mode = "wrong-uid";
    let r = await api(s.url, "GET", `${BETA}/e`);
    const uid = hook.reviews.at(-1).request.uid;
    assert.equal(r.json.message.replace(STORAGE_ERROR("e"), ""), `conversion webhook for conv.example.com/v1, Kind=Gadget failed: expected response.uid="${uid}", got "not-the-request-uid"`);
    const invalid: [ConversionWebhook["mode"], string][] = [
      ["two-objects", "conversion webhook for conv.example.com/v1, Kind=Gadget returned 2 objects, expected 1"],
      ["rename", "conversion webhook for conv.example.com/v1, Kind=Gadget returned invalid object: must have the same name: e != someone-else"],
      [
        "wrong-version",
        "conversion webhook for conv.example.com/v1, Kind=Gadget returned invalid object at index 0: invalid groupVersion (expected conv.example.com/v1beta1, received conv.example.com/v9)",
      ],
      ["wrong-kind", "conversion webhook for conv.example.com/v1, Kind=Gadget returned invalid object at index 0: invalid kind (expected Gadget, received Gizmo)"],
      [
        "bad-label",
        'conversion webhook for conv.example.com/v1, Kind=Gadget returned invalid metadata: metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')',
      ],
    ];
    for (const [mode, text] of invalid) {
      hook.mode = mode;
      r = await api(s.url, "GET", `${BETA}/e`);
      assert.equal(r.status, 500, mode);
      assert.equal(r.json.message.replace(STORAGE_ERROR("e"), ""), text, mode);
    }
    // Writes: the conversion to the storage version fails; the API server answers its plain 500.
    hook.mode = "fail";
    const w = await api(s.url, "POST", BETA, gadget("never", 1));
    assert.equal(w.status, 500);
    assert.deepEqual(w.json, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: "conversion webhook for conv.example.com/v1beta1, Kind=Gadget failed: gadgets cannot be converted today",
      code: 500,
    });
    assert.equal(await s.store.get("/registry/conv.example.com/gadgets/default/never"), undefined);
    // The storage version itself needs no webhook.
    assert.equal((await api(s.url, "GET", `${V1}/e`)).status, 200);
    hook.mode = "ok";
    assert.equal((await api(s.url, "DELETE", `${V1}/e`)).status, 200);
  });

  it("lists name every object the webhook cannot convert; updates start from the last converted object", async () => {
    for (const n of ["l1", "l2"]) {
      assert.equal((await api(s.url, "POST", V1, { apiVersion: "conv.example.com/v1", kind: "Gadget", metadata: { name: n }, spec: { replicas: 1 } })).status, 201);
    }
    const before = await api(s.url, "GET", `${BETA}/l1`);
    assert.equal(before.status, 200);
    hook.mode = "fail";
    const l = await api(s.url, "GET", BETA);
    assert.equal(l.status, 500);
    assert.equal(l.headers.get("warning"), '299 - "conv.example.com/v1beta1 Gadget is deprecated; use conv.example.com/v1 Gadget"');
    const text = (n: string) =>
      `StorageError: corrupt object, Code: 7, Key: /registry/conv.example.com/gadgets/default/${n}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${l.json.details.causes.find((c: { field: string }) => c.field.endsWith(n)).message.match(/revision=(\d+)/)[1]}: conversion webhook for conv.example.com/v1, Kind=Gadget failed: gadgets cannot be converted today`;
    assert.deepEqual(l.json, {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: `failed to read one or more gadgets.conv.example.com from the storage: [${text("l1")}, ${text("l2")}]`,
      reason: "StorageReadError",
      details: {
        name: "list",
        group: "conv.example.com",
        kind: "gadgets",
        causes: ["l1", "l2"].map((n) => ({ reason: "UnexpectedServerResponse", message: text(n), field: `/registry/conv.example.com/gadgets/default/${n}` })),
      },
      code: 500,
    });
    // The update of l1 starts from the object converted by the GET above (no webhook call for it); the
    // conversion to the storage version then fails with the API server's plain 500.
    hook.reviews.length = 0;
    const u = await api(s.url, "PATCH", `${BETA}/l1`, { spec: { count: 2 } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(u.status, 500);
    assert.equal(u.json.message, "conversion webhook for conv.example.com/v1beta1, Kind=Gadget failed: gadgets cannot be converted today");
    assert.equal(u.json.reason, undefined);
    assert.ok(hook.reviews.every((r) => r.request.desiredAPIVersion === "conv.example.com/v1"));
    hook.mode = "ok";
    const ok = await api(s.url, "PATCH", `${BETA}/l1`, { spec: { count: 2 } }, { "Content-Type": "application/merge-patch+json" });
    assert.equal(ok.status, 200, ok.text);
    // Field ownership is recorded in the request version's fields (count), not the storage version's.
    assert.deepEqual(ok.json.metadata.managedFields.map((m: { apiVersion: string; fieldsV1: unknown }) => [m.apiVersion, m.fieldsV1]), [
      ["conv.example.com/v1", { "f:spec": { ".": {}, "f:color": {}, "f:replicas": {} } }],
      ["conv.example.com/v1beta1", { "f:spec": { "f:count": {} } }],
    ]);
    for (const n of ["l1", "l2"]) assert.equal((await api(s.url, "DELETE", `${V1}/${n}`)).status, 200);
  });

  it("gives up on a webhook that does not answer within the timeout", async () => {
    // A server of its own with a short timeout (the API server's is 30 s), also sent as the `timeout` parameter.
    const quick = await startServer({ ui: false, conversionWebhooks: { timeoutMs: 500 } });
    try {
      const c = await api(quick.url, "POST", CRDS, gadgetCrd("gadgets.conv.example.com", { url: hook.url, caBundle: hook.caBundle }));
      assert.equal(c.status, 201, c.text);
      hook.mode = "hang";
      const r = await api(quick.url, "POST", BETA, gadget("slow", 1));
      assert.equal(r.status, 500);
      assert.equal(r.json.message, `conversion webhook for conv.example.com/v1beta1, Kind=Gadget failed: Post "${hook.url}?timeout=500ms": context deadline exceeded`);
    } finally {
      await quick.close();
    }
  });

  it("keeps the original metadata except labels and annotations", async () => {
    assert.equal((await api(s.url, "POST", V1, { apiVersion: "conv.example.com/v1", kind: "Gadget", metadata: { name: "m", labels: { a: "b" } }, spec: { replicas: 1 } })).status, 201);
    hook.mode = "touch-metadata";
    let r = await api(s.url, "GET", `${BETA}/m`);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.metadata.generation, 1);
    assert.equal(r.json.metadata.finalizers, undefined);
    assert.deepEqual(r.json.metadata.labels, { a: "b" });
    hook.mode = "relabel";
    r = await api(s.url, "GET", `${BETA}/m`);
    assert.deepEqual(r.json.metadata.labels, { converted: "yes" });
    assert.equal(r.json.metadata.generation, 1);
    hook.mode = "ok";
    assert.equal((await api(s.url, "DELETE", `${V1}/m`)).status, 200);
  });

  it("picks the first review version it knows and reaches services through the resolver", async () => {
    const c = await api(
      s.url,
      "POST",
      CRDS,
      gadgetCrd("widgets.conv.example.com", { service: { namespace: "webhooks", name: "conv", port: 8443, path: "/convert" }, caBundle: hook.caBundle }, ["v2", "v1beta1", "v1"]),
    );
    assert.equal(c.status, 201, c.text);
    const path = "/apis/conv.example.com/v1beta1/namespaces/default/widgets";
    const r = await api(s.url, "POST", path, { apiVersion: "conv.example.com/v1beta1", kind: "Widget", metadata: { name: "x" }, spec: { count: 2 } });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.spec, { count: 2, color: "blue" });
    assert.deepEqual(
      hook.reviews.map((x) => x.apiVersion),
      ["apiextensions.k8s.io/v1beta1", "apiextensions.k8s.io/v1beta1"],
    );
    // A service the resolver does not know.
    const u = await api(
      s.url,
      "POST",
      CRDS,
      gadgetCrd("things.conv.example.com", { service: { namespace: "elsewhere", name: "conv", port: 443 }, caBundle: hook.caBundle }),
    );
    assert.equal(u.status, 201, u.text);
    const t = await api(s.url, "POST", "/apis/conv.example.com/v1beta1/namespaces/default/things", { apiVersion: "conv.example.com/v1beta1", kind: "Thing", metadata: { name: "t" }, spec: { count: 1 } });
    assert.equal(t.status, 500);
    assert.equal(t.json.message, 'conversion webhook for conv.example.com/v1beta1, Kind=Thing failed: Post "https://conv.elsewhere.svc:443/?timeout=30s": dial tcp: lookup conv.elsewhere.svc: no such host');
  });

  it("refuses a webhook whose certificate the caBundle does not sign, and an unreachable webhook", async () => {
    const other = await startConversionWebhook();
    try {
      const c = await api(s.url, "POST", CRDS, gadgetCrd("bolts.conv.example.com", { url: hook.url, caBundle: other.caBundle }));
      assert.equal(c.status, 201, c.text);
      const r = await api(s.url, "POST", "/apis/conv.example.com/v1beta1/namespaces/default/bolts", { apiVersion: "conv.example.com/v1beta1", kind: "Bolt", metadata: { name: "b" }, spec: { count: 1 } });
      assert.equal(r.status, 500);
      assert.equal(
        r.json.message,
        `conversion webhook for conv.example.com/v1beta1, Kind=Bolt failed: Post "${hook.url}?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
      );
    } finally {
      await other.close();
    }
    const port = await closedPort();
    const url = `https://127.0.0.1:${port}/convert`;
    const c = await api(s.url, "POST", CRDS, gadgetCrd("nuts.conv.example.com", { url, caBundle: hook.caBundle }));
    assert.equal(c.status, 201, c.text);
    const r = await api(s.url, "POST", "/apis/conv.example.com/v1beta1/namespaces/default/nuts", { apiVersion: "conv.example.com/v1beta1", kind: "Nut", metadata: { name: "n" }, spec: { count: 1 } });
    assert.equal(r.status, 500);
    assert.equal(r.json.message, `conversion webhook for conv.example.com/v1beta1, Kind=Nut failed: Post "${url}?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`);
    // Nothing to convert: an empty list of the non-storage version needs no webhook.
    const l = await api(s.url, "GET", "/apis/conv.example.com/v1beta1/namespaces/default/nuts");
    assert.equal(l.status, 200);
    assert.deepEqual(l.json.items, []);
  });
});
