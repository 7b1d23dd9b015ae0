/** In-process fan-out of store events to prefix subscribers. */
import type { StoreEvent, StoreWatch } from "./types.js";

interface Subscriber {
  prefix: string;
  onEvent: (e: StoreEvent) => void;
}

/** Delivers published events, in order, to every subscriber whose prefix matches the key. */
export class WatchHub {
  private readonly subs = new Set<Subscriber>();

  /** `progress` answers the revision through which events are published (delivery is synchronous). */
  subscribe(prefix: string, onEvent: (e: StoreEvent) => void, progress: () => number): StoreWatch {
    const sub: Subscriber = { prefix, onEvent };
    this.subs.add(sub);
    return {
      cancel: () => this.subs.delete(sub),
      progress: async () => (this.subs.has(sub) ? progress() : 0),
    };
  }

  publish(e: StoreEvent): void {
    for (const s of this.subs) {
      if (!e.key.startsWith(s.prefix)) continue;
      try {
        s.onEvent(e);
      } catch {
        // A failing subscriber (e.g. a closed socket) must not break the writer or other watchers.
        this.subs.delete(s);
      }
    }
  }

  closeAll(): void {
    this.subs.clear();
  }
}
