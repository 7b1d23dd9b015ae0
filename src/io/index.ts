export * from "./decode.js";
export * from "./source-text.js";
export * from "./locate.js";
export { resolvePlain } from "./go-yaml-resolve.js";
export { MAX_DEPTH } from "./yaml-decode.js";
export { listItems } from "./list.js";
