/**
 * The core command set with each versioned kubectl (1.27 … 1.33) found beside the PATH kubectl, each
 * against a fresh server (1.27/1.28 use v2beta1 discovery and fetch /openapi/v2 first; see
 * kubectl-wire.md §9).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalizeAges, squeeze, startCluster, versionedKubectl } from "./harness.js";

const STEPS: { args: string[]; code?: number; stdout?: string; stderr?: string; table?: boolean }[] = [
  { args: ["apply", "-f", "crd.yaml"], stdout: "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created\n" },
  {
    args: ["wait", "--for=condition=Established", "crd/crontabs.stable.example.com", "--timeout=30s"],
    stdout: "customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com condition met\n",
  },
  { args: ["apply", "-f", "cr.yaml"], stdout: "crontab.stable.example.com/my-cron created\n" },
  { args: ["apply", "-f", "cr-v2.yaml"], stdout: "crontab.stable.example.com/my-cron configured\n" },
  { args: ["get", "ct"], stdout: "NAME  SPEC  REPLICAS  AGE\nmy-cron  * * * * */5  1  <age>\n", table: true },
  { args: ["apply", "--server-side", "-f", "cr-ssa.yaml"], stdout: "crontab.stable.example.com/ssa-cron serverside-applied\n" },
  {
    args: ["create", "--validate=warn", "-f", "cr-bad.yaml"],
    stdout: "crontab.stable.example.com/bad-cron created\n",
    stderr: 'Warning: unknown field "spec.bogusField"\n',
  },
  {
    args: ["apply", "-f", "cr-invalid.yaml"],
    code: 1,
    stderr:
      'The CronTab "my-new-cron-object" is invalid: \n* spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match \'^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$\'\n* spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10\n',
  },
  { args: ["scale", "--replicas=5", "crontabs/my-cron"], stdout: "crontab.stable.example.com/my-cron scaled\n" },
  { args: ["patch", "ct", "my-cron", "--type=merge", "-p", '{"spec":{"replicas":5}}'], stdout: "crontab.stable.example.com/my-cron patched (no change)\n" },
  { args: ["delete", "ct", "my-cron"], stdout: 'crontab.stable.example.com "my-cron" deleted\n' },
  { args: ["get", "ct", "my-cron"], code: 1, stderr: 'Error from server (NotFound): crontabs.stable.example.com "my-cron" not found\n' },
];

for (const minor of [27, 28, 29, 30, 31, 32, 33]) {
  const bin = versionedKubectl(minor);
  describe(`kubectl 1.${minor}`, { skip: bin ? false : `kubectl.1.${minor} not installed`, timeout: 120_000 }, () => {
    it("runs the core commands with the expected output", async () => {
      const c = await startCluster();
      try {
        for (const s of STEPS) {
          const r = await c.kubectl(s.args, { bin: bin! });
          const ctx = `kubectl.1.${minor} ${s.args.join(" ")}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`;
          assert.equal(r.code, s.code ?? 0, ctx);
          if (s.stdout !== undefined) assert.equal(s.table ? normalizeAges(squeeze(r.stdout)) : r.stdout, s.stdout, ctx);
          if (s.stderr !== undefined) assert.equal(r.stderr, s.stderr, ctx);
        }
        const explain = await c.kubectl(["explain", "crontabs.spec"], { bin: bin! });
        assert.match(explain.stdout, /^GROUP: +stable\.example\.com\nKIND: +CronTab\nVERSION: +v1\n\nFIELD: +spec <Object>\n/, explain.stderr);
      } finally {
        await c.close();
      }
    });
  });
}
