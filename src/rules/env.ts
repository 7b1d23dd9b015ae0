/**
 * The CEL environments of x-kubernetes-validations (apiserver `environment.MustBaseEnvSet` extended with
 * `self` / `oldSelf`, apiextensions `prepareEnvSet`): Kubernetes libraries, extended validations, and the
 * Kubernetes list/object equality and `+` overriding the engine's defaults.
 */
import { type CelValue, DurationType, Env, type FunctionRegistry, optionalType, ParseCache, runtimeFunctions, TimestampType } from "../cel/index.js";
import type { DeclType } from "./decl-type.js";
import { declTypeSource, namedCelType } from "./decl-type-source.js";
import { KUBE_OBJECT_TYPES, KUBE_OPAQUE_TYPES, kubeLibraryFunctions } from "./library/functions.js";
import { kubeAddLists, kubeEquals } from "./values.js";

/** Which environment: NewExpressions (compatibility version 1.36) or StoredExpressions (every library). */
export type EnvFlavor = "new" | "stored";

const LIBS = kubeLibraryFunctions();
/** `includes` (Lists v1) arrives with 1.37: only in the StoredExpressions environment of a 1.37 server. */
const LIBS_NEW = LIBS.filter((f) => f.name !== "includes");

let counter = 0;

/** The type name Kubernetes gives `self` (`selfType<n>`); unique per compilation. */
export function uniqueSelfTypeName(): string {
  counter = (counter + 1) % 1000000000;
  return `selfType${counter}`;
}

function installKubeOverrides(reg: FunctionRegistry): void {
  const eq = reg.byOverloadId("equals");
  const ne = reg.byOverloadId("not_equals");
  const addList = reg.byOverloadId("add_list");
  if (eq) reg.add({ ...eq, impl: ((a: CelValue, b: CelValue) => kubeEquals(a, b)) as never });
  if (ne)
    reg.add({
      ...ne,
      impl: ((a: CelValue, b: CelValue) => {
        const r = kubeEquals(a, b);
        return typeof r === "boolean" ? !r : r;
      }) as never,
    });
  if (addList) reg.add({ ...addList, impl: ((a: CelValue[], b: CelValue[]) => kubeAddLists(a, b)) as never });
}

/** Environments for the rules of one schema node: with `oldSelf` of the node type, and with `optional_type(T)`. */
export interface RuleEnvs {
  env: Env;
  /** Built on first use (only rules with `optionalOldSelf: true` need it). */
  readonly optionalEnv: Env;
  declType: DeclType;
  /** Function implementations shared by all environments of this flavor (with Kubernetes' equality). */
  registry: FunctionRegistry;
}

const templates = new Map<EnvFlavor, Env>();

/** Parses of rule texts, shared by every node's environments (the same rule recurs across versions and fields). */
const PARSES = new ParseCache();

/**
 * The environment of a flavor every node's environments derive from: the Kubernetes libraries and extended
 * validations, declared once per process (declaring them costs ~1-2 ms; a node environment only adds `self`
 * and `oldSelf`). Its function implementations are also the ones its literal validators evaluate with.
 */
function template(flavor: EnvFlavor): Env {
  let tmpl = templates.get(flavor);
  if (!tmpl) {
    tmpl = new Env({
      opaqueTypes: KUBE_OPAQUE_TYPES,
      unresolvedObjectTypes: KUBE_OBJECT_TYPES,
      functions: flavor === "stored" ? LIBS : LIBS_NEW,
      extendedValidations: true,
      parseCache: PARSES,
    });
    // Kubernetes' type provider (apiserver DeclTypeProvider) resolves its scalar type names too: `duration`
    // and `timestamp` are types to the checker (`type(duration)`); its runtime does not know them (a rule
    // that uses one as a value fails with `program instantiation failed: reference to undefined type: duration`)
    tmpl.types.registerIdentType("duration", DurationType);
    tmpl.types.registerIdentType("timestamp", TimestampType);
    templates.set(flavor, tmpl);
  }
  return tmpl;
}

const registries = new Map<EnvFlavor, FunctionRegistry>();

/** The function registry of a flavor: the standard library, extensions, Kubernetes libraries and overrides. */
export function sharedRegistry(flavor: EnvFlavor): FunctionRegistry {
  let r = registries.get(flavor);
  if (!r) {
    // the template's implementations (Env.functions), without declaring them: a run whose programs are read
    // back from the cache never builds the template; a registry of its own, as the template's (its literal
    // validators') keeps cel-go's equality
    r = runtimeFunctions({ opaqueTypes: KUBE_OPAQUE_TYPES, functions: flavor === "stored" ? LIBS : LIBS_NEW });
    installKubeOverrides(r);
    registries.set(flavor, r);
  }
  return r;
}

/** Builds the environments for rules on a node with the given DeclType (object types are named `selfType<n>`). */
export function ruleEnvs(declType: DeclType, flavor: EnvFlavor): RuleEnvs {
  const name = uniqueSelfTypeName();
  const t = namedCelType(declType, name);
  // the object types are declared on demand: a check builds only the types its expressions select
  const objectTypeSource = declTypeSource(declType, name);
  const tmpl = template(flavor);
  let optional: Env | undefined;
  return {
    env: tmpl.derive({ objectTypeSource, variables: { self: t, oldSelf: t } }),
    get optionalEnv(): Env {
      optional ??= tmpl.derive({ objectTypeSource, variables: { self: t, oldSelf: optionalType(t) } });
      return optional;
    },
    declType,
    registry: sharedRegistry(flavor),
  };
}
