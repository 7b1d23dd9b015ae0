/**
 * Semantic versions as blang/semver v4 `Parse` (used by Kubernetes' CEL semver library), with its exact
 * error texts, plus Kubernetes' `normalizeAndParse`.
 */
import { goQuote } from "../../go/fmt.js";

export interface Semver {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: (string | bigint)[];
  /** Canonical text (without build metadata), for equality. */
  text: string;
}

const NUM = /^[0-9]*$/;
const ALNUM = /^[0-9A-Za-z-]*$/;
const MAX_U64 = (1n << 64n) - 1n;
const leadingZero = (s: string) => s.length > 1 && s[0] === "0";

function parseUint(s: string): bigint | string {
  if (s === "" || !/^[0-9]+$/.test(s)) return `strconv.ParseUint: parsing ${goQuote(s)}: invalid syntax`;
  const v = BigInt(s);
  return v > MAX_U64 ? `strconv.ParseUint: parsing ${goQuote(s)}: value out of range` : v;
}

function num(part: string, name: string, cap: string): bigint | string {
  if (!NUM.test(part)) return `Invalid character(s) found in ${name} number ${goQuote(part)}`;
  if (leadingZero(part)) return `${cap} number must not contain leading zeroes ${goQuote(part)}`;
  return parseUint(part);
}

/** `semver.Parse`: the version or the error text. */
export function parseSemver(s: string): Semver | string {
  if (s.length === 0) return "Version string empty";
  const parts = splitN(s, ".", 3);
  if (parts.length !== 3) return "No Major.Minor.Patch elements found";
  const major = num(parts[0]!, "major", "Major");
  if (typeof major === "string") return major;
  const minor = num(parts[1]!, "minor", "Minor");
  if (typeof minor === "string") return minor;
  let patchStr = parts[2]!;
  let build: string[] = [];
  let pre: string[] = [];
  const bi = patchStr.indexOf("+");
  if (bi !== -1) {
    build = patchStr.slice(bi + 1).split(".");
    patchStr = patchStr.slice(0, bi);
  }
  const pi = patchStr.indexOf("-");
  if (pi !== -1) {
    pre = patchStr.slice(pi + 1).split(".");
    patchStr = patchStr.slice(0, pi);
  }
  const patch = num(patchStr, "patch", "Patch");
  if (typeof patch === "string") return patch;
  const prv: (string | bigint)[] = [];
  for (const p of pre) {
    if (p.length === 0) return "Prerelease is empty";
    if (NUM.test(p)) {
      if (leadingZero(p)) return `Numeric PreRelease version must not contain leading zeroes ${goQuote(p)}`;
      const n = parseUint(p);
      if (typeof n === "string") return n;
      prv.push(n);
    } else if (ALNUM.test(p)) prv.push(p);
    else return `Invalid character(s) found in prerelease ${goQuote(p)}`;
  }
  for (const b of build) {
    if (b.length === 0) return "Build meta data is empty";
    if (!ALNUM.test(b)) return `Invalid character(s) found in build meta data ${goQuote(b)}`;
  }
  const text = `${major}.${minor}.${patch}${prv.length > 0 ? `-${prv.join(".")}` : ""}`;
  return { major, minor, patch, pre: prv, text };
}

function splitN(s: string, sep: string, n: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < n - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + 1);
  }
  out.push(rest);
  return out;
}

/** Kubernetes' `normalizeAndParse` (drops a `v` prefix and leading zeroes, fills missing minor/patch). */
export function normalizeAndParseSemver(input: string): Semver | string {
  const s = input.startsWith("v") ? input.slice(1) : input;
  const parts = splitN(s, ".", 3).map((p) => {
    if (p.length > 1) {
      let t = p.replace(/^0+/, "");
      if (t.length === 0 || !/[0-9]/.test(t[0]!)) t = `0${t}`;
      return t;
    }
    return p;
  });
  if (parts.length < 3) {
    if (/[+-]/.test(parts[parts.length - 1]!)) return "short version cannot contain PreRelease/Build meta data";
    while (parts.length < 3) parts.push("0");
  }
  return parseSemver(parts.join("."));
}

/** `Version.Compare`. */
export function compareSemver(a: Semver, b: Semver): number {
  for (const k of ["major", "minor", "patch"] as const) {
    if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  }
  if (a.pre.length === 0 && b.pre.length === 0) return 0;
  if (a.pre.length === 0) return 1;
  if (b.pre.length === 0) return -1;
  let i = 0;
  for (; i < a.pre.length && i < b.pre.length; i++) {
    const x = a.pre[i]!;
    const y = b.pre[i]!;
    if (x === y) continue;
    if (typeof x === "bigint" && typeof y === "bigint") return x < y ? -1 : 1;
    if (typeof x === "bigint") return -1;
    if (typeof y === "bigint") return 1;
    return x < y ? -1 : 1;
  }
  if (i === a.pre.length && i === b.pre.length) return 0;
  return i === a.pre.length ? -1 : 1;
}
