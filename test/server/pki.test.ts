import { test } from "node:test";
import assert from "node:assert/strict";
import { X509Certificate } from "node:crypto";
import { createSecureContext } from "node:tls";
import { certSerial, generateCa, generateClientCert, generateServingCert } from "../../src/server/auth/pki.js";

test("certSerial: positive and minimally encoded for every first byte, zeros after it too", () => {
  for (let first = 0; first < 256; first++) {
    for (const rest of [0x00, 0x12, 0x92]) {
      const random = Buffer.alloc(16, rest);
      random[0] = first;
      const hex = certSerial(random);
      assert.equal(hex.length, 32);
      const lead = parseInt(hex.slice(0, 2), 16);
      // DER INTEGER: a leading 0x00 is padding (refused by OpenSSL unless the next byte's top bit is set) and a
      // set top bit is a negative number; neither may appear.
      assert.ok(lead >= 0x01 && lead <= 0x7f, `first byte ${first}: serial ${hex}`);
    }
  }
  const random = Buffer.alloc(16);
  certSerial(random);
  assert.deepEqual(random, Buffer.alloc(16), "the random bytes are not changed");
});

test("a CA, a serving and a client certificate load in OpenSSL and chain to the CA", async () => {
  const ca = await generateCa("crdkit-ca");
  const serving = await generateServingCert(ca, ["localhost", "127.0.0.1"]);
  const client = await generateClientCert(ca, "jane", ["devs", "system:masters"]);
  const caX = new X509Certificate(ca.cert);
  assert.equal(caX.ca, true);
  for (const pair of [ca, serving, client]) {
    const x = new X509Certificate(pair.cert);
    assert.equal(x.serialNumber.length, 32, "16 bytes, no padding");
    assert.ok(x.verify(caX.publicKey));
    assert.doesNotThrow(() => createSecureContext({ cert: pair.cert, key: pair.key }));
  }
  const s = new X509Certificate(serving.cert);
  assert.equal(s.subjectAltName, "DNS:localhost, IP Address:127.0.0.1");
  assert.ok(s.checkIssued(caX));
  assert.equal(new X509Certificate(client.cert).subject, "O=devs\nO=system:masters\nCN=jane");
});
