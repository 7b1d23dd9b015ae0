/**
 * Waits for an in-process `runServe` to print "listening on URL", with a bound: rejects when runServe returns
 * first (a usage or start error) or after `limitMs`, so that a test never polls its output forever.
 */
export async function listeningUrl(out: readonly string[], done: Promise<number>, err: readonly string[] = [], limitMs = 60_000): Promise<string> {
  let exited: number | undefined;
  void done.then((code) => {
    exited = code;
  });
  const end = Date.now() + limitMs;
  for (;;) {
    const m = /listening on (\S+)/.exec(out.join(""));
    if (m) return m[1]!;
    if (exited !== undefined) throw new Error(`crdkit serve returned ${exited} before listening: ${err.join("")}`);
    if (Date.now() > end) throw new Error(`crdkit serve did not listen within ${limitMs} ms: ${err.join("")}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
