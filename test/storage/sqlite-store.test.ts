import { SqliteStore } from "../../src/storage/sqlite-store.js";
import { storeSuite } from "./store-suite.js";

storeSuite("SqliteStore", async () => {
  const store = new SqliteStore({ path: ":memory:" });
  return { store, compact: (rev) => store.compact(rev), close: () => store.close() };
});
