export * from "./field-path.js";
export * from "./field-error.js";
export * from "./status.js";
export * from "./crdkit-error.js";
