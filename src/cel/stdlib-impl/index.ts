/**
 * Function implementations: the standard library and the extensions Kubernetes
 * enables, as a {@link FunctionRegistry}.
 *
 * @module
 */

import { FunctionRegistry } from "../interpreter/functions.js";
import { collectionsExtOverloads } from "./collections-ext.js";
import { standardOverloads } from "./standard.js";
import { stringsExtOverloads } from "./strings-ext.js";

/** Options of {@link standardFunctions}. */
export interface StandardFunctionsOptions {
  /**
   * cel-go `ext.StringsVersion`. Kubernetes uses 2 (its `format` is cel-go's first formatter);
   * default: the latest (spec-conformant `format`).
   */
  readonly stringsVersion?: number;
}

/** A fresh registry with the standard library and Kubernetes' cel-go extensions. */
export function standardFunctions(options: StandardFunctionsOptions = {}): FunctionRegistry {
  return new FunctionRegistry(
    standardOverloads(),
    stringsExtOverloads(options.stringsVersion),
    collectionsExtOverloads(),
  );
}
