/** Command-line parsing for `crdkit validate`. */
import type { FieldValidationMode } from "../pipeline/types.js";

export type OutputFormat = "text" | "json" | "junit" | "github";

export interface ValidateArgs {
  crds: string[];
  old: string[];
  inputs: string[];
  output: OutputFormat;
  fieldValidation: FieldValidationMode;
  showObject: boolean;
  verbose: boolean;
  color: boolean | undefined;
  help: boolean;
  /** --no-cache: do not read or write the compiled-CRD cache. */
  noCache: boolean;
  /** -j N: worker threads (undefined: as many as cores, for large inputs). */
  jobs: number | undefined;
  /** `--kubernetes-version`: release of the built-in kinds' schemas (default: newest). */
  kubernetesVersion: string | undefined;
}

/** A usage error (exit code 2). */
export class UsageError extends Error {}

const FORMATS = new Set<OutputFormat>(["text", "json", "junit", "github"]);
const MODES = new Set<FieldValidationMode>(["Strict", "Warn", "Ignore"]);

export function parseValidateArgs(argv: readonly string[]): ValidateArgs {
  const a: ValidateArgs = {
    crds: [],
    old: [],
    inputs: [],
    output: "text",
    fieldValidation: "Strict",
    showObject: false,
    verbose: false,
    color: undefined,
    help: false,
    noCache: false,
    jobs: undefined,
    kubernetesVersion: undefined,
  };
  let i = 0;
  const value = (flag: string, inline: string | undefined): string => {
    if (inline !== undefined) return inline;
    const v = argv[++i];
    if (v === undefined) throw new UsageError(`flag ${flag} needs a value`);
    return v;
  };
  let onlyPaths = false;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPaths || arg === "-" || !arg.startsWith("-")) {
      a.inputs.push(arg);
      continue;
    }
    if (arg === "--") {
      onlyPaths = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    switch (flag) {
      case "--crds":
      case "--crd":
        a.crds.push(value(flag, inline));
        break;
      case "--old":
        a.old.push(value(flag, inline));
        break;
      case "-o":
      case "--output": {
        const v = value(flag, inline) as OutputFormat;
        if (!FORMATS.has(v)) throw new UsageError(`unknown output format "${v}" (want text, json, junit or github)`);
        a.output = v;
        break;
      }
      case "--field-validation": {
        const v = value(flag, inline) as FieldValidationMode;
        if (!MODES.has(v)) throw new UsageError(`unknown --field-validation "${v}" (want Strict, Warn or Ignore)`);
        a.fieldValidation = v;
        break;
      }
      case "--kubernetes-version":
        a.kubernetesVersion = value(flag, inline);
        break;
      case "--show-object":
        a.showObject = true;
        break;
      case "-v":
      case "--verbose":
        a.verbose = true;
        break;
      case "--color":
        a.color = true;
        break;
      case "--no-color":
        a.color = false;
        break;
      case "-h":
      case "--help":
        a.help = true;
        break;
      case "--no-cache":
        a.noCache = true;
        break;
      case "-j":
      case "--jobs": {
        const v = value(flag, inline);
        if (!/^[1-9][0-9]{0,3}$/.test(v)) throw new UsageError(`${flag} needs a positive number of worker threads, got "${v}"`);
        a.jobs = Number(v);
        break;
      }
      default:
        throw new UsageError(`unknown flag ${flag}`);
    }
  }
  return a;
}

export const VALIDATE_USAGE = `Usage: crdkit validate [--crds PATH]... [--old PATH]... [-o text|json|junit|github]
                       [--field-validation Strict|Warn|Ignore] [--kubernetes-version 1.NN]
                       [--show-object] [--no-cache] [-j N] [PATH|-]...

Validates custom resources against their CustomResourceDefinitions exactly as a Kubernetes API server
would on create (or update, with --old): pruning, defaulting, the same errors in the same order.

Built-in kinds (Deployment, Service, ConfigMap, ...) are validated against the Kubernetes release's
published OpenAPI schemas through the same machinery, as kubectl-validate does: unknown and duplicate
fields, types, required fields, formats, int-or-string, list-map keys, defaults, metadata (names, labels,
annotations). NOT checked for built-in kinds: the API server's hand-written Go validation, e.g. that a
Deployment's selector matches its template labels, port numbers are in range, Service names are DNS-1035
labels, Pod template labels are well-formed, or that enum-like strings (imagePullPolicy, protocol, ...)
have a known value: the published schemas carry no enums.

  PATH                     files (multi-document YAML, JSON, kind: List) or directories (recursive,
                           *.yaml, *.yml, *.json); "-" reads standard input
  --crds PATH              CRD files or directories (repeatable); CRDs among the inputs are used too
  --old PATH               previous versions of the objects (matched by apiVersion, kind, namespace,
                           name); matching inputs are validated as updates
  -o, --output FORMAT      text (default), json, junit or github
  --field-validation MODE  Strict (default, like kubectl), Warn or Ignore: how unknown and duplicate
                           fields are reported (the stored object is pruned in every mode)
  --kubernetes-version V   release whose built-in schemas are used: 1.27 ... 1.37 (default: newest)
  --show-object            include the object as the API server would store it (json output)
  -v, --verbose            also list skipped documents (text output)
  --color, --no-color      force colours on or off (default: on when stdout is a terminal)
  --no-cache               do not use the compiled-CRD cache ($XDG_CACHE_HOME/crdkit or ~/.cache/crdkit)
  -j, --jobs N             worker threads for large inputs (default: the number of cores)

Exit status: 0 all valid, 1 some resource invalid, 2 usage or I/O error.
`;
