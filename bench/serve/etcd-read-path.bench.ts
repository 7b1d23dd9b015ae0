/**
 * CPU of the etcd store's read path alone (no HTTP): `EtcdStore.get` from the watch cache with N reads in
 * flight, once with the real revision call to etcd (one count-only Range per batch, through grpc-js) and once
 * with that call answered at once by the cache's own revision (what is left: the batcher, the cache lookup,
 * the stored value), interleaved over several rounds. The difference is what one gRPC call costs this process
 * per read at that batch size; the batch size follows the reads in flight (16 → 16 per call when nothing else
 * runs, about 7 behind the HTTPS server of bench:etcd, whose requests arrive in two groups).
 *
 *   node --import tsx bench/serve/etcd-read-path.bench.ts [--in-flight=8] [--reads=20000] [--rounds=5]
 */
import { EtcdStore } from "../../src/storage/etcd/etcd-store.js";
import { EtcdProcess } from "../../test/storage/etcd-process.js";

const arg = (name: string, d: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d;
const IN_FLIGHT = Number(arg("in-flight", "8"));
const READS = Number(arg("reads", "20000"));
const ROUNDS = Number(arg("rounds", "5"));
const KEYS = 200;

const etcd = await EtcdProcess.start();
const store = new EtcdStore({ servers: [etcd.url] });
try {
  for (let i = 0; i < KEYS; i++) await store.create(`/registry/stable.example.com/crontabs/default/ct-${i}`, JSON.stringify({ i, spec: { image: "x".repeat(400) } }));
  const run = async (n: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < n) {
          const i = next++;
          if (!(await store.get(`/registry/stable.example.com/crontabs/default/ct-${i % KEYS}`))) throw new Error("missing key");
        }
      }),
    );
  };
  const client = store.client as unknown as { range: (req: { count_only?: boolean }, deadline?: number) => Promise<unknown> };
  const real = client.range.bind(store.client);
  // The instant answer: the cache's revision (every change through it applied), for revision reads only.
  const instant = (req: { count_only?: boolean }, deadline?: number) =>
    req.count_only ? Promise.resolve({ header: { revision: store.cache!.currentRevision } }) : real(req, deadline);
  await run(5000);
  const cpu: Record<"etcd" | "instant", number[]> = { etcd: [], instant: [] };
  let perCall = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? (["etcd", "instant"] as const) : (["instant", "etcd"] as const)) {
      client.range = mode === "etcd" ? real : instant;
      const s0 = store.readStats;
      const c0 = process.cpuUsage();
      await run(READS);
      const c = process.cpuUsage(c0);
      const s1 = store.readStats;
      cpu[mode].push((c.user + c.system) / READS);
      if (mode === "etcd") perCall = (s1.reads - s0.reads) / (s1.batches - s0.batches);
    }
  }
  if (!store.cache || store.cache.served < READS) throw new Error("the watch cache did not answer the reads");
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const f = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(" ");
  process.stdout.write(
    [
      `EtcdStore.get from the watch cache, ${IN_FLIGHT} reads in flight, ${READS} reads per round, ${perCall.toFixed(1)} reads per revision call`,
      `  revision from etcd:         µs CPU per read ${f(cpu.etcd)} | median ${med(cpu.etcd).toFixed(1)}`,
      `  revision answered at once:  µs CPU per read ${f(cpu.instant)} | median ${med(cpu.instant).toFixed(1)}`,
      `  one revision call: ${((med(cpu.etcd) - med(cpu.instant)) * perCall).toFixed(0)} µs of this process's CPU`,
    ].join("\n") + "\n",
  );
} finally {
  await store.close();
  await etcd.cleanup();
}
