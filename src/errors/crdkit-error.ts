/** Thrown for misuse of the library (never for problems in user data, which are returned as values). */
export class CrdkitError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "CrdkitError";
  }
}
