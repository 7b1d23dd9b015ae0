/**
 * A real HTTPS conversion webhook for tests: converts `Gadget` objects between v1beta1 (`spec.count`) and
 * v1 (`spec.replicas`), records every review it receives, and can be told to misbehave (`mode`).
 */
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { generateCa, generateServingCert, type KeyPair } from "../../src/server/auth/pki.js";

export type WebhookMode =
  | "ok"
  | "fail"
  | "fail-to-v1beta1"
  | "fail-no-message"
  | "wrong-uid"
  | "two-objects"
  | "rename"
  | "relabel"
  | "bad-label"
  | "touch-metadata"
  | "wrong-version"
  | "wrong-kind"
  | "text-500"
  | "status-403"
  | "empty-200"
  | "not-json"
  | "v1beta1-answer"
  | "hang";

// biome-ignore lint/suspicious/noExplicitAny: reviews are JSON of any shape
export type Review = any;

export interface ConversionWebhook {
  url: string;
  port: number;
  /** The CA that signed the webhook's certificate (PEM), for `caBundle`. */
  ca: KeyPair;
  caBundle: string;
  mode: WebhookMode;
  reviews: Review[];
  close(): Promise<void>;
}

/** Converts one Gadget to `desired` the way the webhook does in mode "ok". */
// biome-ignore lint/suspicious/noExplicitAny: objects are JSON of any shape
function convertGadget(obj: any, desired: string): any {
  const out = structuredClone(obj);
  out.apiVersion = desired;
  const spec = out.spec ?? {};
  if (desired.endsWith("/v1")) {
    if ("count" in spec) {
      spec.replicas = spec.count;
      delete spec.count;
    }
  } else if ("replicas" in spec) {
    spec.count = spec.replicas;
    delete spec.replicas;
  }
  return out;
}

/** Starts the webhook on a free loopback port with a certificate for `hosts`, signed by a fresh CA. */
export async function startConversionWebhook(hosts: readonly string[] = ["127.0.0.1", "localhost"]): Promise<ConversionWebhook> {
  const ca = await generateCa("test-webhook-ca");
  const serving = await generateServingCert(ca, hosts);
  const hanging = new Set<() => void>();
  const hook: ConversionWebhook = {
    url: "",
    port: 0,
    ca,
    caBundle: Buffer.from(ca.cert).toString("base64"),
    mode: "ok",
    reviews: [],
    close: async () => {},
  };
  const server: Server = createServer({ cert: serving.cert, key: serving.key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      // A request that is not a review is answered 400 (a throw here would crash the test process instead).
      let review: ReturnType<typeof JSON.parse>;
      try {
        review = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch (e) {
        res.writeHead(400, { "Content-Type": "text/plain" });
        res.end(`not JSON: ${String(e)}`);
        return;
      }
      hook.reviews.push(review);
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(body));
      };
      const request = review.request;
      const converted = request.objects.map((o: unknown) => convertGadget(o, request.desiredAPIVersion));
      const answer = (response: Record<string, unknown>) => json(200, { apiVersion: review.apiVersion, kind: "ConversionReview", response });
      const success = { uid: request.uid, result: { status: "Success" }, convertedObjects: converted };
      switch (hook.mode) {
        case "ok":
          return answer(success);
        case "fail":
          return answer({ uid: request.uid, result: { status: "Failure", message: "gadgets cannot be converted today" } });
        case "fail-to-v1beta1":
          if (!String(request.desiredAPIVersion).endsWith("/v1beta1")) return answer(success);
          return answer({ uid: request.uid, result: { status: "Failure", message: "no way back to v1beta1" } });
        case "fail-no-message":
          return answer({ uid: request.uid, result: { status: "Failure" } });
        case "wrong-uid":
          return answer({ ...success, uid: "not-the-request-uid" });
        case "two-objects":
          return answer({ ...success, convertedObjects: [...converted, ...converted] });
        case "rename":
          converted[0].metadata.name = "someone-else";
          return answer(success);
        case "relabel":
          converted[0].metadata.labels = { converted: "yes" };
          converted[0].metadata.generation = 99;
          return answer(success);
        case "bad-label":
          converted[0].metadata.labels = { "bad key!": "x" };
          return answer(success);
        case "touch-metadata":
          converted[0].metadata.generation = 42;
          converted[0].metadata.finalizers = ["example.com/added-by-webhook"];
          return answer(success);
        case "wrong-version":
          converted[0].apiVersion = "conv.example.com/v9";
          return answer(success);
        case "wrong-kind":
          converted[0].kind = "Gizmo";
          return answer(success);
        case "text-500":
          res.writeHead(500, { "Content-Type": "text/plain" });
          return res.end("boom\n");
        case "status-403":
          return json(403, { kind: "Status", apiVersion: "v1", status: "Failure", message: "webhook says no", code: 403 });
        case "empty-200":
          res.writeHead(200, { "Content-Type": "application/json" });
          return res.end();
        case "not-json":
          res.writeHead(200, { "Content-Type": "application/json" });
          return res.end("{not json");
        case "v1beta1-answer":
          return json(200, { apiVersion: "apiextensions.k8s.io/v1beta1", kind: "ConversionReview", response: success });
        case "hang":
          hanging.add(() => res.destroy());
          return;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  hook.port = (server.address() as AddressInfo).port;
  hook.url = `https://127.0.0.1:${hook.port}/convert`;
  hook.close = async () => {
    for (const h of hanging) h();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return hook;
}
