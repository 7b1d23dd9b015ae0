/**
 * Number literals of a JSON or merge patch as the patch handler sees them: json-patch keeps patch values as raw
 * JSON (`json.RawMessage`), so the patched document a 422 quotes holds them as they were sent (`-0`, `1.0`,
 * `1e3`, `1e400`), and only the decoders that convert numbers fail on one beyond float64. The request's own
 * value keeps Go's numbers; these texts come from a second, raw decode of the body, made only for such bodies.
 */
import { decodeJsonStream } from "../../io/json-decode.js";
import { firstOutOfRangeLiteral, Float64, isObject, type JsonValue, RawNumber } from "../../value/json-value.js";

/** A skeleton of the body (strings emptied) has a literal that Go prints otherwise: a float, `-0`, or 16+ digits. */
const OTHERWISE_PRINTED = /\d[.eE]|\d{16}|-0/;

/** Whether `text` may hold a number literal that a decoded value would not print back as it is. */
export function hasRawNumbers(text: string): boolean {
  // (`\\"` inside a string would end the emptying early: such bodies are taken as having one)
  return OTHERWISE_PRINTED.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'));
}

/** The body decoded with its number literals kept ({@link RawNumber}); undefined when it does not decode. */
export function rawPatchValue(text: string): JsonValue | undefined {
  const r = decodeJsonStream(text, { recordRangeErrors: true, rawNumbers: true });
  return r.problem || r.documents.length !== 1 ? undefined : r.documents[0]!.value;
}

/** The first literal beyond float64 in `v`, in document order (a value of {@link rawPatchValue}). */
export const firstOutOfRange = firstOutOfRangeLiteral;

/**
 * `value` (a decoded body) with each number beyond float64 replaced by the {@link RawNumber} of the same place in
 * `sent` (the same body decoded by {@link rawPatchValue}), so that an error can name its text.
 */
export function withOutOfRangeTexts<T extends JsonValue>(value: T, sent: JsonValue): T {
  if (value instanceof Float64 && !Number.isFinite(value.value)) return (sent instanceof RawNumber ? sent : value) as T;
  if (Array.isArray(value) && Array.isArray(sent)) {
    for (let i = 0; i < value.length; i++) value[i] = withOutOfRangeTexts(value[i]!, sent[i]!);
  } else if (isObject(value) && isObject(sent)) {
    for (const k of Object.keys(value)) if (Object.hasOwn(sent, k)) value[k] = withOutOfRangeTexts(value[k]!, sent[k]!);
  }
  return value;
}
