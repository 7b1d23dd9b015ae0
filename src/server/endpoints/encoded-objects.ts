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
  /**
   * By storage key (a string the store hands out again for the same state, whose hash V8 keeps: a key made
   * per read, such as version + key, cost a copy and a hash of it on every GET), the entries of the versions
   * it was read in; least recently used key first.
   */
  private readonly entries = new Map<string, Entry[]>();
  private count = 0;
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
    const es = this.entries.get(sv.key);
    if (es === undefined) return undefined;
    const e = versionEntry(es, rt.version);
    if (!e || e.rt !== rt || e.revision !== sv.modRevision || e.stored !== sv.value) return undefined;
    // The same text: keep the store's string, so that the next read's comparison is of one string with itself.
    e.stored = sv.value;
    // Most recently used last.
    this.entries.delete(sv.key);
    this.entries.set(sv.key, es);
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
    const size = json.length + sv.value.length;
    const es = this.entries.get(sv.key) ?? [];
    const old = es.findIndex((e) => e.rt.version === rt.version);
    if (old >= 0) this.forget(es.splice(old, 1)[0]!);
    this.entries.delete(sv.key);
    if (size <= this.maxChars / 16) {
      es.push({ rt, revision: sv.modRevision, stored: sv.value, json });
      this.count++;
      this.chars += size;
    }
    if (es.length > 0) this.entries.set(sv.key, es);
    while (this.count > this.maxEntries || this.chars > this.maxChars) {
      const oldest = this.entries.entries().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest[0]);
      for (const e of oldest[1]) this.forget(e);
    }
    return json;
  }

  /** Number of entries (tests). */
  get size(): number {
    return this.count;
  }

  private forget(e: Entry): void {
    this.count--;
    this.chars -= e.json.length + e.stored.length;
  }
}

/** The entry of `version` among a key's entries (one per version read; almost always one). */
function versionEntry(es: Entry[], version: string): Entry | undefined {
  for (let i = 0; i < es.length; i++) if (es[i]!.rt.version === version) return es[i];
  return undefined;
}
