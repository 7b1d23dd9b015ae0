/**
 * The cipher suite `crdkit serve` negotiates over TLS is the one Go's crypto/tls server (kube-apiserver) picks:
 * its own preference AES-128-GCM, AES-256-GCM, ChaCha20 for TLS 1.3, ChaCha20 first for a client that lists it
 * first, and ECDHE with AES-128-GCM for TLS 1.2 (src/server/auth/tls-cipher-order.ts). The three handshakes
 * below were checked against the real apiextensions-apiserver (tools/k8s-server-oracle): TLS_AES_128_GCM_SHA256,
 * TLS_CHACHA20_POLY1305_SHA256, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { connect, type ConnectionOptions } from "node:tls";
import { goCipherOrder } from "../../src/server/auth/tls-cipher-order.js";
import { type RunningServer, startServer } from "../../src/server/server.js";

describe("TLS cipher order (Go's server preference)", () => {
  let dir: string;
  let s: RunningServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "crdkit-tls-order-"));
    writeFileSync(join(dir, "tokens.csv"), "tok,admin,1,system:masters\n");
    s = await startServer({ security: { tokenAuthFile: join(dir, "tokens.csv") }, ui: false });
  });
  after(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The protocol and cipher a handshake with these client options ends with. */
  function negotiate(opts: ConnectionOptions): Promise<{ protocol: string | null; cipher: string }> {
    return new Promise((resolve, reject) => {
      const sock = connect({ host: "127.0.0.1", port: s.port, servername: "localhost", ca: s.security.trustedCa, ...opts }, () => {
        const out = { protocol: sock.getProtocol(), cipher: sock.getCipher().standardName };
        // No HTTP request on it: destroyed, so the server's close does not wait for it.
        sock.destroy();
        resolve(out);
      });
      sock.on("error", reject);
    });
  }

  it("TLS 1.3: AES-128-GCM for a client that prefers AES-256-GCM (Node's own clients)", async () => {
    // Node's default client list starts with TLS_AES_256_GCM_SHA384.
    assert.deepEqual(await negotiate({}), { protocol: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256" });
    assert.deepEqual(await negotiate({ ciphers: "TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256" }), { protocol: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256" });
  });

  it("TLS 1.3: a suite the client alone offers; ChaCha20 for a client that lists it first", async () => {
    assert.equal((await negotiate({ ciphers: "TLS_AES_256_GCM_SHA384" })).cipher, "TLS_AES_256_GCM_SHA384");
    assert.equal((await negotiate({ ciphers: "TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384" })).cipher, "TLS_CHACHA20_POLY1305_SHA256");
  });

  it("TLS 1.2: ECDHE with AES-128-GCM, whatever the client lists first", async () => {
    const r = await negotiate({ maxVersion: "TLSv1.2", ciphers: "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256" });
    assert.equal(r.protocol, "TLSv1.2");
    assert.match(r.cipher, /^TLS_ECDHE_(ECDSA|RSA)_WITH_AES_128_GCM_SHA256$/);
  });

  it("keeps the TLS 1.2 part of the given default list and puts Go's TLS 1.3 order first", () => {
    const o = goCipherOrder("TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256:ECDHE-RSA-AES128-GCM-SHA256:HIGH:!aNULL");
    assert.equal(o.ciphers, "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:ECDHE-RSA-AES128-GCM-SHA256:HIGH:!aNULL");
    assert.equal(o.honorCipherOrder, true);
  });
});
