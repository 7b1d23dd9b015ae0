/**
 * x/net/http2's bound on the handlers one connection runs (`scheduleHandler`, the CVE-2023-44487 "rapid reset"
 * fix): at most `max` (the advertised `MaxConcurrentStreams`) run at once, counted until the handler returns —
 * a stream the client reset still counts while its handler runs. Later requests wait in order; a request
 * whose stream was reset while it waited is dropped without running; past 4 × `max` waiting the connection
 * is to be ended (GOAWAY `ENHANCE_YOUR_CALM`).
 */
export class HandlerLimit {
  private running = 0;
  private readonly waiting: Array<{ start: () => Promise<void> | void; alive: () => boolean }> = [];

  constructor(private readonly max: number) {}

  /** Handlers running now. */
  get active(): number {
    return this.running;
  }

  /** Requests waiting for a handler slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Runs `start` now or once a slot frees (if `alive()` then); "overflow" when the connection must end
   * (nothing is queued then).
   */
  schedule(start: () => Promise<void> | void, alive: () => boolean): "started" | "queued" | "overflow" {
    if (this.running < this.max) {
      this.run(start);
      return "started";
    }
    if (this.waiting.length >= 4 * this.max) return "overflow";
    this.waiting.push({ start, alive });
    return "queued";
  }

  private run(start: () => Promise<void> | void): void {
    this.running++;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      this.running--;
      while (this.running < this.max) {
        const next = this.waiting.shift();
        if (!next) break;
        if (next.alive()) this.run(next.start);
      }
    };
    let p: Promise<void> | void;
    try {
      p = start();
    } catch {
      p = undefined;
    }
    if (p) p.then(done, done);
    else done();
  }
}
