export * from "./json-value.js";
export * from "./go-format.js";
