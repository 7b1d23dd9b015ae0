/**
 * How every `crdkit` command reads its command line: arguments not starting with `-` (and `-` itself, standard
 * input) are inputs, `--` makes every later argument an input, and a flag takes its value inline
 * (`--flag=value`) or from the next argument. Shared by `validate` (./args.ts) and `check` (./check.ts).
 */
import type { FieldValidationMode } from "../pipeline/types.js";

/** A usage error (exit code 2). */
export class UsageError extends Error {}

/** What {@link scanArgv} reports to its caller. */
export interface ArgvHandler {
  input(path: string): void;
  /** A flag as written before any `=`; `value()` takes its value (inline or the next argument). */
  flag(flag: string, value: () => string): void;
}

export function scanArgv(argv: readonly string[], on: ArgvHandler): void {
  let onlyPaths = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPaths || arg === "-" || !arg.startsWith("-")) {
      on.input(arg);
      continue;
    }
    if (arg === "--") {
      onlyPaths = true;
      continue;
    }
    const eq = arg.indexOf("=");
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    on.flag(flag, () => {
      if (inline !== undefined) return inline;
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`flag ${flag} needs a value`);
      return v;
    });
  }
}

/** An enum flag value, in any case (`-o JSON`, `--field-validation warn`); undefined when unknown. */
export function enumValue<T extends string>(allowed: readonly T[], v: string): T | undefined {
  return allowed.find((a) => a.toLowerCase() === v.toLowerCase());
}

export type OutputFormat = "text" | "json" | "junit" | "github";

const FORMATS: readonly OutputFormat[] = ["text", "json", "junit", "github"];
const MODES: readonly FieldValidationMode[] = ["Strict", "Warn", "Ignore"];

/** The value of `-o`/`--output`. */
export function outputFlag(raw: string): OutputFormat {
  const v = enumValue(FORMATS, raw);
  if (v === undefined) throw new UsageError(`unknown output format "${raw}" (want text, json, junit or github)`);
  return v;
}

/** The value of `--field-validation`. */
export function fieldValidationFlag(raw: string): FieldValidationMode {
  const v = enumValue(MODES, raw);
  if (v === undefined) throw new UsageError(`unknown --field-validation "${raw}" (want Strict, Warn or Ignore)`);
  return v;
}
