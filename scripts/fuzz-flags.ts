/** Command-line flags shared by the differential fuzzers (`--seed N --count N … --out DIR`). */

/** `--name N`: a non-negative integer, `def` when absent. */
export function intFlag(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return def;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v < 0) throw new Error(`--${name} needs a non-negative integer`);
  return v;
}

/** `--name VALUE`, undefined when absent. */
export function stringFlag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}
