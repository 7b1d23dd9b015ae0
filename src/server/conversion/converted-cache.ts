/**
 * What the API server's watch cache holds for a webhook-converted CRD: each stored state of an object
 * converted once to each served version, when the change arrives. Lists at `resourceVersion=0`, watches,
 * and the current object of updates and deletes (`GuaranteedUpdate` with the cached existing object) are
 * served from it, without calling the webhook again; GETs and other lists read etcd and call it each time.
 * crdkit converts when it serves and remembers the first conversion of each stored state here (keyed by the
 * stored text, which holds everything but the resourceVersion). Bounded: at most {@link MAX_STATES} states
 * per key and version and {@link MAX_KEYS} keys, the oldest dropped first.
 */
import { createHash } from "node:crypto";
import { deepClone, type JsonObject } from "../../value/json-value.js";

const MAX_KEYS = 2_000;
const MAX_STATES = 4;

export class ConvertedCache {
  private readonly entries = new Map<string, Map<string, JsonObject>>();

  private static id(key: string, version: string): string {
    return `${version}\u0000${key}`;
  }

  private static state(text: string): string {
    return createHash("sha256").update(text).digest("base64");
  }

  /** Remembers `obj`, the stored `text` of `key` converted to `version` (the first conversion is kept). */
  remember(key: string, version: string, text: string, obj: JsonObject): void {
    const id = ConvertedCache.id(key, version);
    const state = ConvertedCache.state(text);
    let states = this.entries.get(id);
    if (states?.has(state)) return;
    if (!states) {
      states = new Map();
      this.entries.set(id, states);
      if (this.entries.size > MAX_KEYS) this.entries.delete(this.entries.keys().next().value as string);
    }
    states.set(state, deepClone(obj));
    if (states.size > MAX_STATES) states.delete(states.keys().next().value as string);
  }

  /** The earlier conversion of the stored `text` of `key` to `version`, if still held. */
  recall(key: string, version: string, text: string): JsonObject | undefined {
    const obj = this.entries.get(ConvertedCache.id(key, version))?.get(ConvertedCache.state(text));
    return obj ? deepClone(obj) : undefined;
  }
}
