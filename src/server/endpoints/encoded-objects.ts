/**
 * The JSON answers of recently served objects, so that a GET of an object that has not changed since it was
 * last written or read is answered from its bytes instead of decoding (parse, read defaults) and encoding it
 * again. An answer is a pure function of the resource type (one per CRD revision and version), the stored
 * text and its revision, so an entry is used only when all three are the same: the store is still read on
 * every GET (the answer is exactly what decoding the read value gives). Resources whose reads call a
 * conversion webhook are never cached (every read is a call, as in Kubernetes). Bounded in entries and bytes,
 * least recently used first out.
 */
import type { StoredValue } from "../../storage/types.js";
import type { JsonObject } from "../../value/json-value.js";
import type { ResourceType } from "../registry/resource-type.js";
import { toJson } from "./http-io.js";

interface Entry {
  rt: ResourceType;
  revision: number;
  stored: string;
  json: string;
}

/** Entries kept at most. */
const MAX_ENTRIES = 20_000;
/** Characters of stored and answered text kept at most (about 2 bytes each). */
const MAX_CHARS = 16 * 1024 * 1024;

export class EncodedObjects {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(
    private readonly maxEntries = MAX_ENTRIES,
    private readonly maxChars = MAX_CHARS,
  ) {}

  /** True when reads through `rt` are a pure function of the stored value (no conversion webhook). */
  static cacheable(rt: ResourceType): boolean {
    return rt.converter === undefined || !rt.converter().webhook;
  }

  /** The JSON answer of `sv` read through `rt`, when it was remembered for this exact stored state. */
  get(rt: ResourceType, sv: StoredValue): string | undefined {
    const id = `${rt.version}\u0000${sv.key}`;
    const e = this.entries.get(id);
    if (!e || e.rt !== rt || e.revision !== sv.modRevision || e.stored !== sv.value) return undefined;
    // Most recently used last.
    this.entries.delete(id);
    this.entries.set(id, e);
    return e.json;
  }

  /**
   * Encodes `obj` (`sv` as decoded through `rt`) as Go's json.Encoder writes it (with its newline), remembers
   * the text when `rt` is cacheable, and returns it. The kept text is one flat string: the encoder's result is
   * a rope of V8 cons strings (one heap object per piece), and `join` copies it into one string. Appending the
   * newline per answer instead (session 29) kept every rope alive in this cache (20,000 small CronTabs: server
   * RSS 312 MB instead of 180 MB, all of it for the GC to mark) and flattened a new copy on every GET.
   */
  put(rt: ResourceType, sv: StoredValue, obj: JsonObject): string {
    const json = [toJson(obj), "\n"].join("");
    if (!EncodedObjects.cacheable(rt)) return json;
    const id = `${rt.version}\u0000${sv.key}`;
    const size = json.length + sv.value.length;
    this.drop(id);
    if (size > this.maxChars / 16) return json;
    this.entries.set(id, { rt, revision: sv.modRevision, stored: sv.value, json });
    this.chars += size;
    while (this.entries.size > this.maxEntries || this.chars > this.maxChars) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.drop(oldest);
    }
    return json;
  }

  /** Number of entries (tests). */
  get size(): number {
    return this.entries.size;
  }

  private drop(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    this.chars -= e.json.length + e.stored.length;
  }
}
