/**
 * Where the runtime validator of a schema finds and keeps its nodes' compiled programs across processes
 * (the compiled-program cache of `crdkit validate`): a store attached to a root structural schema. The
 * validator asks it for a node's entry (./program-entry.ts) before compiling the node's rules, and gives
 * it the entry of a node it compiled. The store itself (reading and writing files) lives with its user.
 */
import type { Structural } from "../structural/structural.js";
import type { NodeProgramsJson } from "./program-entry.js";

/** Entries of the rule-carrying nodes of one root schema, by node key (see {@link attachRuleProgramStore}). */
export interface RuleProgramStore {
  /** The entry kept for a node: parsed JSON of unknown shape (validated when read), or undefined. */
  get(nodeKey: string): unknown;
  /** Keeps the entry of a node compiled in this process. */
  put(nodeKey: string, entry: NodeProgramsJson): void;
}

const stores = new WeakMap<Structural, RuleProgramStore>();

/**
 * Attaches `store` to the root schema `root` (before its first validation): node keys name a node by its
 * place under the root (`r` or `n` for a resource root or not, then `.<length>:<name>` per property, `[]` items,
 * `{}` additionalProperties, `&n` allOf entry n). The entries must be for exactly this schema (the store's
 * owner keys them by the schema's content and crdkit's build).
 */
export function attachRuleProgramStore(root: Structural, store: RuleProgramStore): void {
  if (!stores.has(root)) stores.set(root, store);
}

/** The store attached to a root schema, if any. */
export function ruleProgramStoreOf(root: Structural): RuleProgramStore | undefined {
  return stores.get(root);
}
