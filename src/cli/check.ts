/**
 * `crdkit check [-o text|json] [--old PATH]... [--field-validation Strict|Warn|Ignore] PATH...`: validates
 * every CustomResourceDefinition found in files, directories or stdin (`-`) as the API server would on
 * create (or on update of the same-named CRD given with --old). Exit codes: 0 all valid, 1 any invalid,
 * 2 usage or I/O error.
 */
import type { DecodedCrd } from "../crd/decode-crd.js";
import { decodeCrd, strictDecodingMessage } from "../crd/decode-crd.js";
import { type CrdValidationOptions, type CrdValidationResult, validateCrdCreate, validateCrdUpdate } from "../crdvalidation/validate-crd.js";
import { documentPath } from "../crdvalidation/document-path.js";
import { errorString } from "../errors/field-error.js";
import { crdValidationOptions } from "../pipeline/crd-hooks.js";
import { type DecodedDocument, decodeDocuments } from "../io/decode.js";
import type { FieldValidationMode } from "../pipeline/types.js";
import { type JsonValue, isObject } from "../value/json-value.js";
import { expandPaths, InputError, readInput } from "./files.js";
import { asStoredCrd } from "./stored-crd.js";
import { type OutputFormat, UsageError, fieldValidationFlag, outputFlag, scanArgv } from "./argv-scan.js";
import { checkResultsAsResults } from "./output/check-results.js";
import { formatGithub } from "./output/github.js";
import { formatJunit } from "./output/junit.js";
import { counted, oneLine } from "./output/one-line.js";

/** I/O used by the command (injectable for tests). */
export interface CheckIo {
  /** Reads a file (or `-` for stdin); throws on failure. Default: Node fs. */
  readFile?: (path: string) => Promise<string>;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  isTTY: boolean;
}

export const CHECK_USAGE = `Usage: crdkit check [-o text|json|junit|github] [--old PATH]... [--field-validation Strict|Warn|Ignore] PATH...

Checks CustomResourceDefinitions (files, directories, "-" for stdin; multi-document YAML or JSON) the way
the Kubernetes API server does on create, or on update when a CRD of the same name is given with --old.

Flags:
  -o, --output FORMAT        text (default), json, junit or github (GitHub Actions annotations)
      --old PATH             the currently stored CRDs; CRDs found there are checked as updates. A
                             file without status (e.g. from git) is taken as the cluster stores it:
                             Established, names accepted, its storage version stored
      --field-validation M   Strict (default, as kubectl): unknown or duplicate fields are errors;
                             Warn: they are warnings; Ignore: they are dropped silently
  -h, --help                 show this help

Exit codes: 0 all valid, 1 some CRD is invalid, 2 usage or I/O error.
`;

interface CheckArgs {
  output: OutputFormat;
  old: string[];
  inputs: string[];
  fieldValidation: FieldValidationMode;
  help: boolean;
}

function parseArgs(argv: readonly string[]): CheckArgs {
  const a: CheckArgs = { output: "text", old: [], inputs: [], fieldValidation: "Strict", help: false };
  scanArgv(argv, {
    input: (path) => a.inputs.push(path),
    flag: (flag, value) => {
      switch (flag) {
        case "-o":
        case "--output":
          a.output = outputFlag(value());
          break;
        case "--old":
          a.old.push(value());
          break;
        case "--field-validation":
          a.fieldValidation = fieldValidationFlag(value());
          break;
        case "-h":
        case "--help":
          a.help = true;
          break;
        default:
          throw new UsageError(`unknown flag ${flag}`);
      }
    },
  });
  return a;
}

export interface CheckError {
  type: string;
  field: string;
  message: string;
  line: number;
  column: number;
}

export interface CheckResult {
  file: string;
  index: number;
  /** Index in `items` when the document is a List. */
  item?: number;
  name: string;
  operation: "create" | "update";
  valid: boolean;
  errors: CheckError[];
  /** `line`/`column` when the warning is about a field (unknown or duplicate fields in Warn mode). */
  warnings: { message: string; line?: number; column?: number }[];
  line: number;
  column: number;
}

interface Unit {
  file: string;
  doc: DecodedDocument;
  item?: number;
  value: JsonValue;
}

function crdName(v: JsonValue): string {
  if (!isObject(v)) return "";
  const md = v["metadata"];
  return isObject(md) && typeof md["name"] === "string" ? md["name"] : "";
}

function isCrdKind(v: JsonValue | undefined): boolean {
  return isObject(v) && v["kind"] === "CustomResourceDefinition";
}

async function loadUnits(paths: readonly string[], io: CheckIo): Promise<{ units: Unit[]; problems: CheckResult[]; skipped: number }> {
  const units: Unit[] = [];
  const problems: CheckResult[] = [];
  let skipped = 0;
  for (const p of expandPaths(paths)) {
    const text = io.readFile && p !== "-" ? await io.readFile(p) : readInput(p).text;
    const name = p === "-" ? "<stdin>" : p;
    for (const doc of decodeDocuments(text)) {
      if (doc.problem) {
        const pos = doc.problem.position;
        problems.push({
          file: name, index: doc.index, name: "", operation: "create", valid: false, line: pos.line, column: pos.column, warnings: [],
          errors: [{ type: "DecodeError", field: "", message: doc.problem.message, line: pos.line, column: pos.column }],
        });
        continue;
      }
      const v = doc.value;
      if (isObject(v) && typeof v["kind"] === "string" && v["kind"].endsWith("List") && Array.isArray(v["items"])) {
        v["items"].forEach((it, i) => {
          if (isCrdKind(it)) units.push({ file: name, doc, item: i, value: it });
          else skipped++;
        });
        continue;
      }
      if (isCrdKind(v)) units.push({ file: name, doc, value: v! });
      else skipped++;
    }
  }
  return { units, problems, skipped };
}

function position(u: Unit, path: string): { line: number; column: number } {
  const prefix = u.item !== undefined ? `items[${u.item}]` : "";
  const full = path === "" || path === "<nil>" ? (prefix === "" ? "<nil>" : prefix) : prefix === "" ? path : `${prefix}.${path}`;
  return u.doc.locate(full);
}

function toResult(u: Unit, r: CrdValidationResult, mode: FieldValidationMode, operation: "create" | "update"): CheckResult {
  const apiVersion = isObject(u.value) && typeof u.value["apiVersion"] === "string" ? u.value["apiVersion"] : "";
  const at = position(u, "");
  const res: CheckResult = {
    file: u.file, index: u.doc.index, name: crdName(u.value), operation, valid: true, errors: [], warnings: [], line: at.line, column: at.column,
  };
  if (u.item !== undefined) res.item = u.item;
  if (r.decodeError !== undefined) {
    res.errors.push({ type: "DecodeError", field: "", message: r.decodeError, line: at.line, column: at.column });
  } else {
    const strict: string[] = [...r.unknownFields.map((f) => `unknown field "${f}"`), ...(u.item === undefined ? u.doc.strictErrors : [])];
    if (mode === "Strict" && strict.length > 0) {
      for (const f of r.unknownFields) {
        const p = position(u, f);
        res.errors.push({ type: "UnknownField", field: f, message: strictDecodingMessage(apiVersion, [f]), ...p });
      }
      const dup = u.doc.strictErrorPosition ?? at;
      for (const s of u.item === undefined ? u.doc.strictErrors : []) res.errors.push({ type: "DuplicateField", field: "", message: s, line: dup.line, column: dup.column });
    } else if (mode === "Warn") {
      // at the field, as the Strict-mode errors are
      for (const f of r.unknownFields) res.warnings.push({ message: `unknown field "${f}"`, ...position(u, f) });
      const dup = u.doc.strictErrorPosition ?? at;
      for (const s of u.item === undefined ? u.doc.strictErrors : []) res.warnings.push({ message: s, line: dup.line, column: dup.column });
    }
    // In Strict mode the request already fails while decoding (HTTP 400): validation never runs.
    if (res.errors.length === 0) {
      for (const e of r.errors) {
        const p = position(u, documentPath(e.field, apiVersion));
        res.errors.push({ type: e.type, field: e.field, message: errorString(e), ...p });
      }
      for (const w of r.warnings) res.warnings.push({ message: w });
    }
  }
  res.valid = res.errors.length === 0;
  return res;
}

function formatText(results: CheckResult[], skipped: number, color: boolean): string {
  const c = (code: string, s: string) => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const lines: string[] = [];
  for (const r of results) {
    const label = r.name || `document ${r.index}`;
    for (const e of r.errors) lines.push(`${c("1", `${r.file}:${e.line}:${e.column}`)}: ${c("31", "error")}: ${label}: ${oneLine(e.message, e.line)}`);
    for (const w of r.warnings) {
      lines.push(`${c("1", `${r.file}:${w.line ?? r.line}:${w.column ?? r.column}`)}: ${c("33", "warning")}: ${label}: ${oneLine(w.message, w.line)}`);
    }
    if (r.valid) lines.push(`${c("1", `${r.file}:${r.line}:${r.column}`)}: ${c("32", "ok")}: ${label}`);
  }
  const invalid = results.filter((r) => !r.valid).length;
  const text = `Summary: ${counted(results.length, "CustomResourceDefinition")}: ${results.length - invalid} valid, ${invalid} invalid, ${counted(skipped, "other document")} skipped`;
  lines.push(invalid > 0 ? c("31", text) : c("32", text));
  return lines.join("\n") + "\n";
}

const nodeIo: CheckIo = {
  stdout: (s) => process.stdout.write(s),
  stderr: (s) => process.stderr.write(s),
  isTTY: process.stdout.isTTY === true,
};

/** Options the library user (or main.ts) may pass to wire CEL or default validation. */
export interface CheckOptions extends CrdValidationOptions {}

/** `crdkit check`; returns the exit code. */
export async function runCheck(argv: string[], io: CheckIo = nodeIo, options: CheckOptions = crdValidationOptions): Promise<number> {
  let args: CheckArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`crdkit check: ${e.message}\n\n${CHECK_USAGE}`);
      return 2;
    }
    throw e;
  }
  if (args.help) {
    io.stdout(CHECK_USAGE);
    return 0;
  }
  if (args.inputs.length === 0) {
    io.stderr(`crdkit check: no input paths (use "-" for standard input)\n\n${CHECK_USAGE}`);
    return 2;
  }
  let loaded: Awaited<ReturnType<typeof loadUnits>>;
  const olds = new Map<string, DecodedCrd>();
  try {
    if (args.old.length > 0) {
      const o = await loadUnits(args.old, io);
      for (const u of o.units) {
        const d = decodeCrd(asStoredCrd(u.value));
        if (d.ok && crdName(u.value) !== "") olds.set(crdName(u.value), d);
      }
    }
    loaded = await loadUnits(args.inputs, io);
  } catch (e) {
    if (e instanceof InputError || (e instanceof Error && "code" in e)) {
      io.stderr(`crdkit check: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  const results: CheckResult[] = [...loaded.problems];
  for (const u of loaded.units) {
    const old = olds.get(crdName(u.value));
    const r = old ? validateCrdUpdate(u.value, old, options) : validateCrdCreate(u.value, options);
    results.push(toResult(u, r, args.fieldValidation, old ? "update" : "create"));
  }
  results.sort((a, b) => (a.file === b.file ? a.index - b.index || (a.item ?? 0) - (b.item ?? 0) : 0));
  if (results.length === 0) {
    io.stderr("crdkit check: no CustomResourceDefinition found in the input\n");
    return 2;
  }
  const invalid = results.filter((r) => !r.valid).length;
  if (args.output === "json") {
    const summary = { crds: results.length, valid: results.length - invalid, invalid, skipped: loaded.skipped };
    io.stdout(`${JSON.stringify({ results, summary })}\n`);
  } else if (args.output === "junit" || args.output === "github") {
    const r = checkResultsAsResults(results);
    io.stdout(args.output === "junit" ? formatJunit(r.results, r.summary, "crdkit check") : formatGithub(r.results, r.summary, "CustomResourceDefinition"));
  } else {
    io.stdout(formatText(results, loaded.skipped, io.isTTY && !process.env["NO_COLOR"]));
  }
  return invalid > 0 ? 1 : 0;
}

export { documentPath };
