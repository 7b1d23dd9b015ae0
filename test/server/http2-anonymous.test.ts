/**
 * kube-apiserver's `UnauthenticatedHTTP2DOSMitigation` (on by default since 1.29): an HTTP/2 connection whose
 * request has no valid credentials — answered 401, or served as `system:anonymous` — serves that request and
 * is then ended with GOAWAY (NO_ERROR), as Go's server treats a handler's `Connection: close`; authenticated
 * clients keep their connection, and HTTP/1.1 keeps alive either way.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { type ClientHttp2Session, connect as h2connect } from "node:http2";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { startTlsServer } from "./proto-client.js";

const TOKEN = "s3cr3t-token";

/** One request on `session`; resolves with the status (rejects when the stream fails). */
function h2Get(session: ClientHttp2Session, path: string, token?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const st = session.request({ ":path": path, ...(token ? { authorization: `Bearer ${token}` } : {}) });
    let status = 0;
    st.on("response", (h) => {
      status = Number(h[":status"]);
    });
    st.on("data", () => {});
    st.on("end", () => resolve(status));
    st.on("error", reject);
    st.end();
  });
}

/** Opens a session, sends one request, and reports its status and whether the server said GOAWAY (and its code). */
async function oneRequest(url: string, ca: string, token?: string): Promise<{ status: number; goaway: number | undefined; closed: boolean; session: ClientHttp2Session }> {
  const session = h2connect(url, { ca });
  session.on("error", () => {});
  let goaway: number | undefined;
  session.on("goaway", (code: number) => {
    goaway = code;
  });
  const closed = new Promise<boolean>((resolve) => session.once("close", () => resolve(true)));
  const status = await h2Get(session, "/version", token);
  // The GOAWAY, if any, was sent before the answer's frames; give the close a bounded moment.
  const wasClosed = goaway !== undefined ? await Promise.race([closed, new Promise<boolean>((r) => setTimeout(() => r(false), 5000))]) : false;
  return { status, goaway, closed: wasClosed, session };
}

describe("HTTP/2 connections of unauthenticated clients end after one request (UnauthenticatedHTTP2DOSMitigation)", () => {
  let t: Awaited<ReturnType<typeof startTlsServer>>;
  let dir: string;
  const sessions: ClientHttp2Session[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "crdkit-h2-anon-"));
    writeFileSync(join(dir, "tokens.csv"), `${TOKEN},alice,uid-1,"system:masters"\n`);
    t = await startTlsServer({ logRequests: false, security: { tokenAuthFile: join(dir, "tokens.csv"), anonymousAuth: true } });
  });
  after(async () => {
    for (const s of sessions) s.destroy();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("serves an anonymous request, then GOAWAY with NO_ERROR and the connection closes", async () => {
    const r = await oneRequest(t.server.url, t.ca);
    sessions.push(r.session);
    assert.equal(r.status, 200);
    assert.equal(r.goaway, 0);
    assert.equal(r.closed, true);
  });

  it("answers a request with a wrong token 401, then GOAWAY", async () => {
    const r = await oneRequest(t.server.url, t.ca, "wrong-token");
    sessions.push(r.session);
    assert.equal(r.status, 401);
    assert.equal(r.goaway, 0);
    assert.equal(r.closed, true);
  });

  it("keeps an authenticated client's connection for later requests", async () => {
    const r = await oneRequest(t.server.url, t.ca, TOKEN);
    sessions.push(r.session);
    assert.equal(r.status, 200);
    assert.equal(r.goaway, undefined);
    assert.equal(await h2Get(r.session, "/version", TOKEN), 200);
    assert.equal(await h2Get(r.session, "/version", TOKEN), 200);
    assert.equal(r.goaway, undefined);
    assert.equal(r.session.closed, false);
  });

  it("leaves HTTP/1.1 keep-alive alone for anonymous requests", async () => {
    const { status, connection } = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      // node:https offers no ALPN, so the server speaks HTTP/1.1.
      const req = httpsRequest(`${t.server.url}/version`, { ca: t.ca, agent: false, headers: { connection: "keep-alive" } }, (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end();
    });
    assert.equal(status, 200);
    assert.equal(connection, "keep-alive");
  });
});
