/** One recorded answer as the live differs (`fuzz:server`, `corpus:server`) print it: JSON, cut at 1,500 characters unless `full`. */
import type { StepResult } from "../runner.js";

export function showAnswer(r: StepResult | undefined, full: boolean): string {
  if (r === undefined) return "(no answer)";
  const { step: _, ...rest } = r;
  return cutText(JSON.stringify(rest), full);
}

/** `s`, or its first 1,500 characters and its length (`--full` shows all). */
export function cutText(s: string, full: boolean): string {
  return full || s.length <= 1500 ? s : `${s.slice(0, 1500)}… (${s.length} characters; --full shows all)`;
}
