/**
 * EtcdClient's watch streams and lifecycle against a gRPC server of the test's own: requests are encoded and
 * responses decoded, `cancel` answers CANCELLED and then ends the stream, an undecodable response fails the
 * stream (Internal, nothing delivered after it), calls after `close` fail as on a closed grpc-js channel (never
 * retried), bad servers and TLS files fail the constructor, and a process that uses a client ends by itself
 * (a call under way holds it, an idle client does not). The contract etcd-store.ts and etcd-watch-cache.ts rely
 * on, pinned for any change of the client's transport (session 28 tried one on a worker thread).
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import * as grpc from "@grpc/grpc-js";
import { EtcdClient, type WatchResponse } from "../../src/storage/etcd/etcd-client.js";
import { StoreUnavailableError } from "../../src/storage/types.js";
import { reapOnExit } from "../reap-children.js";
import { stopChild } from "../server/client.js";
import { etcdProtoRoot } from "./etcd-proto-schema.js";

const root = etcdProtoRoot();
const encode = (name: string, obj: object) => {
  const t = root.lookupType(`etcdserverpb.${name}`);
  return Buffer.from(t.encode(t.fromObject(obj)).finish());
};
const decode = (name: string, b: Buffer) => root.lookupType(`etcdserverpb.${name}`).toObject(root.lookupType(`etcdserverpb.${name}`).decode(b), { longs: Number });

/** What the Watch method answers to each request it reads: response bytes. */
let answer: (req: Record<string, unknown>) => Buffer[] = () => [];
const requests: Record<string, unknown>[] = [];

const watchMethod: grpc.MethodDefinition<Buffer, Buffer> = {
  path: "/etcdserverpb.Watch/Watch",
  requestStream: true,
  responseStream: true,
  requestSerialize: (b: Buffer) => b,
  requestDeserialize: (b: Buffer) => b,
  responseSerialize: (b: Buffer) => b,
  responseDeserialize: (b: Buffer) => b,
};

/** The events of `s` until it ends (grpc-js ends a failed stream after its error), in order (never throws in a handler). */
function record(s: ReturnType<EtcdClient["watchStream"]>): { events: string[]; data: WatchResponse[]; over: Promise<void> } {
  const events: string[] = [];
  const data: WatchResponse[] = [];
  const over = new Promise<void>((resolve) => {
    s.on("data", (r: WatchResponse) => {
      events.push("data");
      data.push(r);
    });
    s.on("error", (e: grpc.ServiceError) => {
      events.push(`error ${e.code} ${e.details}`);
    });
    s.on("end", () => {
      events.push("end");
      resolve();
    });
  });
  return { events, data, over };
}

/** `p`, or a rejection after 30 s (a stream that never ends fails the test instead of hanging it). */
function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 30_000);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Resolves once `f()` holds, polling; rejects after ~10 s. */
async function until(f: () => boolean, what: string): Promise<void> {
  for (let i = 0; !f(); i++) {
    if (i > 1000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("EtcdClient watch streams and lifecycle", () => {
  let server: grpc.Server;
  let url: string;
  let client: EtcdClient;

  before(async () => {
    server = new grpc.Server();
    server.addService(
      { Watch: watchMethod },
      {
        Watch: (call: grpc.ServerDuplexStream<Buffer, Buffer>) => {
          call.on("data", (b: Buffer) => {
            const req = decode("WatchRequest", b);
            requests.push(req);
            for (const res of answer(req)) call.write(res);
          });
          call.on("error", () => {});
          call.on("end", () => call.end());
        },
      },
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
    );
    url = `http://127.0.0.1:${port}`;
    client = new EtcdClient({ servers: [url] });
  });

  after(() => {
    client.close();
    server.forceShutdown();
  });

  it("writes encoded watch requests, decodes the responses, and answers a cancel with CANCELLED", async () => {
    answer = () => [encode("WatchResponse", { header: { revision: 5 }, watchId: 1, created: true })];
    requests.length = 0;
    const s = client.watchStream();
    const r = record(s);
    s.write({ create_request: { key: Buffer.from("/registry/a"), range_end: Buffer.from("/registry/b"), start_revision: 3 } });
    await until(() => r.data.length === 1, "the created response");
    assert.deepEqual(requests, [{ create_request: { key: Buffer.from("/registry/a"), range_end: Buffer.from("/registry/b"), start_revision: 3 } }]);
    assert.equal(r.data[0]!.created, true);
    assert.equal(r.data[0]!.header.revision, 5);
    s.cancel();
    await within(r.over, "the cancelled stream's end");
    assert.deepEqual(r.events, ["data", "error 1 Cancelled on client", "end"]);
  });

  it("fails a stream whose response is not a WatchResponse, as grpc-js does, and delivers nothing after it", async () => {
    answer = () => [Buffer.from([0x0a, 0xff, 0xff, 0xff]), encode("WatchResponse", { header: { revision: 6 }, created: true })];
    const s = client.watchStream();
    const r = record(s);
    s.write({ create_request: { key: Buffer.from("/registry/a") } });
    await within(r.over, "the stream's end");
    assert.equal(r.events.length, 2);
    assert.match(r.events[0]!, /^error 13 Response message parsing error: /);
    assert.equal(r.events[1], "end");
  });

  it("fails calls and streams made after close as grpc-js fails them on a closed channel (never retried)", async () => {
    const c = new EtcdClient({ servers: [url] });
    c.close();
    await assert.rejects(c.status(), (e: Error) => {
      assert.ok(!(e instanceof StoreUnavailableError));
      assert.equal(e.message, "rpc error: code = Undefined desc = Channel has been shut down");
      return true;
    });
    assert.throws(() => c.watchStream(), { message: "Channel has been shut down" });
  });

  it("checks the servers and TLS files in its constructor", () => {
    assert.throws(() => new EtcdClient({ servers: ["ftp://127.0.0.1:1"] }), { message: 'invalid etcd server URL "ftp://127.0.0.1:1/": want http or https' });
    assert.throws(() => new EtcdClient({ servers: ["https://127.0.0.1:1"], caFile: "/nonexistent/ca.crt" }), { code: "ENOENT" });
  });

  it("holds the process while a call is under way, and never when idle", async () => {
    // a process that is never closed: it prints its call's deadline error (the call held it) and then ends
    const script = [
      `import { EtcdClient } from ${JSON.stringify(new URL("../../src/storage/etcd/etcd-client.ts", import.meta.url).href)};`,
      `const c = new EtcdClient({ servers: ["http://127.0.0.1:1"] });`,
      `c.range({ key: Buffer.from("/x") }, Date.now() + 300).then(() => console.log("answered"), (e) => console.log(e.message));`,
    ].join("\n");
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"] });
    reapOnExit(child);
    // a process held forever is killed (exit code null: the assertion below fails)
    const killer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    try {
      let out = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stderr.on("data", (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
      assert.equal(code, 0, err);
      assert.equal(out, "request did not complete within requested timeout - context deadline exceeded\n");
    } finally {
      clearTimeout(killer);
      await stopChild(child, "SIGKILL");
    }
  });
});
