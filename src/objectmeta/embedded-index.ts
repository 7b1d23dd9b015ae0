/**
 * Per-schema-node cache: does this subtree contain an `x-kubernetes-embedded-resource` node? Coercion and
 * embedded validation skip subtrees without one (they would find nothing to do there). Answered by the
 * structural model's shared subtree facts (../structural/subtree-facts.ts).
 */
export { hasEmbedded } from "../structural/subtree-facts.js";
