/**
 * The CEL environments of x-kubernetes-validations (apiserver `environment.MustBaseEnvSet` extended with
 * `self` / `oldSelf`, apiextensions `prepareEnvSet`): Kubernetes libraries, extended validations, and the
 * Kubernetes list/object equality and `+` overriding the engine's defaults.
 */
import { type CelValue, Env, type FunctionRegistry, optionalType } from "../cel/index.js";
import { assignTypeNames, celTypeOf, type DeclType, objectTypeDecls } from "./decl-type.js";
import { KUBE_OPAQUE_TYPES, kubeLibraryFunctions } from "./library/functions.js";
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
  optionalEnv: Env;
  declType: DeclType;
}

/** Builds the environments for rules on a node with the given DeclType (object types are named `selfType<n>`). */
export function ruleEnvs(declType: DeclType, flavor: EnvFlavor): RuleEnvs {
  assignTypeNames(declType, uniqueSelfTypeName());
  const t = celTypeOf(declType);
  const base = {
    objectTypes: objectTypeDecls(declType),
    opaqueTypes: KUBE_OPAQUE_TYPES,
    functions: flavor === "stored" ? LIBS : LIBS_NEW,
    extendedValidations: true,
  };
  const env = new Env({ ...base, variables: { self: t, oldSelf: t } });
  const optionalEnv = new Env({ ...base, variables: { self: t, oldSelf: optionalType(t) } });
  installKubeOverrides(env.functions());
  installKubeOverrides(optionalEnv.functions());
  return { env, optionalEnv, declType };
}
