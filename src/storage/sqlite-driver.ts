/**
 * better-sqlite3 is an optional dependency (it compiles native code when no prebuilt binary fits): it is
 * loaded on first use by the SQLite store only, so that installing crdkit and running `crdkit validate`
 * or `crdkit check` needs no compiler. When it is missing, opening a store fails with a message that
 * says how to get it.
 */
import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";

/** The better-sqlite3 `Database` constructor. */
export type SqliteDatabaseConstructor = typeof BetterSqlite3;

/** What the store says when better-sqlite3 cannot be loaded. */
export const SQLITE_MISSING_MESSAGE =
  "the SQLite store needs the optional dependency better-sqlite3, which is not installed or could not be loaded " +
  "(npm install better-sqlite3; it was left out by --omit=optional or failed to build)";

/** Thrown when the optional better-sqlite3 module cannot be loaded. */
export class SqliteDriverMissingError extends Error {
  constructor(cause: unknown) {
    const detail = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    super(`${SQLITE_MISSING_MESSAGE}: ${detail}`, { cause });
    this.name = "SqliteDriverMissingError";
  }
}

let cached: SqliteDatabaseConstructor | undefined;

/**
 * Loads better-sqlite3 (once). `load` replaces Node's `require` (tests simulate a missing module with it;
 * a replacement's result is not cached).
 */
export function loadSqliteDriver(load?: (id: string) => unknown): SqliteDatabaseConstructor {
  if (load === undefined && cached !== undefined) return cached;
  let mod: unknown;
  try {
    mod = (load ?? createRequire(import.meta.url))("better-sqlite3");
  } catch (e) {
    throw new SqliteDriverMissingError(e);
  }
  const ctor = (typeof mod === "function" ? mod : (mod as { default?: unknown } | null)?.default) as SqliteDatabaseConstructor | undefined;
  if (typeof ctor !== "function") throw new SqliteDriverMissingError(new Error("better-sqlite3 did not export a Database constructor"));
  if (load === undefined) cached = ctor;
  return ctor;
}

/** True when better-sqlite3 can be loaded. */
export function sqliteAvailable(): boolean {
  try {
    loadSqliteDriver();
    return true;
  } catch (e) {
    if (e instanceof SqliteDriverMissingError) return false;
    throw e;
  }
}
