/**
 * Encoding a stored CRD for an answer: Go's struct order (`toJson`, what crdkit answers now) against sorted keys
 * (`goJsonMarshal`, the encoding before session 33), interleaved A/B rounds, CPU microseconds per encoding,
 * medians.
 *
 *   node --import tsx bench/serve/crd-encode.bench.ts [--file=CRD.yaml] [--rounds=9] [--n=300]
 */
import { readFileSync } from "node:fs";
import { decodeDocuments } from "../../src/io/decode.js";
import { goJsonMarshal } from "../../src/go/json.js";
import { toJson } from "../../src/server/endpoints/http-io.js";
import type { JsonObject } from "../../src/value/json-value.js";
import { corpusRoot } from "../../test/corpus-root.js";

const arg = (name: string, d: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? d;
const file = arg("file", `${corpusRoot()}/gateway-api/crds/standard__gateway.networking.k8s.io_httproutes.yaml`);
const ROUNDS = Number(arg("rounds", "9"));
const N = Number(arg("n", "300"));

const crd = decodeDocuments(readFileSync(file, "utf8"), { format: "yaml" })[0]!.value as JsonObject;
(crd["metadata"] as JsonObject)["uid"] = "0b0c6a4e-5f6e-4a8e-9d55-5f6c3f6c1b2a";
(crd["metadata"] as JsonObject)["resourceVersion"] = "12345";
crd["status"] = { conditions: [{ type: "Established", status: "True", lastTransitionTime: "2026-01-01T00:00:00Z", reason: "InitialNamesAccepted", message: "the initial names have been accepted" }], acceptedNames: { plural: "x", kind: "X" }, storedVersions: ["v1"] };

const ways: [string, () => string][] = [
  ["struct order (toJson)", () => toJson(crd)],
  ["sorted (goJsonMarshal)", () => goJsonMarshal(crd)],
];
const times = new Map<string, number[]>(ways.map(([n]) => [n, []]));
let sink = 0;
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, f] of r % 2 === 0 ? ways : [...ways].reverse()) {
    const t0 = process.cpuUsage();
    for (let i = 0; i < N; i++) sink += f().length;
    const t = process.cpuUsage(t0);
    times.get(name)!.push((t.user + t.system) / N);
  }
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
console.log(`${file}: ${goJsonMarshal(crd).length} chars, ${ROUNDS} rounds of ${N} (sink ${sink % 10})`);
for (const [name, ts] of times) console.log(`${name}: median ${median(ts).toFixed(1)} µs CPU per encoding`);
