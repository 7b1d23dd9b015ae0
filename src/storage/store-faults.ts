/**
 * Storage faults of the SQLite store, as typed errors the server turns into clear answers: the data
 * directory in use by another server, a damaged database, and damage found while serving.
 */

/** Another process holds the database (SQLite's exclusive lock, released by the OS when it exits). */
export class DataDirInUseError extends Error {}

/** The database failed its integrity check or is not a database. */
export class StorageCorruptError extends Error {}

/** Thrown by a store that found damage while serving: writes are refused until it is repaired. */
export class StoreFaultError extends Error {}

/** SQLite result codes that mean the file is damaged (or the disk under it fails). */
export function isDamageCode(code: unknown): boolean {
  return typeof code === "string" && (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB" || code.startsWith("SQLITE_IOERR"));
}
