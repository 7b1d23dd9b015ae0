import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { generateCa, generateServingCert } from "./pki.js";
import { isLoopback, setupSecurity } from "./security.js";

describe("setupSecurity", () => {
  const dir = mkdtempSync(join(tmpdir(), "crdkit-sec-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("loopback names", () => {
    assert.deepEqual(["127.0.0.1", "127.1.2.3", "::1", "localhost", "0.0.0.0", "10.0.0.1", "::"].map(isLoopback), [true, true, true, true, false, false, false]);
  });

  it("no flags on loopback: open, plain HTTP", async () => {
    const s = await setupSecurity({}, "127.0.0.1", undefined);
    assert.equal(s.tls, undefined);
    assert.equal(s.authenticator, undefined);
    assert.equal(s.summary, "no authentication or authorization (loopback only): every request is allowed");
  });

  it("a non-loopback address turns authentication and TLS on; the certificate covers the names", async () => {
    const data = join(dir, "wild");
    const s = await setupSecurity({}, "0.0.0.0", data);
    assert.ok(s.authenticator && s.tls?.requestCert);
    assert.equal(s.summary, "TLS, client certificates, anonymous refused, authorization AlwaysAllow");
    const c = new X509Certificate(s.tls.cert);
    for (const h of ["localhost", hostname()]) assert.equal(c.checkHost(h), h);
    for (const ip of ["127.0.0.1", "::1"]) assert.ok(c.checkIP(ip));
    assert.ok(existsSync(join(data, "pki", "ca.key")));
    // Reused on restart.
    const again = await setupSecurity({ anonymousAuth: true }, "0.0.0.0", data);
    assert.equal(again.tls?.cert, s.tls.cert);
    assert.deepEqual(again.warnings, ["--anonymous-auth=true with --authorization-mode=AlwaysAllow: requests without credentials may do everything"]);
  });

  it("refuses mismatched or unreadable certificate files with a clear message", async () => {
    const a = await generateCa("a");
    const b = await generateServingCert(a, ["localhost"]);
    writeFileSync(join(dir, "s.crt"), b.cert);
    writeFileSync(join(dir, "other.key"), a.key);
    writeFileSync(join(dir, "junk.pem"), "not a certificate");
    await assert.rejects(setupSecurity({ tlsCertFile: join(dir, "s.crt"), tlsPrivateKeyFile: join(dir, "other.key") }, "127.0.0.1", undefined), {
      message: "unable to load server certificate: tls: private key does not match public key",
    });
    await assert.rejects(setupSecurity({ clientCaFile: join(dir, "junk.pem") }, "127.0.0.1", undefined), {
      message: `unable to load client CA file ${JSON.stringify(join(dir, "junk.pem"))}: data does not contain any valid certificates`,
    });
    // A given certificate on loopback without auth flags: TLS, still open.
    writeFileSync(join(dir, "s.key"), b.key);
    const s = await setupSecurity({ tlsCertFile: join(dir, "s.crt"), tlsPrivateKeyFile: join(dir, "s.key") }, "127.0.0.1", undefined);
    assert.equal(s.tls?.requestCert, false);
    assert.equal(s.authenticator, undefined);
  });
});
