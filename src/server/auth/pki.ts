/**
 * X.509 certificates for `crdkit serve` (node-forge; RSA keys from node:crypto): a self-signed CA, serving
 * certificates with DNS/IP subject alternative names, and client certificates (CN = user, O = groups).
 */
import { createPrivateKey, createSign, generateKeyPair, randomBytes } from "node:crypto";
import { promisify } from "node:util";
import { isIP } from "node:net";
import forge from "node-forge";

/** A certificate and its private key, PEM-encoded. */
export interface KeyPair {
  cert: string;
  key: string;
}

const DAY_MS = 86_400_000;

/** A subject attribute as UTF8String (forge's default PrintableString cannot hold `:` or `@`). */
function attr(name: string, value: string): forge.pki.CertificateField {
  return { name, value, valueTagClass: forge.asn1.Type.UTF8 } as unknown as forge.pki.CertificateField;
}

const generateKeyPairAsync = promisify(generateKeyPair);

/** An RSA 2048 key, generated off the event loop (it takes ~1 s of CPU). */
async function newKey(): Promise<{ pem: string; pub: forge.pki.PublicKey }> {
  const { privateKey, publicKey } = await generateKeyPairAsync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  return { pem, pub: forge.pki.publicKeyFromPem(publicKey.export({ type: "spki", format: "pem" }).toString()) };
}

/**
 * A certificate serial number (hex) from random bytes: positive and minimally encoded, as DER requires. The first
 * byte is 0x01–0x7f: a clear top bit keeps the INTEGER positive, and a non-zero byte keeps it minimal (forge writes
 * the bytes as given, and OpenSSL refuses a certificate whose serial starts with a needless 0x00: "illegal padding").
 */
export function certSerial(random: Buffer): string {
  const serial = Buffer.from(random);
  serial[0] = 1 + (serial[0]! % 127);
  return serial.toString("hex");
}

function baseCert(pub: forge.pki.PublicKey, days: number): forge.pki.Certificate {
  const c = forge.pki.createCertificate();
  c.publicKey = pub;
  c.serialNumber = certSerial(randomBytes(16));
  const now = Date.now();
  c.validity.notBefore = new Date(now - 60_000);
  c.validity.notAfter = new Date(now + days * DAY_MS);
  return c;
}

/** Signs with node:crypto (forge builds the TBSCertificate; its pure-JS RSA would take seconds). */
function sign(c: forge.pki.Certificate, issuerKeyPem: string): string {
  const oid = forge.pki.oids["sha256WithRSAEncryption"]!;
  const info = c as unknown as { siginfo: { algorithmOid: string }; signatureOid: string; signature: string };
  info.siginfo.algorithmOid = oid;
  info.signatureOid = oid;
  const getTbs = (forge.pki as unknown as { getTBSCertificate(c: forge.pki.Certificate): forge.asn1.Asn1 }).getTBSCertificate;
  const tbs = forge.asn1.toDer(getTbs(c)).getBytes();
  const signer = createSign("sha256");
  signer.update(Buffer.from(tbs, "binary"));
  info.signature = signer.sign(createPrivateKey(issuerKeyPem)).toString("binary");
  return forge.pki.certificateToPem(c);
}

/** A self-signed CA (10 years). */
export async function generateCa(commonName: string): Promise<KeyPair> {
  const k = await newKey();
  const c = baseCert(k.pub, 3650);
  const subject = [attr("commonName", commonName)];
  c.setSubject(subject);
  c.setIssuer(subject);
  c.setExtensions([
    { name: "basicConstraints", cA: true, critical: true },
    { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  return { cert: sign(c, k.pem), key: k.pem };
}

async function issue(ca: KeyPair, subject: forge.pki.CertificateField[], extensions: object[], days: number): Promise<KeyPair> {
  const caCert = forge.pki.certificateFromPem(ca.cert);
  const k = await newKey();
  const c = baseCert(k.pub, days);
  c.setSubject(subject);
  c.setIssuer(caCert.subject.attributes);
  c.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, keyEncipherment: true, critical: true },
    ...extensions,
    { name: "authorityKeyIdentifier", keyIdentifier: caCert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  return { cert: sign(c, ca.key), key: k.pem };
}

/** A serving certificate for `hosts` (DNS names and IP addresses), signed by `ca` (1 year). */
export function generateServingCert(ca: KeyPair, hosts: readonly string[]): Promise<KeyPair> {
  const altNames = [...new Set(hosts)].map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h }));
  return issue(
    ca,
    [attr("commonName", "crdkit-serving")],
    [{ name: "extKeyUsage", serverAuth: true }, { name: "subjectAltName", altNames }],
    365,
  );
}

/** A client certificate for user `commonName` in `groups` (O), signed by `ca` (1 year). */
export function generateClientCert(ca: KeyPair, commonName: string, groups: readonly string[]): Promise<KeyPair> {
  const subject: forge.pki.CertificateField[] = [
    ...groups.map((g) => attr("organizationName", g)),
    attr("commonName", commonName),
  ];
  return issue(ca, subject, [{ name: "extKeyUsage", clientAuth: true }], 365);
}
