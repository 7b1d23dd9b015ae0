/** Reading CRDs: decoding (v1, v1beta1), v1 defaulting, the internal hoisted form. */
export * from "./types.js";
export { decodeCrd, strictDecodingMessage, CRD_GROUP, type DecodedCrd, type CrdDecodeFailure } from "./decode-crd.js";
export * from "./internal.js";
export { applyV1Defaults } from "./defaults.js";
export { internalToV1, v1beta1Defaults } from "./v1beta1.js";
export { semanticEqual } from "./semantic-equal.js";
