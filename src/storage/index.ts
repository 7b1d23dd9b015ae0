export * from "./types.js";
export { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
export { EtcdStore, type EtcdStoreOptions } from "./etcd/etcd-store.js";
export { MemoryStore, type MemoryStoreOptions } from "./memory-store.js";
