/**
 * `crdkit validate`: registers the CRDs, decodes every input document like kubectl, expands lists, runs
 * each custom resource through the API server pipeline (create, or update when --old has a previous
 * version) and collects results with source positions.
 */
import { errorString } from "../errors/field-error.js";
import { type DecodedDocument, decodeDocumentPieces, decodeDocuments } from "../io/decode.js";
import { listItems } from "../io/list.js";
import { tryCompileCrd } from "../pipeline/compile.js";
import type { FieldValidationMode, PipelineResult } from "../pipeline/types.js";
import { goJsonMarshal, goJsonMarshalSize } from "../go/json.js";
import { type JsonObject, type JsonValue, getKey, isObject, kindOf } from "../value/json-value.js";
import { invalidCrdErrors } from "./crd-error-positions.js";
import { type InputFile, InputError, expandPaths, inputSize, readInput, readInputPieces } from "./files.js";
import { keyedCrdFile } from "./file-key-memo.js";
import { globMatcher } from "./glob.js";
import { cachedBuiltinLookup } from "./builtin-kind-cache.js";
import { builtinKindLookup } from "./builtin-lookup.js";
import { type BuiltinLookup, duplicateCrdWarning, resolveKind } from "./kind-resolution.js";
import { isCrdDoc, LazyCrdRegistry, inputMayHoldCrds } from "./lazy-registry.js";
import { flushRulePrograms } from "./rule-program-cache.js";
import { notAnObjectMessage } from "./object-kind.js";
import { asStored, oldObjectKey } from "./old-objects.js";
import type { SchemaCache } from "./schema-cache.js";
import type { Result, ResultError, ResultWarning } from "./results.js";
import { SkipKinds } from "./skip-kinds.js";

export interface RunOptions {
  crds: readonly string[];
  old: readonly string[];
  inputs: readonly string[];
  fieldValidation: FieldValidationMode;
  showObject: boolean;
  /** The compiled-CRD cache (none: every CRD used is checked and compiled). */
  cache?: SchemaCache;
  /** Input files whose CRDs to register (default: the input files that may hold CRDs). */
  inputCrdFiles?: readonly string[];
  /** Report the input CRDs as results (default true; worker threads other than the first do not). */
  reportInputCrds?: boolean;
  /** Report documents whose kind has no schema as skipped instead of invalid. */
  ignoreMissingSchemas?: boolean;
  /** Kinds to leave out: `Kind` or `apiVersion/Kind`. */
  skip?: readonly string[];
  /** Globs of input files (and directories) to leave out. */
  exclude?: readonly string[];
  /** CRDs read from a cluster (`--kubeconfig`): local CRD files override them. */
  clusterCrds?: readonly { source: string; value: JsonValue }[];
  /** Built-in kinds (Deployments, ...); without it only CRDs are known. */
  builtins?: BuiltinLookup;
  /**
   * Built-in kinds of this Kubernetes release (`1.37`), when `builtins` is not given: a plain string, so
   * that worker threads receive it (`main.ts` resolves and checks it); `""`: the newest release.
   */
  kubernetesVersion?: string | undefined;
  /** Run-level warnings (a CRD defined twice), with the file and line of the CRD used. */
  onWarning?: (message: string, at: { file: string; line: number }) => void;
  /** Called after each input file is validated (progress). */
  onFileDone?: (done: number, total: number) => void;
}

function str(o: JsonObject, k: string): string {
  const v = getKey(o, k);
  return typeof v === "string" ? v : "";
}

function metaStr(o: JsonObject, k: string): string {
  const md = getKey(o, "metadata");
  return isObject(md) ? str(md, k) : "";
}

function goTypeForUnmarshal(v: JsonValue | undefined): string {
  switch (kindOf(v)) {
    case "array":
      return "array";
    case "string":
      return "string";
    case "boolean":
      return "bool";
    default:
      return "number";
  }
}

interface Doc {
  file: string;
  doc: DecodedDocument;
  /** Size of the file in bytes (to skip the request-size check for small files). */
  size: number;
}

/** The API server's request body limit (`MaxRequestBodyBytes`, 3 MiB): larger bodies get HTTP 413. */
export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** The documents of the files, decoded one file at a time (a file's documents are let go after it). */
/** The documents of the input files, decoded as they are read: a file is never held whole (YAML). */
function* eachDocument(files: readonly string[], predecoded: Map<string, { size: number; docs: DecodedDocument[] }>): Generator<Doc> {
  for (const p of files) {
    const name = p === "-" ? "<stdin>" : p;
    // a file decoded ahead for its CRDs is not decoded again (once: a path given twice is read again)
    const held = predecoded.get(p);
    if (held) {
      predecoded.delete(p);
      for (const doc of held.docs) yield { file: name, doc, size: held.size };
      continue;
    }
    // the file's size comes from the reader (set before its first document), not from a stat of its own
    const sized = { size: 0 };
    for (const doc of inputDocuments(p, sized)) yield { file: name, doc, size: sized.size };
  }
}

/**
 * Input files decoded ahead to register their CRDs keep their documents for the validation that follows,
 * up to this many file bytes in all (larger inputs are decoded again, so memory stays bounded).
 */
const PREDECODED_MAX_BYTES = 2 << 20;

/**
 * The documents of an input, decoded as it is read; a document longer than the longest JavaScript string
 * is an input error (as reading such a file whole was), not an internal one.
 */
function* inputDocuments(p: string, sized?: { size: number }): Generator<DecodedDocument> {
  try {
    yield* decodeDocumentPieces(readInputPieces(p, sized));
  } catch (e) {
    if (e instanceof RangeError && /string length/i.test(e.message)) {
      throw new InputError(`cannot read ${p === "-" ? "standard input" : p}: a document is longer than the longest string JavaScript can hold`);
    }
    throw e;
  }
}

function decodeFiles(paths: readonly string[]): Doc[] {
  const out: Doc[] = [];
  for (const p of expandPaths(paths)) {
    const f: InputFile = readInput(p);
    for (const doc of decodeDocuments(f.text)) out.push({ file: f.name, doc, size: f.text.length });
  }
  return out;
}

function baseResult(file: string, doc: DecodedDocument, obj: JsonObject | undefined, path = ""): Result {
  const pos = doc.locate(path === "" ? "<nil>" : path);
  return {
    file,
    index: doc.index,
    apiVersion: obj ? str(obj, "apiVersion") : "",
    kind: obj ? str(obj, "kind") : "",
    namespace: obj ? metaStr(obj, "namespace") : "",
    name: obj ? metaStr(obj, "name") : "",
    status: "valid",
    valid: true,
    errors: [],
    warnings: [],
    line: pos.line,
    column: pos.column,
  };
}

function invalid(r: Result, errors: ResultError[]): Result {
  r.status = "invalid";
  r.valid = false;
  r.errors.push(...errors);
  return r;
}

/**
 * An update as `kubectl apply` makes it: the request carries the stored object's resourceVersion (`1` when
 * the old manifest has none), unless the new manifest sets its own.
 */
function withResourceVersion(obj: JsonObject, old: JsonObject): [JsonObject, JsonObject] {
  const rv = metaStr(old, "resourceVersion") || "1";
  const set = (o: JsonObject, force: boolean): JsonObject => {
    const md = getKey(o, "metadata");
    if (!isObject(md) || (!force && metaStr(o, "resourceVersion") !== "")) return o;
    return { ...o, metadata: { ...md, resourceVersion: rv } };
  };
  return [set(obj, false), set(old, false)];
}

/**
 * A pipeline warning with the position of the field it is about: unknown and duplicate fields in Warn mode
 * point at the field (as errors do in Strict mode), other warnings at the document.
 */
function warningAt(message: string, doc: DecodedDocument, at: (p: string) => string, whole: boolean): ResultWarning {
  const unknown = /^unknown field "(.*)"$/.exec(message) ?? /^duplicate field "(.*)"$/.exec(message);
  if (unknown) return { message, ...doc.locate(at(unknown[1]!)) };
  if (whole && doc.strictErrorPosition && doc.strictErrors.includes(message)) return { message, ...doc.strictErrorPosition };
  return { message };
}

/**
 * Runs the validation; throws InputError for unreadable paths. With `onResult`, each result is handed
 * over as soon as it is known (and not kept: the returned list is empty).
 */
export function runValidate(opts: RunOptions, onResult?: (r: Result) => void): Result[] {
  const lookup = opts.kubernetesVersion === undefined ? undefined : builtinKindLookup(opts.kubernetesVersion || undefined);
  const builtins = opts.builtins ?? (lookup && opts.cache ? cachedBuiltinLookup(opts.cache, opts.kubernetesVersion ?? "", lookup) : lookup);
  const kept: Result[] = [];
  const results = { push: onResult ? (...rs: Result[]) => rs.forEach(onResult) : (...rs: Result[]) => kept.push(...rs) };
  // --crds CRDs are compiled when a document of their kind is first seen; a rejected one is reported then
  const registry = new LazyCrdRegistry(opts.cache, (origin, value, messages) => {
    const obj = isObject(value) ? value : undefined;
    const res: Result = {
      file: origin.file,
      index: origin.index,
      apiVersion: obj ? str(obj, "apiVersion") : "",
      kind: obj ? str(obj, "kind") : "",
      namespace: obj ? metaStr(obj, "namespace") : "",
      name: obj ? metaStr(obj, "name") : "",
      status: "valid",
      valid: true,
      errors: [],
      warnings: [],
      line: origin.line,
      column: origin.column,
    };
    // the errors at their node: the failure path decodes the CRD's file again for positions
    const doc = value === undefined ? undefined : decodeDocuments(readInput(origin.file).text).find((d) => d.index === origin.index);
    const errors = doc
      ? invalidCrdErrors(value!, messages, doc, "")
      : messages.map((message) => ({ type: "InvalidCRD", field: "", message, line: res.line, column: res.column }));
    results.push(invalid(res, errors));
  });
  const skip = new SkipKinds();
  for (const k of opts.skip ?? []) skip.add(k);
  const exclude = opts.exclude && opts.exclude.length > 0 ? globMatcher(opts.exclude) : undefined;
  registry.onDuplicate = (before, after, group, kind) => opts.onWarning?.(duplicateCrdWarning(before, after, group, kind), { file: after.file, line: after.line });
  for (const c of opts.clusterCrds ?? []) registry.addClusterCrd(c.source, c.value);
  const resolve = (apiVersion: string, kind: string) => resolveKind(registry, builtins, apiVersion, kind);
  const register = (file: string, doc: DecodedDocument) => {
    const r = registry.addDocument(file, doc);
    const res = baseResult(file, doc, doc.value as JsonObject);
    // `--skip CustomResourceDefinition` (as used with kubeconform): the CRD is still used, not reported
    const skipped = skip.match(res.apiVersion, res.kind);
    if (skipped !== undefined) {
      res.status = "skipped";
      res.valid = false;
      res.reason = `kind ${skipped} is skipped (--skip)`;
      results.push(res);
    } else if (r.ok) {
      res.warnings.push(...r.warnings.map((message) => ({ message })));
      results.push(res);
    } else {
      results.push(invalid(res, invalidCrdErrors(doc.value!, r.errors, doc, "")));
    }
  };
  for (const p of expandPaths(opts.crds)) {
    // with a cache, an unchanged CRD file is neither read nor hashed (its key is remembered by its stat)
    let name: string;
    let problems: ReturnType<LazyCrdRegistry["addFile"]>;
    if (opts.cache && p !== "-") {
      const f = keyedCrdFile(opts.cache, p);
      name = f.name;
      problems = registry.addKeyedFile(f.name, f.key, f.text);
    } else {
      const f = readInput(p);
      name = f.name;
      problems = registry.addFile(f.name, f.text);
    }
    for (const problem of problems) {
      const { index, message, line, column } = problem;
      results.push(
        invalid(
          { file: name, index, apiVersion: "", kind: "", namespace: "", name: "", status: "valid", valid: true, errors: [], warnings: [], line, column },
          [{ type: "DecodeError", field: "", message, line, column }],
        ),
      );
    }
  }
  // CRDs among the inputs are registered (and reported) before any document is validated; only files that
  // may hold one are decoded for that. Then each file is decoded, validated and let go, one at a time.
  const inputFiles = expandPaths(opts.inputs, exclude);
  const predecoded = new Map<string, { size: number; docs: DecodedDocument[] }>();
  let predecodedBytes = 0;
  for (const p of opts.inputCrdFiles ?? inputFiles.filter(inputMayHoldCrds)) {
    if (opts.reportInputCrds === false) {
      const f = readInput(p);
      registry.addFile(f.name, f.text, true);
      continue;
    }
    const size = inputSize(p);
    const keep: DecodedDocument[] | undefined = predecoded.has(p) || predecodedBytes + size > PREDECODED_MAX_BYTES ? undefined : [];
    for (const doc of inputDocuments(p)) {
      keep?.push(doc);
      if (!doc.problem && isCrdDoc(doc.value)) register(p === "-" ? "<stdin>" : p, doc);
    }
    if (keep) {
      predecoded.set(p, { size, docs: keep });
      predecodedBytes += size;
    }
  }

  const isDefinedKind = (av: string, k: string) => registry.definesKind(av, k) || resolve(av, k).type === "builtin";
  const namespacedKind = (o: JsonObject): boolean => {
    const r = resolve(str(o, "apiVersion"), str(o, "kind"));
    return r.type === "crd" || r.type === "builtin" ? r.validator.namespaced : false;
  };
  const olds = new Map<string, JsonObject>();
  const addOld = (o: JsonObject) => olds.set(oldObjectKey(o, namespacedKind(o)), o);
  for (const { doc } of decodeFiles(opts.old)) {
    if (isObject(doc.value)) {
      const items = listItems(doc.value, isDefinedKind);
      if (items) {
        for (const it of items) if (isObject(it)) addOld(it);
      } else addOld(doc.value);
    }
  }

  const totalFiles = inputFiles.length;
  let filesDone = 0;
  let lastFile: string | undefined;
  for (const { file, doc, size } of eachDocument(inputFiles, predecoded)) {
    if (opts.onFileDone && file !== lastFile) {
      if (lastFile !== undefined) opts.onFileDone(++filesDone, totalFiles);
      lastFile = file;
    }
    if (doc.problem) {
      results.push(
        invalid(baseResult(file, doc, undefined), [
          { type: "DecodeError", field: "", message: doc.problem.message, ...doc.problem.position },
        ]),
      );
      continue;
    }
    const v = doc.value;
    if (isCrdDoc(v)) continue;
    if (!isObject(v)) {
      const r = baseResult(file, doc, undefined);
      results.push(
        invalid(r, [
          {
            type: "DecodeError",
            field: "",
            message: `json: cannot unmarshal ${goTypeForUnmarshal(v)} into Go value of type map[string]interface {}`,
            line: r.line,
            column: r.column,
          },
        ]),
      );
      continue;
    }
    const items = listItems(v, isDefinedKind);
    if (items) {
      items.forEach((it, i) => {
        results.push(validateOne(file, doc, it, `items[${i}]`, i, size));
      });
      continue;
    }
    results.push(validateOne(file, doc, v, "", undefined, size));
  }
  if (opts.onFileDone && lastFile !== undefined) opts.onFileDone(++filesDone, totalFiles);
  // the CEL programs compiled in this run, for the next (./rule-program-cache.ts)
  flushRulePrograms();
  return kept;

  function validateOne(
    file: string,
    doc: DecodedDocument,
    v: JsonValue,
    prefix: string,
    item: number | undefined,
    size: number,
  ): Result {
    const at = (p: string) => (prefix === "" ? p : p === "<nil>" || p === "" ? prefix : `${prefix}.${p}`);
    const obj = isObject(v) ? v : undefined;
    const r = baseResult(file, doc, obj, prefix);
    if (item !== undefined) r.item = item;
    const docError = (message: string, type = "DecodeError"): Result =>
      invalid(r, [{ type, field: "", message, line: r.line, column: r.column }]);
    if (!obj) return docError(`json: cannot unmarshal ${goTypeForUnmarshal(v)} into Go value of type map[string]interface {}`);
    const notObject = notAnObjectMessage(obj);
    if (notObject !== undefined) return docError(notObject, "NotKubernetesObject");
    const shown = () => {
      const json = goJsonMarshal(obj);
      return json.length > 200 ? `${json.slice(0, 200)}...` : json;
    };
    if (r.kind === "") return docError(`Object 'Kind' is missing in '${shown()}'`);
    const skipped = skip.match(r.apiVersion, r.kind);
    if (skipped !== undefined) {
      r.status = "skipped";
      r.valid = false;
      r.reason = `kind ${skipped} is skipped (--skip)`;
      return r;
    }
    if (isCrdDoc(obj)) {
      const c = tryCompileCrd(obj);
      return c.ok ? r : invalid(r, invalidCrdErrors(obj, c.errors, doc, prefix));
    }
    const found = resolve(r.apiVersion, r.kind);
    if (found.type === "missing") {
      if (opts.ignoreMissingSchemas) {
        r.status = "skipped";
        r.valid = false;
        r.reason = found.message;
        return r;
      }
      return docError(found.message, "NoKindMatch");
    }
    if (found.type === "crd-invalid") return docError(found.message, "CRDInvalid");
    const crd = found.validator;
    const version = found.version;
    if (size > MAX_REQUEST_BODY_BYTES / 4 && goJsonMarshalSize(obj, MAX_REQUEST_BODY_BYTES) > MAX_REQUEST_BODY_BYTES) {
      return invalid(r, [
        {
          type: "RequestEntityTooLarge",
          field: "",
          message: `Request entity too large: limit is ${MAX_REQUEST_BODY_BYTES}`,
          line: r.line,
          column: r.column,
        },
      ]);
    }
    const old = olds.size === 0 ? undefined : olds.get(oldObjectKey(obj, crd.namespaced));
    const strictDecodingErrors = item === undefined ? doc.strictErrors : [];
    // a file stands for a client's request: server-managed metadata is wiped on create, as the API server does
    // the document was decoded for this request alone and is not read after it: no copy is made
    const ropts = { version, fieldValidation: opts.fieldValidation, strictDecodingErrors, wipeSystemFields: true, consumeInput: true };
    let res: PipelineResult;
    if (old) {
      r.operation = "update";
      const [n, o] = withResourceVersion(obj, asStored(old, crd.namespaced));
      res = crd.update(n, o, ropts);
    } else {
      r.operation = "create";
      res = crd.create(obj, ropts);
    }
    const errors: ResultError[] = [];
    if (res.decodeError !== undefined) {
      r.decodeError = res.decodeError;
      if (res.decodeError.includes(": strict decoding error: ")) {
        for (const s of strictDecodingErrors) {
          const m = /^duplicate field "(.*)"$/.exec(s);
          const field = m ? m[1]! : "";
          const pos = field === "" ? (doc.strictErrorPosition ?? doc.locate(at("<nil>"))) : doc.locate(at(field));
          errors.push({ type: "DuplicateField", field, message: s, ...pos });
        }
        for (const f of res.unknownFields) {
          errors.push({ type: "UnknownField", field: f, message: `unknown field "${f}"`, ...doc.locate(at(f)) });
        }
      } else errors.push({ type: "DecodeError", field: "", message: res.decodeError, line: r.line, column: r.column });
    }
    for (const e of res.errors) errors.push({ type: e.type, field: e.field, message: errorString(e), ...doc.locate(at(e.field)) });
    r.warnings.push(...res.warnings.map((message) => warningAt(message, doc, at, item === undefined)));
    if (opts.showObject) r.object = res.object;
    return errors.length > 0 ? invalid(r, errors) : r;
  }
}
