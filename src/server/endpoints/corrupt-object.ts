/**
 * Objects the store holds but the server cannot decode (a stored version the CRD no longer has, a failing
 * conversion webhook): `storage.NewCorruptObjError` texts. A GET answers 500 InternalError with the text; a
 * list answers 500 `StorageReadError` naming every such object by its full storage key, as the API server
 * does.
 */
import { failureStatus } from "../../errors/index.js";
import { ApiError, groupResource } from "./errors.js";

/** `StorageError: corrupt object …` for one object. */
export function corruptObjectText(key: string, revision: number, reason: string): string {
  return `StorageError: corrupt object, Code: 7, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: object not decodable revision=${revision}: ${reason}`;
}

/** The 500 of a GET of an object that does not decode (`errors.NewInternalError`). */
export class CorruptObjectError extends ApiError {
  constructor(
    /** The storage key (with the store's prefix). */
    readonly storageKey: string,
    readonly revision: number,
    readonly reason: string,
    /** The key as the single-object read names it (without the store's `/registry` prefix). */
    shownKey: string,
  ) {
    const text = corruptObjectText(shownKey, revision, reason);
    super(failureStatus(500, "InternalError", `Internal error occurred: ${text}`, { causes: [{ message: text }] }));
  }
}

/** The 500 of a list that met objects that do not decode. */
export function storageReadError(plural: string, group: string, failed: readonly CorruptObjectError[]): ApiError {
  const texts = failed.map((f) => corruptObjectText(f.storageKey, f.revision, f.reason));
  const aggregate = texts.length === 1 ? texts[0]! : `[${texts.join(", ")}]`;
  return new ApiError(
    failureStatus(500, "StorageReadError", `failed to read one or more ${groupResource(plural, group)} from the storage: ${aggregate}`, {
      name: "list",
      group,
      kind: plural,
      causes: failed.map((f, i) => ({ reason: "UnexpectedServerResponse", message: texts[i]!, field: f.storageKey })),
    }),
  );
}
