/** `crdkit serve --service-endpoint`: parsing and the service resolver it builds. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ServiceEndpoint, serviceResolverOf, setWebhookFlag } from "../../src/cli/webhook-flags.js";

describe("--service-endpoint", () => {
  it("maps services (a port-specific mapping first) and falls back to the cluster DNS name", () => {
    const eps: ServiceEndpoint[] = [];
    assert.equal(setWebhookFlag(eps, "webhooks/conv=127.0.0.1:9443"), undefined);
    assert.equal(setWebhookFlag(eps, "webhooks/conv:8443=[::1]:7443"), undefined);
    const resolve = serviceResolverOf(eps)!;
    assert.deepEqual(resolve("webhooks", "conv", 443), { host: "127.0.0.1", port: 9443 });
    assert.deepEqual(resolve("webhooks", "conv", 8443), { host: "::1", port: 7443 });
    assert.deepEqual(resolve("other", "conv", 443), { host: "conv.other.svc", port: 443 });
    assert.equal(serviceResolverOf([]), undefined);
  });

  it("refuses malformed values", () => {
    for (const bad of [undefined, "", "conv=1.2.3.4:1", "ns/conv", "ns/conv=host", "ns/conv=host:0", "ns/conv:70000=h:1", "NS/conv=h:1"]) {
      assert.equal(setWebhookFlag([], bad), `invalid --service-endpoint ${JSON.stringify(bad ?? "")}: want NAMESPACE/NAME[:PORT]=HOST:PORT`, String(bad));
    }
  });
});
