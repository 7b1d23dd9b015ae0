/**
 * Watches served from the watch cache's own etcd watch (as kube-apiserver serves its informers from the cacher):
 * a subscriber gets every change of the keys in its range as the cache applies it, with the key's previous value
 * from the cache (the cache's watch has no `prev_kv`: it holds every key of its prefix itself). One etcd watch
 * response per revision then feeds both the cache and, say, the CRD registry, instead of one on each stream.
 */
import type { EtcdKv } from "./etcd-client.js";

/** One change of a cached key: the key's new state (for a deletion: key and deletion revision), its previous value. */
export interface CachedChange {
  deleted: boolean;
  kv: EtcdKv;
  prev: EtcdKv | undefined;
}

interface Subscriber {
  /** Latin1 of the etcd range [start, end): compared as strings, they order as etcd orders the bytes. */
  start: string;
  end: string;
  /** Changes at or before this revision are not delivered (the subscriber's list already has them). */
  from: number;
  onChange: (c: CachedChange) => void;
  onBreak: () => void;
}

export class CacheSubscribers {
  private readonly subs = new Set<Subscriber>();

  get size(): number {
    return this.subs.size;
  }

  /** Adds a subscriber; the function removes it. */
  add(start: string, end: string, from: number, onChange: (c: CachedChange) => void, onBreak: () => void): () => void {
    const s: Subscriber = { start, end, from, onChange, onBreak };
    this.subs.add(s);
    return () => {
      this.subs.delete(s);
    };
  }

  /** Hands the change of the key `k` (latin1) to the subscribers whose range holds it. */
  publish(k: string, c: CachedChange): void {
    for (const s of this.subs) {
      if (k >= s.start && k < s.end && c.kv.mod_revision > s.from) s.onChange(c);
    }
  }

  /** The cache was dropped (its watch broke): every subscriber is told once and removed. */
  breakAll(): void {
    const all = [...this.subs];
    this.subs.clear();
    for (const s of all) s.onBreak();
  }

  /** The cache stopped (the store is closing): subscribers are removed without a word, as cancelled etcd watches. */
  clear(): void {
    this.subs.clear();
  }
}
