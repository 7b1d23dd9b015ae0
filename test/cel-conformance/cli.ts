/**
 * `npm run conformance:cel`: runs the CEL conformance sections Kubernetes uses and prints
 * every skipped test with its reason, every failure (with `--verbose`, the details), skip counts
 * by reason and per-section counts,
 * ending with `N passed, M failed, K skipped`.
 * @module
 */
import { runConformance, summarize } from "./report.js";

const verbose = process.argv.includes("--verbose");
const results = runConformance();
const rows = summarize(results);

const skipReasons = new Map<string, number>();
for (const r of results) {
  if (r.status === "skip") skipReasons.set(r.detail ?? "", (skipReasons.get(r.detail ?? "") ?? 0) + 1);
}
for (const r of results) {
  if (r.status === "skip") console.log(`SKIP ${r.test.path}: ${r.detail ?? ""}`);
}
for (const r of results) {
  if (r.status !== "fail") continue;
  console.log(`FAIL ${r.test.path}: ${r.test.original.expr}`);
  if (verbose) console.log(`  ${(r.detail ?? "").replaceAll("\n", "\n  ")}`);
}
console.log("\nskipped tests by reason:");
for (const [reason, n] of [...skipReasons].sort((a, b) => b[1] - a[1])) console.log(`  ${n}  ${reason}`);
console.log("\nsection            passed  failed  skipped  pass rate (non-skipped)");
for (const s of rows) {
  const run = s.passed + s.failed;
  const rate = run === 0 ? "-" : `${((100 * s.passed) / run).toFixed(1)}%`;
  console.log(
    `${s.section.padEnd(18)} ${String(s.passed).padStart(6)}  ${String(s.failed).padStart(6)}  ${String(s.skipped).padStart(7)}  ${rate}`,
  );
}
const total = rows[rows.length - 1];
if (total !== undefined) console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
