/**
 * Loads the CEL conformance tests (cel-spec simple tests with cel-go's recorded checker results,
 * as packaged in `@bufbuild/cel-spec`) as plain JSON data, restricted to the sections Kubernetes
 * uses, and classifies tests that cannot apply to crdkit (protobuf messages, disabled options).
 * @module
 */
import { tests as checking } from "@bufbuild/cel-spec/testdata/checking.js";
import { tests as conformance } from "@bufbuild/cel-spec/testdata/conformance.js";

/** A JSON-encoded `cel.expr.Type` / `Decl` / `Value` as found in the data. */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The original cel-spec `SimpleTest`, JSON-encoded. */
export interface SimpleTestJson {
  readonly name?: string;
  readonly expr: string;
  readonly description?: string;
  readonly disableMacros?: boolean;
  readonly disableCheck?: boolean;
  readonly checkOnly?: boolean;
  readonly typeEnv?: readonly { name: string; ident?: { type: Json }; function?: Json }[];
  readonly container?: string;
  readonly bindings?: Readonly<Record<string, { value?: Json }>>;
  readonly value?: Json;
  readonly typedResult?: { result?: Json; deducedType?: Json };
  readonly evalError?: Json;
}

/** One test with cel-go's recorded results. */
export interface ConformanceTest {
  readonly section: string;
  /** `section/subsection/name` */
  readonly path: string;
  readonly original: SimpleTestJson;
  /** cel-go's checked type (FormatCELType). */
  readonly type?: string;
  /** cel-go's checker error text (issues string). */
  readonly error?: string;
}

/** Name of the section holding cel-go's checker tests (`checker_test.go`, check only). */
export const CHECKING_SECTION = "checking";

/** Sections Kubernetes' CRD environment exercises (plus cel-go's checker tests). */
export const KUBERNETES_SECTIONS: readonly string[] = [
  "basic",
  "comparisons",
  "conversions",
  "fields",
  "fp_math",
  "integer_math",
  "lists",
  "logic",
  "macros",
  "macros2",
  "optionals",
  "parse",
  "plumbing",
  "string",
  "string_ext",
  "timestamps",
  "type_deductions",
  CHECKING_SECTION,
];

interface RawSuite {
  name: string;
  suites?: RawSuite[];
  tests?: { original: SimpleTestJson; type?: string; error?: string }[];
}

/** All tests of the given sections, in data order. */
export function loadConformanceTests(sections: readonly string[] = KUBERNETES_SECTIONS): ConformanceTest[] {
  const out: ConformanceTest[] = [];
  const walk = (s: RawSuite, section: string, prefix: string) => {
    for (const t of s.tests ?? []) {
      const path = `${prefix}/${t.original.name ?? t.original.expr}`;
      const test: ConformanceTest = { section, path, original: t.original };
      out.push({
        ...test,
        ...(t.type !== undefined ? { type: t.type } : {}),
        ...(t.error !== undefined ? { error: t.error } : {}),
      });
    }
    for (const c of s.suites ?? []) walk(c, section, `${prefix}/${c.name}`);
  };
  for (const s of (conformance as unknown as RawSuite).suites ?? []) {
    if (sections.includes(s.name)) walk(s, s.name, s.name);
  }
  if (sections.includes(CHECKING_SECTION)) walk(checking as unknown as RawSuite, CHECKING_SECTION, CHECKING_SECTION);
  return out;
}

const PROTO_MARKERS = [
  "TestAllTypes",
  "NestedTestAllTypes",
  "NestedMessage",
  "google.protobuf",
  "cel.expr.conformance",
  "GlobalEnum",
  "NestedEnum",
  "objectValue",
  "enumValue",
  "messageType",
  "wrapper(",
  '"wrapper":',
  '"wellKnown":"ANY"',
  "proto2",
  "proto3",
];

/**
 * Why a test does not apply to crdkit, or undefined when it applies. Protobuf-message tests
 * and tests of features Kubernetes does not enable are skipped.
 */
export function skipReason(t: ConformanceTest): string | undefined {
  const blob = JSON.stringify(t.original) + (t.type ?? "");
  for (const m of PROTO_MARKERS) {
    if (blob.includes(m)) return `protobuf messages/enums/wrappers (${m})`;
  }
  if (t.type === "any") return "protobuf Any";
  if (t.path.includes("/quoted_map_fields/")) return "backtick-quoted identifiers (cel-go option not enabled by Kubernetes)";
  if (t.section === "string_ext" && /\.reverse\(\)/.test(t.original.expr)) {
    return "string reverse() is strings ext v3; Kubernetes enables v2";
  }
  if (t.error?.includes("recursion limit exceeded: 32") === true) {
    return "test-specific parser option (recursion limit 32) not applicable to Kubernetes";
  }
  if (t.original.disableMacros === true) return "disableMacros: Kubernetes always enables macros";
  return undefined;
}
