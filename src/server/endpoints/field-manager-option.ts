/** The `fieldManager` option checks of Create/Update/PatchOptions (apimachinery `ValidateFieldManager`). */
import { fieldError, FieldPath, type FieldError } from "../../errors/index.js";
import { apiErrors } from "./errors.js";
import type { QueryParams } from "./request-url.js";
import { escapedByte, goByteLength } from "../../go/utf8.js";

/** `FieldManagerMaxLength`. */
const MAX_LENGTH = 128;

/** Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols and the ASCII space. */
function isPrint(ch: string): boolean {
  return ch === " " || /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u.test(ch);
}

/** `ValidateFieldManager`: more than 128 bytes, and each non-printable character with its byte position. */
export function fieldManagerErrors(query: QueryParams): FieldError[] {
  const m = query.get("fieldManager") ?? "";
  const path = FieldPath.of("fieldManager");
  const errs: FieldError[] = [];
  if (goByteLength(m) > MAX_LENGTH) errs.push(fieldError.tooLong(path, MAX_LENGTH));
  let pos = 0;
  for (const ch of m) {
    // Ranging over a Go string reads a byte that is not UTF-8 as U+FFFD, a printable rune, one byte wide.
    if (escapedByte(ch.codePointAt(0)!) >= 0) {
      pos++;
      continue;
    }
    if (!isPrint(ch)) {
      const hex = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
      errs.push(fieldError.invalid(path, m, `invalid character U+${hex} (at position ${pos})`));
    }
    pos += Buffer.byteLength(ch);
  }
  return errs;
}

/** `ValidateDryRun` and `ValidateFieldValidation` of Create/Update/PatchOptions (the query's values). */
export function dryRunAndFieldValidationErrors(query: QueryParams): FieldError[] {
  const errs: FieldError[] = [];
  const dry = query.getAll("dryRun");
  if (dry.some((d) => d !== "All")) errs.push(fieldError.notSupported(FieldPath.of("dryRun"), dry, ["All"]));
  const fv = query.get("fieldValidation") ?? "";
  if (!["", "Ignore", "Strict", "Warn"].includes(fv)) errs.push(fieldError.notSupported(FieldPath.of("fieldValidation"), fv, ["", "Ignore", "Strict", "Warn"]));
  return errs;
}

/**
 * `ValidateCreateOptions` / `ValidateUpdateOptions`: throws the API server's 422 (`<kind>.meta.k8s.io "" is
 * invalid: fieldManager: Too long: may not be more than 128 bytes`, `… Invalid value: "…": invalid character
 * U+0007 (at position 3)`, `dryRun: Unsupported value: ["Some"]: …`, `fieldValidation: Unsupported value: …`).
 */
export function checkFieldManager(query: QueryParams, optionsKind: "CreateOptions" | "UpdateOptions"): void {
  const errs = [...fieldManagerErrors(query), ...dryRunAndFieldValidationErrors(query)];
  if (errs.length > 0) throw apiErrors.invalid(optionsKind, "meta.k8s.io", "", errs);
}
