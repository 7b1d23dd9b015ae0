export * from "./types.js";
export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
