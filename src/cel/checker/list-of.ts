/**
 * Shared list types for the checker.
 * @module
 */
import { type CelType, listType } from "../types/types.js";

const LIST_TYPES = new WeakMap<CelType, CelType>();

/**
 * `list(elem)`, one shared object per element type without parameters (types are never modified): the
 * overload resolutions of calls on list literals and list results (`x in ['a', 'b']`, `size([...])`) are
 * then cached, as the resolution cache keys argument types by identity.
 */
export function listOf(elem: CelType): CelType {
  if (elem.params.length > 0 || elem.kind === "type_param") return listType(elem);
  let t = LIST_TYPES.get(elem);
  if (t === undefined) {
    t = listType(elem);
    LIST_TYPES.set(elem, t);
  }
  return t;
}
