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

/** A fresh registry with the standard library and Kubernetes' cel-go extensions. */
export function standardFunctions(): FunctionRegistry {
  return new FunctionRegistry(standardOverloads(), stringsExtOverloads(), collectionsExtOverloads());
}
