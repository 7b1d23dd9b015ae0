/** apimachinery `util/duration.HumanDuration`: the AGE text kubectl shows. */
import { parseRFC3339 } from "../../go/time.js";

/** Formats a duration in milliseconds as Kubernetes does (`5s`, `3m20s`, `5h`, `2d3h`, `1y`). */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return "<invalid>";
  if (seconds < 0) return "0s";
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** `metatable.ConvertToHumanReadableDateType`: RFC 3339 timestamp → age, `<unknown>` / `<invalid>`. */
export function humanAge(timestamp: string, now: number = Date.now()): string {
  if (timestamp === "") return "<unknown>";
  // metav1.Time's UnmarshalQueryParameter: RFC 3339 as Go's time.Parse reads it (a date alone is invalid).
  const p = parseRFC3339(timestamp);
  if (!p.ok) return "<invalid>";
  return humanDuration(now - (Number(p.time.sec) * 1000 + Math.floor(Number(p.time.nsec) / 1e6)));
}
