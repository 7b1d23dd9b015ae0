/**
 * Admission of custom resources for one CRD version: the engine's compiled pipeline (decode, prune,
 * default, prepare, validate). When the CRD cannot be compiled (it was accepted by an older check), the
 * server's basic admission (TypeMeta, name, strategy preparation) is used instead.
 */
import { PIPELINE_GAPS } from "../../pipeline/index.js";
import type { CompileResult } from "../../pipeline/compile.js";
import type { PipelineResult } from "../../pipeline/types.js";
import { basicAdmission, validateObjectName } from "./basic-admission.js";
import { groupVersion, type Admission, type ResourceType } from "./resource-type.js";

/** While the pipeline does not validate ObjectMeta itself, the server checks the object name. */
const PIPELINE_CHECKS_NAMES = !PIPELINE_GAPS.some((g) => g.startsWith("ObjectMeta validation"));

function withNameCheck(res: PipelineResult): PipelineResult {
  if (PIPELINE_CHECKS_NAMES || !res.object || res.errors.length > 0) return res;
  const errs = validateObjectName(res.object);
  return errs.length === 0 ? res : { ...res, errors: errs };
}

/** Builds the admission for `version` of a CRD from its compilation (shared by all its versions). */
export function createCrAdmission(compiled: CompileResult, version: string, rt: ResourceType): Admission {
  if (!compiled.ok) return basicAdmission(rt.kind, groupVersion(rt.group, version), rt.status);
  const c = compiled.compiled;
  return {
    // The server wipes and fills uid/creationTimestamp itself before admission (rest-write.ts).
    create: (obj, opts) => withNameCheck(c.create(obj, { ...opts, version, wipeSystemFields: false })),
    update: (n, o, opts) => c.update(n, o, { ...opts, version }),
    updateStatus: (n, o, opts) => c.updateStatus(n, o, { ...opts, version }),
  };
}
