/** Command-line parsing for `crdkit validate`. */
import type { FieldValidationMode } from "../pipeline/types.js";
import { type OutputFormat, UsageError, fieldValidationFlag, outputFlag, scanArgv } from "./argv-scan.js";

export { type OutputFormat, UsageError, enumValue } from "./argv-scan.js";

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
  ignoreMissingSchemas: boolean;
  /** --skip entries (`Kind` or `apiVersion/Kind`). */
  skip: string[];
  exclude: string[];
  kubeconfig: string | undefined;
  context: string | undefined;
  /** `--kubernetes-version`: release of the built-in kinds' schemas (default: newest). */
  kubernetesVersion: string | undefined;
}

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
    ignoreMissingSchemas: false,
    skip: [],
    exclude: [],
    kubeconfig: undefined,
    context: undefined,
    kubernetesVersion: undefined,
  };
  scanArgv(argv, {
    input: (path) => a.inputs.push(path),
    flag: (flag, value) => {
      switch (flag) {
        case "--crds":
        case "--crd":
          a.crds.push(value());
          break;
        case "--old":
          a.old.push(value());
          break;
        case "-o":
        case "--output":
          a.output = outputFlag(value());
          break;
        case "--field-validation":
          a.fieldValidation = fieldValidationFlag(value());
          break;
        case "--ignore-missing-schemas":
          a.ignoreMissingSchemas = true;
          break;
        case "--skip":
          a.skip.push(...value().split(",").map((k) => k.trim()).filter((k) => k !== ""));
          break;
        case "--exclude":
          a.exclude.push(value());
          break;
        case "--kubeconfig":
          a.kubeconfig = value();
          break;
        case "--kubernetes-version":
          a.kubernetesVersion = value();
          break;
        case "--context":
          a.context = value();
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
          const v = value();
          if (!/^[1-9][0-9]{0,3}$/.test(v)) throw new UsageError(`${flag} needs a positive number of worker threads, got "${v}"`);
          a.jobs = Number(v);
          break;
        }
        default:
          throw new UsageError(`unknown flag ${flag}`);
      }
    },
  });
  if (a.context !== undefined && a.kubeconfig === undefined) throw new UsageError("flag --context needs --kubeconfig");
  return a;
}

export const VALIDATE_USAGE = `Usage: crdkit validate [--crds PATH]... [--old PATH]... [--kubeconfig PATH [--context NAME]]
                       [--ignore-missing-schemas] [--skip KIND[,KIND]]... [--exclude GLOB]...
                       [-o text|json|junit|github] [--field-validation Strict|Warn|Ignore]
                       [--kubernetes-version 1.NN] [--show-object] [-v] [--no-cache] [-j N] [PATH|-]...

Validates custom resources against their CustomResourceDefinitions exactly as a Kubernetes API server
would on create (or update, with --old): pruning, defaulting, the same errors in the same order.
A document whose kind has no schema is an error (kubectl's "no matches for kind ..."): there are no
silent passes (--ignore-missing-schemas makes it a skip).

Built-in kinds (Deployment, Service, ConfigMap, ...) are validated against the Kubernetes release's
published OpenAPI schemas through the same machinery, as kubectl-validate does: unknown and duplicate
fields, types, required fields, formats, int-or-string, list-map keys, defaults, metadata (names, labels,
annotations). NOT checked for built-in kinds: the API server's hand-written Go validation, e.g. that a
Deployment's selector matches its template labels, port numbers are in range, Service names are DNS-1035
labels, Pod template labels are well-formed, or that enum-like strings (imagePullPolicy, protocol, ...)
have a known value: the published schemas carry no enums.

  PATH                     files (multi-document YAML, JSON, kind: List) or directories (recursive,
                           *.yaml, *.yml, *.json); "-" reads standard input, and a pipe
                           works as a path too (--crds <(kustomize build) <(helm template .))
  --crds PATH              CRD files or directories (repeatable); CRDs among the inputs are used too.
                           Two CRDs with the same name: a warning, and the later one wins
  --old PATH               previous versions of the objects (matched by apiVersion, kind, namespace
                           as stored, name); matching inputs are validated as updates
  --kubeconfig PATH        also use the CRDs of the cluster in this kubeconfig (local files override)
  --context NAME           the kubeconfig context (default: current-context)
  --ignore-missing-schemas report kinds without a schema as skipped instead of invalid
  --skip KIND[,KIND]       leave kinds out: Kind or apiVersion/Kind (apps/v1/Deployment); repeatable
  --exclude GLOB           leave input files out (*, ?, **, [..], {a,b}; a name without "/" matches
                           anywhere, a matching directory is not walked); repeatable
  -o, --output FORMAT      text (default), json, junit or github (any case)
  --field-validation MODE  Strict (default, like kubectl), Warn or Ignore: how unknown and duplicate
                           fields are reported (the stored object is pruned in every mode)
  --kubernetes-version V   release whose built-in schemas are used: 1.27 ... 1.37 (default: newest)
  --show-object            include the object as the API server would store it (json output)
  -v, --verbose            also list skipped documents (text output)
  --color, --no-color      force colours on or off (default: on when stdout is a terminal)
  --no-cache               do not use the compiled-CRD cache ($XDG_CACHE_HOME/crdkit or ~/.cache/crdkit)
  -j, --jobs N             worker threads for large inputs (default: the number of cores)

Exit status: 0 all valid, 1 some resource invalid (or without a schema, or no document at all),
2 usage, I/O or cluster error.
`;
