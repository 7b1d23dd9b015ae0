/** Reads a `?watch=true` response as it arrives: NDJSON events, `waitFor(n)`, and the end of the stream. */
export interface WatchEvent {
  type: string;
  // biome-ignore lint/suspicious/noExplicitAny: watch objects are of any shape
  object: any;
}

export class WatchStream {
  readonly events: WatchEvent[] = [];
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  private waiters: (() => void)[] = [];
  private readonly abort = new AbortController();

  private constructor(readonly status: number, body: ReadableStream<Uint8Array> | null) {
    this.ended = this.read(body);
  }

  static async open(url: string): Promise<WatchStream> {
    const ac = new AbortController();
    const res = await fetch(url, { signal: ac.signal });
    const w = new WatchStream(res.status, res.body);
    w.abort.signal.addEventListener("abort", () => ac.abort());
    return w;
  }

  private async read(body: ReadableStream<Uint8Array> | null): Promise<void> {
    if (!body) return;
    const dec = new TextDecoder();
    let buf = "";
    try {
      for await (const chunk of body) {
        buf += dec.decode(chunk, { stream: true });
        let i: number;
        while ((i = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (line.trim() !== "") this.events.push(JSON.parse(line) as WatchEvent);
        }
        for (const w of this.waiters.splice(0)) w();
      }
    } catch {
      // aborted by close()
    } finally {
      for (const w of this.waiters.splice(0)) w();
    }
  }

  /** Waits until `n` events arrived (rejects if the stream ends first). */
  async waitFor(n: number): Promise<WatchEvent[]> {
    let done = false;
    void this.ended.then(() => {
      done = true;
    });
    while (this.events.length < n) {
      if (done) throw new Error(`watch ended after ${this.events.length} of ${n} events`);
      await Promise.race([new Promise<void>((r) => this.waiters.push(r)), this.ended]);
      await Promise.resolve();
    }
    return this.events.slice(0, n);
  }

  close(): void {
    this.abort.abort();
  }
}
