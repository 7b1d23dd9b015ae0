/** Polls `probe` every 10 ms until it holds; fails after `limitMs` (a loaded 2-core CI machine is slow). */
export async function until(probe: () => boolean | Promise<boolean>, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 10));
  }
}
