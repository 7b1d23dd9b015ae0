/**
 * A per-key work queue for the server's controllers, in the manner of client-go's workqueue: at most one
 * pass per key at a time; a key added while its pass is queued or running runs once more after it; a pass
 * that asks for it (returns a delay) runs again after that delay. Timers do not keep the process alive;
 * `stop()` drops everything queued.
 */
export class KeyedQueue {
  private readonly pending = new Set<string>();
  private readonly again = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;

  /** `pass` runs one key and resolves to the delay before it must run again, or undefined when done; it must not reject. */
  constructor(private readonly pass: (key: string) => Promise<number | undefined>) {}

  /** Queues a pass of `key` after `delay` ms (or marks it to run again when one is already queued). */
  add(key: string, delay: number): void {
    if (this.stopped) return;
    if (this.pending.has(key)) {
      this.again.add(key);
      return;
    }
    this.pending.add(key);
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (this.stopped) return;
      void this.pass(key).then((next) => {
        this.pending.delete(key);
        if (this.again.delete(key)) this.add(key, 0);
        else if (next !== undefined) this.add(key, next);
      });
    }, delay);
    t.unref();
    this.timers.add(t);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
