export * from "./types.js";
export { compileCrd, tryCompileCrd, CompiledCrdImpl, type CompileResult, type CompiledVersion } from "./compile.js";
export { PIPELINE_GAPS } from "./request.js";
export { createFromJson, updateFromJson, updateStatusFromJson } from "./request-body.js";
