/** `crdkit serve` command line: usage errors, help, start and graceful stop, JSON logs. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runServe } from "../../src/cli/serve.js";
import { listeningUrl } from "./listening.js";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (t: string) => void out.push(t), stderr: (t: string) => void err.push(t) }, out, err };
}

describe("runServe", () => {
  const usage: [string[], string][] = [
    [["--bogus"], 'crdkit serve: unknown flag "--bogus"'],
    [["--listen", "8080"], 'crdkit serve: invalid --listen address "8080": want HOST:PORT'],
    [["--listen", "127.0.0.1:99999"], 'crdkit serve: invalid --listen address "127.0.0.1:99999": want HOST:PORT'],
    [["--data"], "crdkit serve: flag --data needs a directory"],
    [["--disable-http2-serving=yes"], 'crdkit serve: invalid argument "yes" for "--disable-http2-serving" flag: want true or false'],
    [["--http2-max-streams-per-connection", "many"], 'crdkit serve: invalid argument "many" for "--http2-max-streams-per-connection" flag: want an integer'],
    [["--http2-max-streams-per-connection"], 'crdkit serve: invalid argument "" for "--http2-max-streams-per-connection" flag: want an integer'],
  ];
  for (const [args, msg] of usage) {
    it(`rejects ${args.join(" ")}`, async () => {
      const c = capture();
      assert.equal(await runServe(args, c.io), 2);
      assert.equal(c.err.join("").split("\n")[0], msg);
    });
  }

  it("prints help", async () => {
    const c = capture();
    assert.equal(await runServe(["--help"], c.io), 0);
    assert.match(c.out.join(""), /^Usage: crdkit serve \[--data DIR\] \[--listen HOST:PORT\]/);
  });

  it("starts, serves, logs JSON lines and stops gracefully", async () => {
    const c = capture();
    const ac = new AbortController();
    const done = runServe(["--listen", "127.0.0.1:0"], c.io, ac.signal);
    try {
      const url = await listeningUrl(c.out, done, c.err);
      const v = await fetch(`${url}/version`);
      assert.equal(v.status, 200);
    } finally {
      ac.abort();
    }
    assert.equal(await done, 0);
    const logs = c.err.join("").trim().split("\n").map((l) => JSON.parse(l));
    assert.deepEqual(logs.map((l) => l.msg), ["security", "listening", "request", "stopped"]);
    // The first line says that a flagless loopback server is open.
    assert.equal(logs[0].summary, "no authentication or authorization (loopback only): every request is allowed");
    assert.equal(logs[2].path, "/version");
    assert.equal(logs[2].status, 200);
  });
});

describe("graceful shutdown", () => {
  it("ends open watches and closes the store", async () => {
    const { startServer } = await import("../../src/server/server.js");
    const s = await startServer({});
    const res = await fetch(`${s.url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=true`);
    assert.equal(res.status, 200);
    const body = res.text();
    await s.close();
    assert.equal(await body, "");
    await assert.rejects(s.store.get("/x"), /database connection is not open/);
  });
});
