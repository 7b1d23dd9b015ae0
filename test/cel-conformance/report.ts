/**
 * Runs the conformance sections and summarizes results per section.
 * @module
 */
import { runTest } from "./run.js";
import { type ConformanceTest, KUBERNETES_SECTIONS, loadConformanceTests, skipReason } from "./suite.js";

/** Per-test result. */
export interface TestResult {
  readonly test: ConformanceTest;
  readonly status: "pass" | "fail" | "skip";
  readonly detail?: string;
}

/** Counts of one section. */
export interface SectionSummary {
  readonly section: string;
  passed: number;
  failed: number;
  skipped: number;
}

/** Runs every test of `sections`. */
export function runConformance(sections: readonly string[] = KUBERNETES_SECTIONS): TestResult[] {
  const out: TestResult[] = [];
  for (const t of loadConformanceTests(sections)) {
    const skip = skipReason(t);
    if (skip !== undefined) {
      out.push({ test: t, status: "skip", detail: skip });
      continue;
    }
    const r = runTest(t);
    out.push(r.pass ? { test: t, status: "pass" } : { test: t, status: "fail", detail: r.detail ?? "" });
  }
  return out;
}

/** Section counts in section order, plus a total row. */
export function summarize(results: readonly TestResult[]): SectionSummary[] {
  const by = new Map<string, SectionSummary>();
  for (const r of results) {
    let s = by.get(r.test.section);
    if (s === undefined) {
      s = { section: r.test.section, passed: 0, failed: 0, skipped: 0 };
      by.set(r.test.section, s);
    }
    if (r.status === "pass") s.passed++;
    else if (r.status === "fail") s.failed++;
    else s.skipped++;
  }
  const rows = [...by.values()];
  const total: SectionSummary = { section: "total", passed: 0, failed: 0, skipped: 0 };
  for (const s of rows) {
    total.passed += s.passed;
    total.failed += s.failed;
    total.skipped += s.skipped;
  }
  return [...rows, total];
}
