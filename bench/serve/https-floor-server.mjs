/**
 * The floor under any Node server on this machine: a bare node:https server (HTTP/1.1, keep-alive) that reads
 * each request's body and answers a fixed JSON object of a CronTab's size (201 to a POST, 200 otherwise,
 * `ok` to /readyz) — no routing, decoding, storage or validation. etcd-vs-k8s.bench.ts's `--variants=floor`
 * runs it beside the real servers: its requests/s over the real server's are the most a single Node process
 * speaking HTTPS can reach against it here, what crdkit's ratios can be read against.
 *
 *   node bench/serve/https-floor-server.mjs PORT CERT KEY
 */
import { readFileSync } from "node:fs";
import { createSecureServer } from "node:http2";

const [port, cert, key] = process.argv.slice(2);
/** About the size of crdkit's answer for the bench's CronTab (metadata with managedFields included). */
const object = {
  apiVersion: "stable.example.com/v1",
  kind: "CronTab",
  metadata: {
    name: "ct-0",
    namespace: "default",
    uid: "6f1d3c2e-5b8a-4c71-9a0e-2d4f6b8c0a13",
    resourceVersion: "123456",
    generation: 1,
    creationTimestamp: "2026-11-28T00:00:00Z",
    managedFields: [
      { manager: "undici", operation: "Update", apiVersion: "stable.example.com/v1", time: "2026-11-28T00:00:00Z", fieldsType: "FieldsV1", fieldsV1: { "f:spec": { ".": {}, "f:cronSpec": {}, "f:image": {}, "f:replicas": {} } } },
    ],
  },
  spec: { cronSpec: "* * * * */5", image: "my-awesome-cron-image", replicas: 1 },
};
const body = `${JSON.stringify(object)}\n`;
// HTTP/2 and HTTP/1.1 by ALPN on one TLS port, as crdkit serves them (its HTTP/1.1 answers take the same path).
const server = createSecureServer({ cert: readFileSync(cert), key: readFileSync(key), allowHTTP1: true, ALPNProtocols: ["h2", "http/1.1"] }, (req, res) => {
  req.on("data", () => {});
  req.on("end", () => {
    if (req.url === "/readyz") return void res.end("ok");
    res.writeHead(req.method === "POST" ? 201 : 200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
    res.end(body);
  });
});
server.listen(Number(port), "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
