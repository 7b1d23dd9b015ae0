/**
 * The last objects a conversion webhook converted, by storage key, revision and version — what the API
 * server's watch cache holds: it converts each object once when the change arrives, and updates and deletes
 * start from that cached object (`GuaranteedUpdate` with the cached existing object) instead of calling the
 * webhook again. Reads (GET, lists) call the webhook each time, as reads from etcd do. Bounded: the oldest
 * entries are dropped past {@link MAX_ENTRIES}.
 */
import { deepClone, type JsonObject } from "../../value/json-value.js";

const MAX_ENTRIES = 2_000;

export class ConvertedCache {
  private readonly entries = new Map<string, { revision: number; obj: JsonObject }>();

  private static id(key: string, version: string): string {
    return `${version}\u0000${key}`;
  }

  /**
   * Remembers `obj` (served in `version`) as the object at `key` and `revision`. The first conversion of a
   * revision is kept (the watch cache converts each change once, when it arrives).
   */
  remember(key: string, revision: number, version: string, obj: JsonObject): void {
    const id = ConvertedCache.id(key, version);
    const cur = this.entries.get(id);
    if (cur && cur.revision >= revision) return;
    this.entries.delete(id);
    this.entries.set(id, { revision, obj: deepClone(obj) });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** The object converted to `version` at exactly `revision`, if still held. */
  recall(key: string, revision: number, version: string): JsonObject | undefined {
    const e = this.entries.get(ConvertedCache.id(key, version));
    return e && e.revision === revision ? deepClone(e.obj) : undefined;
  }
}
