/** The playground's verdict (one CRD, one object, an optional old object). Re-exports only. */
export * from "./analyze.js";
