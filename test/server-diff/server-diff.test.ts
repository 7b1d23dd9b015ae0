/**
 * The server differential suite: replays the request sequences of `sequences/` against `crdkit serve` and
 * compares each normalised answer (status, the headers clients read, body; kubectl's exit code and output)
 * with the answer the real apiextensions-apiserver gave, recorded in test/golden/server by
 * `npm run golden:server`. A difference fails unless `known-differences.txt` lists it with its reason; a
 * listed difference that no longer occurs fails too, so that the list stays honest.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { loadSequences, REPO_ROOT, runSequence, type StepResult } from "./runner.js";
import { loadKnownDifferences } from "./known-differences.js";
import { startTlsServer } from "../server/proto-client.js";

const GOLDEN_DIR = join(REPO_ROOT, "test", "golden", "server");
const known = loadKnownDifferences();

for (const [name, seq] of loadSequences()) {
  describe(`server differential: ${name}`, () => {
    let server: RunningServer | undefined;
    let tls: Awaited<ReturnType<typeof startTlsServer>> | undefined;
    let actual: StepResult[] = [];
    const golden = JSON.parse(readFileSync(join(GOLDEN_DIR, `${name}.json`), "utf8")) as { results: StepResult[] };
    before(async () => {
      if (seq.tls) {
        // Over TLS kubectl speaks HTTP/2, as it did with the real server; the open server ignores the token.
        tls = await startTlsServer({ port: 0, garbageCollectorController: seq.garbageCollectorController ?? true });
        actual = await runSequence({ url: tls.server.url, kubectlFlags: ["--insecure-skip-tls-verify", "--token", "crdkit"] }, seq);
      } else {
        server = await startServer({ port: 0, garbageCollectorController: seq.garbageCollectorController ?? true });
        actual = await runSequence({ url: server.url, kubectlFlags: [] }, seq);
      }
    });
    after(async () => {
      await server?.close();
      await tls?.close();
    });
    golden.results.forEach((want, i) => {
      test(want.step, () => {
        const got = actual[i];
        const reason = known.get(`${name} | ${want.step}`);
        const same = got !== undefined && JSON.stringify(got) === JSON.stringify(want);
        if (reason !== undefined) {
          assert.ok(!same, `listed in known-differences.txt (${reason}) but crdkit now answers as Kubernetes: remove the line`);
          return;
        }
        assert.deepEqual(got, want);
      });
    });
  });
}
