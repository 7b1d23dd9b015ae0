/** The API server's answer to a patch whose result nests deeper than the decoder allows. */
import { MAX_DEPTH } from "../../io/yaml-decode.js";
import { goJsonMarshal } from "../../go/json.js";
import type { JsonValue } from "../../value/json-value.js";
import type { ApiError } from "./errors.js";
import { patchNotDecodable } from "./patch-not-decodable.js";

/**
 * The patched document fails to decode: `NewInvalid(GroupKind{}, "", [Invalid(patch, <patched JSON>,
 * <decode error>)])`, 422, with Go's scanner text `invalid character '{' exceeded max depth` naming the
 * bracket that went one level too deep (crdkit's decoder limit is {@link MAX_DEPTH}).
 */
export function patchTooDeep(doc: JsonValue): ApiError {
  const text = goJsonMarshal(doc);
  return patchNotDecodable(text, `invalid character '${tooDeepBracket(text)}' exceeded max depth`);
}

/** The first `{` or `[` (outside strings) that opens level MAX_DEPTH + 1 of `text`. */
function tooDeepBracket(text: string): string {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") {
      if (++depth > MAX_DEPTH) return c;
    } else if (c === "}" || c === "]") depth--;
  }
  return "{";
}
