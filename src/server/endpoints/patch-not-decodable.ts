/** The patch handler's answer to a patched document that does not decode. */
import { fieldError, FieldPath } from "../../errors/index.js";
import { type ApiError, apiErrors } from "./errors.js";

/**
 * `NewInvalid(GroupKind{}, "", [Invalid(patch, <patched JSON>, <decode error>)])`: 422 on field `patch` with the
 * patched document's JSON text `text` as the value and the decoding error `detail`.
 */
export function patchNotDecodable(text: string, detail: string): ApiError {
  const err = apiErrors.invalid("", "", "", [fieldError.invalid(FieldPath.of("patch"), text, detail)]);
  const d = err.status.details;
  if (d) {
    // StatusDetails' name, group and kind are omitempty.
    delete d.name;
    delete d.group;
    delete d.kind;
  }
  return err;
}
