/** The garbage collector on SQLite (a database file, so restarts keep the data). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteAvailable } from "../../src/storage/sqlite-driver.js";
import { SqliteStore } from "../../src/storage/sqlite-store.js";
import { gcSuite } from "./gc-suite.js";

gcSuite(
  "SQLite",
  async () => {
    const dir = mkdtempSync(join(tmpdir(), "crdkit-gc-"));
    return {
      open: () => new SqliteStore({ path: join(dir, "crdkit.db") }),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  sqliteAvailable() ? false : "better-sqlite3 is not installed",
);
