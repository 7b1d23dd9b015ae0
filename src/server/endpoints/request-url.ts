/**
 * The parts of a request target the server reads, as Go's HTTP server parses it (`url.ParseRequestURI`, in
 * src/go/url.ts): the path with its escapes decoded and nothing else changed (`//x` is a path, not a host;
 * `.` segments, `\` and `#` stay as they are) and the raw query, whose parameters are `url.ParseQuery`'s. A
 * plain path — `/` then no `%`, `?` or control character — is its own path without a parse (most requests).
 */
import { parseRequestURI, queryPairs } from "../../go/url.js";
import { sendGoRefusal } from "./client-error.js";

/** What the handlers read of a request's query (URLSearchParams' methods; URLSearchParams is one). */
export interface QueryParams extends Pick<URLSearchParams, "get" | "getAll" | "has" | "set" | "size"> {
  [Symbol.iterator](): Iterator<[string, string]>;
}

/**
 * A query's parameters as Go's `url.Values` holds them: byte strings, so a `%FF` stays a byte (a lone surrogate,
 * shown as `\xff` by `%q`), where URLSearchParams would read U+FFFD. URLSearchParams' semantics otherwise.
 */
class GoQueryParams implements QueryParams {
  constructor(private pairs: [string, string][]) {}
  get(name: string): string | null {
    return this.pairs.find((p) => p[0] === name)?.[1] ?? null;
  }
  getAll(name: string): string[] {
    return this.pairs.filter((p) => p[0] === name).map((p) => p[1]);
  }
  has(name: string): boolean {
    return this.pairs.some((p) => p[0] === name);
  }
  set(name: string, value: string): void {
    const i = this.pairs.findIndex((p) => p[0] === name);
    if (i < 0) this.pairs.push([name, value]);
    else this.pairs = [...this.pairs.slice(0, i), [name, value], ...this.pairs.slice(i + 1).filter((p) => p[0] !== name)];
  }
  get size(): number {
    return this.pairs.length;
  }
  [Symbol.iterator](): Iterator<[string, string]> {
    return this.pairs.map((p): [string, string] => [p[0], p[1]])[Symbol.iterator]();
  }
}

/** What the handlers read of a request's URL. */
export interface RequestUrl {
  /** Go's `URL.Path`: `%` escapes decoded (bytes read as UTF-8), "" for an opaque target (`http:x`). */
  readonly pathname: string;
  /** `?` and the raw query, or "" without one (request logs). */
  readonly search: string;
  /** The query's parameters as Go's `URL.Query()` reads them (parsed on first use). */
  readonly searchParams: QueryParams;
  /** {@link pathSegments} of the path, split once for the request's attributes and its route (not to be changed). */
  readonly segments?: readonly string[];
}

/** RequestInfo's `splitPath`: `strings.Split(strings.Trim(path, "/"), "/")` (inner empty segments kept). */
export function pathSegments(p: string): string[] {
  let start = 0;
  let end = p.length;
  while (start < end && p.charCodeAt(start) === 47) start++;
  while (end > start && p.charCodeAt(end - 1) === 47) end--;
  if (start === end) return [];
  return p.slice(start, end).split("/");
}

const PLAIN_PATH = /^\/[^%?\x00-\x1f\x7f]*$/;

class ParsedUrl implements RequestUrl {
  private params: QueryParams | undefined;
  private parts: readonly string[] | undefined;
  constructor(
    readonly pathname: string,
    private readonly rawQuery = "",
  ) {}
  get search(): string {
    return this.rawQuery === "" ? "" : `?${this.rawQuery}`;
  }
  get segments(): readonly string[] {
    this.parts ??= pathSegments(this.pathname);
    return this.parts;
  }
  get searchParams(): QueryParams {
    // Go's ParseQuery skips a pair with a `;` or a bad escape, which URLSearchParams keeps, and keeps bytes that are
    // not UTF-8; without a `;` or `%` they agree.
    this.params ??= /[;%]/.test(this.rawQuery) ? new GoQueryParams(queryPairs(this.rawQuery, true)) : new URLSearchParams(this.rawQuery);
    return this.params;
  }
}

/**
 * The URL of request target `target` (`req.url`), or undefined where Go's server refuses the request line
 * (`/%`, `/a%zz`: a bad escape; `x`: neither `/…`, `*` nor absolute; a control character).
 */
export function requestUrl(target: string): RequestUrl | undefined {
  if (PLAIN_PATH.test(target)) return new ParsedUrl(target);
  const u = parseRequestURI(target);
  return u && new ParsedUrl(u.path, u.rawQuery);
}

/**
 * Answers a request whose target cannot be parsed as Go's HTTP server answers a request it cannot read:
 * 400 with the text `400 Bad Request`, closing the connection.
 */
export function sendBadRequestTarget(res: import("node:http").ServerResponse): void {
  sendGoRefusal(res, "400 Bad Request");
}
