/**
 * Opening the SQLite database of `crdkit serve --data DIR`: an exclusive lock for the life of the
 * process (a second server on the same directory is refused; the OS drops the lock when a process dies,
 * so a killed server never blocks a restart), and an integrity check before anything is served.
 */
import type Database from "better-sqlite3";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadSqliteDriver } from "./sqlite-driver.js";
import { DataDirInUseError, isDamageCode, StorageCorruptError } from "./store-faults.js";

/** The file naming the process that holds the data directory (informational: the lock is SQLite's). */
function pidFile(path: string): string {
  return join(dirname(path), "crdkit.pid");
}

function holder(path: string): string {
  try {
    const pid = readFileSync(pidFile(path), "utf8").trim();
    return /^\d+$/.test(pid) ? ` (process ${pid})` : "";
  } catch {
    return "";
  }
}

/** Opens `path` (or `:memory:`) in WAL mode; file databases are locked and checked. */
export function openSqlite(path: string, synchronous: "FULL" | "NORMAL"): Database.Database {
  // better-sqlite3 is optional: loaded here, with a clear error when it is missing.
  const Database = loadSqliteDriver();
  if (path === ":memory:") {
    const db = new Database(path);
    db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${synchronous}`);
    return db;
  }
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { timeout: 200 });
    // EXCLUSIVE before WAL: the WAL index lives in process memory and the file lock is never released.
    db.pragma("locking_mode = EXCLUSIVE");
    db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${synchronous}`);
    // An empty write transaction takes the exclusive lock now rather than at the first request.
    db.exec("BEGIN EXCLUSIVE; COMMIT;");
    const problems = db.pragma("quick_check(5)", { simple: false }) as { quick_check: string }[];
    const lines = problems.flatMap((r) => r.quick_check.split("\n")).slice(0, 5);
    if (lines.length !== 1 || lines[0] !== "ok") {
      throw new StorageCorruptError(
        `the database ${path} is damaged (PRAGMA quick_check: ${lines.join("; ")}); restore it from a backup or move it away to start empty`,
      );
    }
  } catch (e) {
    db?.close();
    if (e instanceof StorageCorruptError) throw e;
    const code = (e as { code?: unknown }).code;
    if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
      throw new DataDirInUseError(
        `the data directory ${dirname(path)} is in use by another crdkit serve${holder(path)}: its database ${path} is locked`,
      );
    }
    if (isDamageCode(code)) {
      throw new StorageCorruptError(
        `the database ${path} is damaged (${(e as Error).message}); restore it from a backup or move it away to start empty`,
      );
    }
    throw e;
  }
  writeFileSync(pidFile(path), `${process.pid}\n`);
  return db;
}

/** Removes the PID file of `path` if this process wrote it (after the database is closed). */
export function releaseSqlite(path: string): void {
  if (path === ":memory:") return;
  try {
    if (readFileSync(pidFile(path), "utf8").trim() === String(process.pid)) rmSync(pidFile(path), { force: true });
  } catch {
    // already gone
  }
}
