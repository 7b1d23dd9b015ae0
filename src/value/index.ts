export * from "./json-value.js";
