/**
 * Timestamps and durations: Go `time.Parse(RFC3339)`, `time.ParseDuration`,
 * RFC3339Nano formatting, calendar fields in UTC, IANA zones or fixed offsets.
 *
 * @module
 */

import { formatFloatF } from "../../go/strconv.js";
import { parseGoDuration, parseRFC3339 } from "../../go/time.js";
import { civilFromDays, daysFromCivil } from "../../value/civil-date.js";
import { CelDuration, CelError, CelTimestamp } from "../values/values.js";

const NS = 1_000_000_000n;
/** Seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z (cel-go limits). */
export const MIN_UNIX = -62135596800n;
export const MAX_UNIX = 253402300799n;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** Range-checked timestamp value or "timestamp overflow". */
export function makeTimestamp(nanos: bigint): CelTimestamp | CelError {
  const sec = nanos >= 0n ? nanos / NS : -((-nanos + NS - 1n) / NS);
  if (sec < MIN_UNIX || sec > MAX_UNIX) return new CelError("timestamp overflow");
  return new CelTimestamp(nanos);
}

/** Range-checked (int64 nanoseconds) duration or "duration overflow". */
export function makeDuration(nanos: bigint): CelDuration | CelError {
  if (nanos < I64_MIN || nanos > I64_MAX) return new CelError("duration overflow");
  return new CelDuration(nanos);
}





/** Go's `time.Parse(time.RFC3339, s)` (what cel-go's `timestamp(string)` calls), range-checked. */
export function parseTimestamp(s: string): CelTimestamp | CelError {
  const r = parseRFC3339(s);
  if (!r.ok) return new CelError("type conversion error from 'string' to 'google.protobuf.Timestamp'");
  return makeTimestamp(BigInt(r.time.sec) * NS + BigInt(r.time.nsec));
}

/** Splits a timestamp into UTC seconds and nanos-of-second. */
function split(ns: bigint): [bigint, number] {
  let sec = ns / NS;
  let frac = ns % NS;
  if (frac < 0n) {
    frac += NS;
    sec -= 1n;
  }
  return [sec, Number(frac)];
}

/** Go `time.RFC3339Nano` formatting in UTC (`2009-11-10T23:00:00Z`, trailing zeros trimmed). */
export function formatTimestamp(t: CelTimestamp): string {
  const [sec, frac] = split(t.nanos);
  const f = fields(sec, 0);
  const p = (n: number, w = 2): string => String(n).padStart(w, "0");
  let out = `${p(f.year, 4)}-${p(f.month)}-${p(f.day)}T${p(f.hour)}:${p(f.minute)}:${p(f.second)}`;
  if (frac !== 0) out += `.${String(frac).padStart(9, "0").replace(/0+$/, "")}`;
  return `${out}Z`;
}

/** Calendar fields of a time. */
export interface TimeFields {
  year: number;
  month: number; // 1-12
  day: number; // 1-31
  hour: number;
  minute: number;
  second: number;
  weekday: number; // 0 = Sunday
  yearDay: number; // 1-based
  nanos: number;
}

function fields(sec: bigint, offsetSeconds: number): TimeFields {
  const local = sec + BigInt(offsetSeconds);
  let days = local / 86400n;
  let rem = local % 86400n;
  if (rem < 0n) {
    rem += 86400n;
    days -= 1n;
  }
  const dn = Number(days);
  const [year, month, day] = civilFromDays(dn);
  const r = Number(rem);
  return {
    year,
    month,
    day,
    hour: Math.floor(r / 3600),
    minute: Math.floor((r % 3600) / 60),
    second: r % 60,
    weekday: (((dn % 7) + 7 + 4) % 7) as number,
    yearDay: dn - daysFromCivil(year, 1, 1) + 1,
    nanos: 0,
  };
}

const zoneCache = new Map<string, Intl.DateTimeFormat | null>();

function zoneOffsetSeconds(zone: string, sec: bigint): number | CelError {
  let fmt = zoneCache.get(zone);
  if (fmt === undefined) {
    try {
      fmt = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
        era: "short",
      });
    } catch {
      fmt = null;
    }
    if (zoneCache.size < 1000) zoneCache.set(zone, fmt);
  }
  if (fmt === null) return new CelError(`unknown time zone ${zone}`);
  const ms = Number(sec) * 1000;
  const parts: Record<string, string> = {};
  for (const p of fmt.formatToParts(new Date(ms))) parts[p.type] = p.value;
  let y = Number(parts.year);
  if (parts.era === "BC" || parts.era === "B") y = 1 - y;
  const local = daysFromCivil(y, Number(parts.month), Number(parts.day)) * 86400 +
    Number(parts.hour) * 3600 + Number(parts.minute) * 60 + Number(parts.second);
  return local - Math.floor(ms / 1000);
}

/** Calendar fields of `t` in `tz` (UTC when undefined): IANA name or `[+-]HH:MM`. */
export function timeFields(t: CelTimestamp, tz?: string): TimeFields | CelError {
  const [sec, frac] = split(t.nanos);
  let off = 0;
  if (tz !== undefined) {
    const ind = tz.indexOf(":");
    if (ind === -1) {
      if (tz === "UTC" || tz === "") off = 0;
      else {
        const o = zoneOffsetSeconds(tz, sec);
        if (o instanceof CelError) return o;
        off = o;
      }
    } else {
      const hs = tz.slice(0, ind);
      const ms = tz.slice(ind + 1);
      if (!/^[+-]?\d+$/.test(hs)) return new CelError(`strconv.Atoi: parsing "${hs}": invalid syntax`);
      if (!/^[+-]?\d+$/.test(ms)) return new CelError(`strconv.Atoi: parsing "${ms}": invalid syntax`);
      const hr = Number(hs);
      const mn = Number(ms);
      if (mn < 0 || mn > 59) return new CelError(`timezone offset minutes out of range [0, 59]: ${tz}`);
      const offMin = tz[0] === "-" ? hr * 60 - mn : hr * 60 + mn;
      off = offMin * 60;
    }
  }
  const f = fields(sec, off);
  f.nanos = frac;
  return f;
}

/** Go `time.ParseDuration` (what cel-go's `duration(string)` calls). */
export function parseDuration(input: string): CelDuration | CelError {
  const d = parseGoDuration(input);
  if (d === undefined) return new CelError("type conversion error from 'string' to 'google.protobuf.Duration'");
  return new CelDuration(d);
}

/** Go `strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"`. */
export function formatDuration(d: CelDuration): string {
  return `${formatFloatF(Number(d.nanos / NS) + Number(d.nanos % NS) / 1e9)}s`;
}
