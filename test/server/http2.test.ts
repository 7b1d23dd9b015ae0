/**
 * HTTP/2 on the TLS port (src/server/http2-serving.ts): ALPN as Go's server negotiates it, the same answers on
 * both protocols, watches over streams (cancel = RST_STREAM ends the watch), the settings Kubernetes
 * advertises, `--disable-http2-serving`, GOAWAY on shutdown, and floods that must not take the server down.
 */
import assert from "node:assert/strict";
import { connect as h2connect, constants } from "node:http2";
import { after, before, describe, it } from "node:test";
import { connect as tlsConnect } from "node:tls";
import { widget, widgetCrd } from "./client.js";
import { h1Client, h2Client, PROTOCOLS, type ProtoClient, type ProtoResponse, protoClient, startTlsServer } from "./proto-client.js";
import type { LogRecord } from "../../src/server/server.js";

/** The protocol a TLS client offering `offer` (none: no ALPN extension) is given. */
function negotiated(url: string, ca: string, offer: string[] | undefined): Promise<string | false> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = tlsConnect({ host: u.hostname, port: Number(u.port), ca, ...(offer ? { ALPNProtocols: offer } : {}) }, () => {
      const p = s.alpnProtocol;
      s.destroy();
      resolve(p ?? false);
    });
    s.on("error", reject);
  });
}

/** Polls `f` until it is true (bounded). */
async function until(f: () => boolean | Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const WIDGETS = "/apis/test.example.com/v1/namespaces/default/widgets";
const JSON_HEADERS = { "content-type": "application/json" };

describe("HTTP/2 and HTTP/1.1 on the TLS port", () => {
  let t: Awaited<ReturnType<typeof startTlsServer>>;
  const logs: LogRecord[] = [];
  const clients: ProtoClient[] = [];
  before(async () => {
    t = await startTlsServer({ log: (r) => logs.push(r) });
    const c = h1Client(t.server.url, t.ca);
    clients.push(c);
    assert.equal((await c.request("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(widgetCrd()) })).status, 201);
    await until(async () => (await c.request(WIDGETS)).status === 200, "the CRD to be served");
    assert.equal((await c.request(WIDGETS, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(widget("w1", { count: 1, color: "red" })) })).status, 201);
  });
  after(async () => {
    for (const c of clients) c.close();
    await t?.close();
  });
  const client = (proto: "h2" | "http/1.1") => {
    const c = protoClient(proto, t.server.url, t.ca);
    clients.push(c);
    return c;
  };

  it("negotiates h2 when offered, http/1.1 otherwise (as Go's NextProtos h2, http/1.1)", async () => {
    assert.equal(await negotiated(t.server.url, t.ca, ["h2", "http/1.1"]), "h2");
    assert.equal(await negotiated(t.server.url, t.ca, ["http/1.1", "h2"]), "h2");
    assert.equal(await negotiated(t.server.url, t.ca, ["http/1.1"]), "http/1.1");
    assert.equal(await negotiated(t.server.url, t.ca, undefined), false);
  });

  it("records the protocol of each request in the request log (Go's Request.Proto)", async () => {
    for (const proto of PROTOCOLS) {
      const ua = `proto-log-${proto}`;
      assert.equal((await client(proto).request("/version", { headers: { "user-agent": ua } })).status, 200);
      await until(() => logs.some((r) => r["userAgent"] === ua), "the request record");
      assert.equal(logs.find((r) => r["userAgent"] === ua)?.["protocol"], proto === "h2" ? "HTTP/2.0" : "HTTP/1.1");
    }
  });

  /** Requests that do not change what the server holds: each is answered identically on both protocols. */
  const BIG = JSON.stringify(widget("big", { color: "x".repeat(3 * 1024 * 1024) }));
  const SAME: Array<[string, string, { method?: string; headers?: Record<string, string>; body?: string }?]> = [
    ["version", "/version"],
    ["legacy discovery", "/apis", { headers: { accept: "application/json" } }],
    ["aggregated discovery", "/apis", { headers: { accept: "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList" } }],
    ["group version", "/apis/test.example.com/v1"],
    ["OpenAPI v3 index", "/openapi/v3"],
    ["OpenAPI v3 document", "/openapi/v3/apis/test.example.com/v1"],
    ["healthz verbose", "/livez?verbose"],
    ["index", "/"],
    ["unknown path", "/nope/nope"],
    ["list", WIDGETS],
    ["list, pretty", `${WIDGETS}?pretty=true`],
    ["get", `${WIDGETS}/w1`],
    ["get as YAML", `${WIDGETS}/w1`, { headers: { accept: "application/yaml" } }],
    ["table", WIDGETS, { headers: { accept: "application/json;as=Table;v=v1;g=meta.k8s.io" } }],
    ["not found", `${WIDGETS}/none`],
    ["HEAD of an object", `${WIDGETS}/w1`, { method: "HEAD" }],
    ["HEAD of discovery (405)", "/apis", { method: "HEAD" }],
    ["scale", `${WIDGETS}/w1/scale`],
    ["not acceptable", `${WIDGETS}/w1`, { headers: { accept: "text/html" } }],
    ["create of an existing object (409)", WIDGETS, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(widget("w1", { count: 2 })) }],
    ["invalid object (422)", WIDGETS, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(widget("Bad_Name")) }],
    ["malformed JSON (400)", WIDGETS, { method: "POST", headers: JSON_HEADERS, body: "{" }],
    ["unsupported media type (415)", WIDGETS, { method: "POST", headers: { "content-type": "text/plain" }, body: "x" }],
    ["body over 3 MiB (413)", WIDGETS, { method: "POST", headers: JSON_HEADERS, body: BIG }],
    ["PUT of a collection (400)", WIDGETS, { method: "PUT", headers: JSON_HEADERS, body: "{}" }],
    ["patch with a stale precondition (409)", `${WIDGETS}/w1`, { method: "PATCH", headers: { "content-type": "application/merge-patch+json" }, body: '{"metadata":{"resourceVersion":"1"}}' }],
    ["dry-run apply", `${WIDGETS}/w1?fieldManager=t&dryRun=All`, { method: "PATCH", headers: { "content-type": "application/apply-patch+yaml" }, body: "apiVersion: test.example.com/v1\nkind: Widget\nmetadata: {name: w1}\nspec: {count: 1}\n" }],
    ["delete of a missing object (404)", `${WIDGETS}/none`, { method: "DELETE" }],
    ["bad watch resourceVersion (500)", `${WIDGETS}?watch=1&resourceVersion=x`],
  ];
  for (const [name, path, init] of SAME) {
    it(`answers the same on both protocols: ${name}`, async () => {
      const [a, b] = [await client("h2").request(path, init), await client("http/1.1").request(path, init)];
      // Each answer has its own audit ID (a UUID); the rest of the headers must be the same.
      const strip = (r: ProtoResponse) => {
        const { "audit-id": auditId, ...headers } = r.headers;
        assert.match(String(auditId), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        return { status: r.status, headers, text: r.text.replace(/"(creationTimestamp|time)":"[^"]*"/g, '"$1":"T"') };
      };
      assert.deepEqual(strip(a), strip(b));
      assert.notEqual(a.status, 0);
    });
  }

  it("creates, patches, applies and deletes over HTTP/2 as over HTTP/1.1", async () => {
    const norm = (r: ProtoResponse, name: string) =>
      r.text
        .replaceAll(name, "NAME")
        .replace(/"(creationTimestamp|time|deletionTimestamp)":"[^"]*"/g, '"$1":"T"')
        .replace(/"uid":"[^"]*"/g, '"uid":"U"')
        .replace(/"resourceVersion":"\d+"/g, '"resourceVersion":"RV"');
    const steps = (name: string): Array<[string, { method?: string; headers?: Record<string, string>; body?: string }]> => [
      [WIDGETS, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(widget(name, { count: 1 })) }],
      [`${WIDGETS}/${name}`, { method: "PATCH", headers: { "content-type": "application/merge-patch+json" }, body: '{"spec":{"color":"blue"}}' }],
      [`${WIDGETS}/${name}/status`, { method: "PATCH", headers: { "content-type": "application/merge-patch+json" }, body: '{"status":{"replicas":3}}' }],
      [`${WIDGETS}/${name}?fieldManager=m`, { method: "PATCH", headers: { "content-type": "application/apply-patch+yaml" }, body: `apiVersion: test.example.com/v1\nkind: Widget\nmetadata: {name: ${name}}\nspec: {count: 5}\n` }],
      [`${WIDGETS}/${name}`, { method: "DELETE" }],
    ];
    const h2 = client("h2");
    const h1 = client("http/1.1");
    const a = steps("via-h2");
    const b = steps("via-h1");
    for (let i = 0; i < a.length; i++) {
      const x = await h2.request(a[i]![0], a[i]![1]);
      const y = await h1.request(b[i]![0], b[i]![1]);
      assert.equal(x.status, y.status, `step ${i}: ${x.text}`);
      // The same headers but the length (the names differ) and each answer's own audit ID.
      assert.deepEqual(x.headers, { ...y.headers, "content-length": x.headers["content-length"]!, "audit-id": x.headers["audit-id"]! }, `step ${i}`);
      assert.notEqual(x.headers["audit-id"], y.headers["audit-id"], `step ${i}`);
      assert.equal(norm(x, "via-h2"), norm(y, "via-h1"), `step ${i}`);
    }
  });

  it("declares the length of a JSON answer over 4 KiB on HTTP/1.1 only (x/net/http2 sends such a body without)", async () => {
    const h1 = client("http/1.1");
    const h2 = client("h2");
    assert.equal((await h1.request(WIDGETS, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(widget("long", { color: "c".repeat(5000) })) })).status, 201);
    const [a, b] = [await h2.request(`${WIDGETS}/long`), await h1.request(`${WIDGETS}/long`)];
    assert.equal(a.text, b.text);
    assert.ok(a.body.length > 4096);
    assert.equal(a.headers["content-length"], undefined);
    assert.equal(b.headers["content-length"], String(b.body.length));
    const small = await h2.request(`${WIDGETS}/w1`);
    assert.equal(small.headers["content-length"], String(small.body.length));
  });

  it("answers Expect: 100-continue on HTTP/2 and serves other expectations (x/net/http2 ignores them)", async () => {
    const c = h2Client(t.server.url, t.ca);
    clients.push(c);
    const r = await new Promise<{ continued: boolean; status: number }>((resolve, reject) => {
      const s = c.session.request({ ":method": "POST", ":path": WIDGETS, "content-type": "application/json", expect: "100-continue" });
      let continued = false;
      s.on("continue", () => {
        continued = true;
        s.end(JSON.stringify(widget("expects", { count: 1 })));
      });
      s.on("response", (h) => resolve({ continued, status: Number(h[":status"]) }));
      s.on("error", reject);
      s.resume();
    });
    assert.deepEqual(r, { continued: true, status: 201 });
    const other = await c.request(`${WIDGETS}/expects`, { headers: { expect: "something" } });
    assert.equal(other.status, 200);
    // HTTP/1.1 answers an unknown expectation 417, as Go's server does.
    assert.equal((await client("http/1.1").request(`${WIDGETS}/expects`, { headers: { expect: "something" } })).status, 417);
  });

  it("applies the loopback Host check to :authority", async () => {
    const c = h2Client(t.server.url, t.ca);
    clients.push(c);
    const r = await c.request("/version", { headers: { ":authority": "evil.example:443" } });
    assert.equal(r.status, 403);
    assert.match(r.text, /crdkit: Host \\"evil\.example:443\\" is not a loopback address/);
  });

  it("streams watch events as they happen and ends the watch when the client resets the stream", async () => {
    const c = h2Client(t.server.url, t.ca);
    clients.push(c);
    const ua = "watch-reset-test";
    const stream = c.session.request({ ":path": `${WIDGETS}?watch=1&resourceVersion=0`, "user-agent": ua });
    let text = "";
    let head: Record<string, unknown> | undefined;
    stream.setEncoding("utf8");
    stream.on("response", (h) => {
      head = h;
    });
    stream.on("data", (d: string) => {
      text += d;
    });
    const closed = new Promise<number>((resolve) => stream.on("close", () => resolve(stream.rstCode ?? -1)));
    stream.on("error", () => {});
    await until(() => text.includes('"name":"w1"'), "the synthetic ADDED event");
    assert.equal(head?.[":status"], 200);
    assert.equal(head?.["content-type"], "application/json");
    assert.equal(head?.["transfer-encoding"], undefined);
    const h1 = client("http/1.1");
    assert.equal((await h1.request(WIDGETS, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(widget("watched", { count: 1 })) })).status, 201);
    await until(() => /"type":"ADDED","object":\{[^\n]*"name":"watched"/.test(text), "the ADDED event of a new object");
    assert.equal(logs.some((r) => r["userAgent"] === ua), false);
    stream.close(constants.NGHTTP2_CANCEL);
    assert.equal(await closed, constants.NGHTTP2_CANCEL);
    // The handler returns (its request is logged) once the watch is released.
    await until(() => logs.some((r) => r["userAgent"] === ua), "the watch handler to end");
    assert.equal(logs.find((r) => r["userAgent"] === ua)?.["protocol"], "HTTP/2.0");
  });

  it("ends a watch at timeoutSeconds with the end of the stream", async () => {
    const c = h2Client(t.server.url, t.ca);
    clients.push(c);
    const r = await c.request(`${WIDGETS}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dw1`);
    assert.equal(r.status, 200);
    assert.match(r.text, /^\{"type":"ADDED","object":\{.*"name":"w1".*\}\}\n$/);
  });

  it("advertises Kubernetes' HTTP/2 settings", async () => {
    const c = h2Client(t.server.url, t.ca);
    clients.push(c);
    // A request's answer comes after the server's SETTINGS frame.
    assert.equal((await c.request("/version")).status, 200);
    const settings: Record<string, unknown> = { ...c.session.remoteSettings };
    assert.equal(settings["maxConcurrentStreams"], 100);
    assert.equal(settings["maxFrameSize"], 256 * 1024);
    assert.equal(settings["initialWindowSize"], 256 * 1024);
    assert.equal(settings["maxHeaderListSize"], (1 << 20) + 320);
  });

  it("survives a rapid-reset flood and keeps serving", async () => {
    const c = h2Client(t.server.url, t.ca);
    clients.push(c);
    let errors = 0;
    for (let i = 0; i < 3000 && !c.session.destroyed && !c.session.closed; i++) {
      try {
        const s = c.session.request({ ":path": `${WIDGETS}/w1` });
        s.on("error", () => errors++);
        s.close(constants.NGHTTP2_CANCEL);
      } catch {
        break;
      }
    }
    // Whatever became of that connection, the server answers a new one.
    const fresh = h2Client(t.server.url, t.ca);
    clients.push(fresh);
    assert.equal((await fresh.request("/version")).status, 200);
    assert.ok(errors >= 0);
  });
});

describe("HTTP/2 serving options", () => {
  it("--http2-max-streams-per-connection is the advertised stream limit and bounds concurrent streams", async () => {
    const t = await startTlsServer({ http2: { maxStreamsPerConnection: 3 } });
    const c = h2Client(t.server.url, t.ca);
    try {
      const settings = await new Promise<Record<string, unknown>>((resolve) => c.session.once("remoteSettings", (s) => resolve({ ...s })));
      assert.equal(settings["maxConcurrentStreams"], 3);
      // Connection window: 256 KiB per stream (x/net/http2's MaxUploadBufferPerConnection).
      await until(() => c.session.state.remoteWindowSize === 3 * 256 * 1024, "the connection window update");
    } finally {
      c.close();
      await t.close();
    }
  });

  it("--disable-http2-serving offers http/1.1 only", async () => {
    const t = await startTlsServer({ http2: { disabled: true } });
    try {
      assert.equal(await negotiated(t.server.url, t.ca, ["h2", "http/1.1"]), "http/1.1");
      const c = h1Client(t.server.url, t.ca);
      try {
        assert.equal((await c.request("/version")).status, 200);
      } finally {
        c.close();
      }
      // An HTTP/2-only client cannot talk to it.
      await assert.rejects(
        new Promise((resolve, reject) => {
          const s = h2connect(t.server.url, { ca: t.ca });
          s.on("error", (e) => {
            s.destroy();
            reject(e);
          });
          s.on("connect", () => {
            s.destroy();
            resolve(undefined);
          });
        }),
      );
    } finally {
      await t.close();
    }
  });

  it("closes a connection idle for IdleTimeout with GOAWAY, not one with a stream open", async () => {
    const t = await startTlsServer({ http2: { idleTimeoutMs: 300 } });
    // The watching connection is opened first: were its timer left running, it would fire first.
    const watching = h2Client(t.server.url, t.ca);
    let idle: ReturnType<typeof h2Client> | undefined;
    try {
      let watchGoaway = false;
      watching.session.on("goaway", () => {
        watchGoaway = true;
      });
      const stream = watching.session.request({ ":path": "/api/v1/namespaces?watch=1" });
      let text = "";
      stream.setEncoding("utf8");
      stream.on("data", (d: string) => {
        text += d;
      });
      stream.on("error", () => {});
      await until(() => text.includes('"name":"default"'), "the watch's first events");
      idle = h2Client(t.server.url, t.ca);
      const goaway = new Promise<number>((resolve) => idle!.session.on("goaway", (code) => resolve(code)));
      assert.equal((await idle.request("/version")).status, 200);
      assert.equal(await goaway, constants.NGHTTP2_NO_ERROR);
      await until(() => idle!.session.closed || idle!.session.destroyed, "the idle connection to close");
      assert.equal(watchGoaway, false);
      assert.equal(watching.session.closed, false);
      stream.close(constants.NGHTTP2_CANCEL);
    } finally {
      idle?.close();
      watching.close();
      await t.close();
    }
  });

  it("shutdown sends GOAWAY and lets an in-flight watch end its stream cleanly", async () => {
    const t = await startTlsServer();
    const c = h2Client(t.server.url, t.ca);
    try {
      const stream = c.session.request({ ":path": "/api/v1/namespaces?watch=1" });
      let text = "";
      stream.setEncoding("utf8");
      stream.on("data", (d: string) => {
        text += d;
      });
      const ended = new Promise<string>((resolve) => {
        stream.on("end", () => resolve("end"));
        stream.on("error", (e) => resolve(`error ${e.message}`));
      });
      const goaway = new Promise<number>((resolve) => c.session.on("goaway", (code) => resolve(code)));
      await until(() => text.includes('"name":"default"'), "the watch's first events");
      await t.close();
      assert.equal(await goaway, constants.NGHTTP2_NO_ERROR);
      assert.equal(await ended, "end");
    } finally {
      c.close();
      await t.close();
    }
  });
});
