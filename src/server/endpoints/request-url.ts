/**
 * The parts of a request target the server reads, as Go's HTTP server parses it (`url.ParseRequestURI`, in
 * src/go/url.ts): the path with its escapes decoded and nothing else changed (`//x` is a path, not a host;
 * `.` segments, `\` and `#` stay as they are) and the raw query, whose parameters are `url.ParseQuery`'s. A
 * plain path — `/` then no `%`, `?` or control character — is its own path without a parse (most requests).
 */
import { parseRequestURI, queryPairs } from "../../go/url.js";
import { sendGoRefusal } from "./client-error.js";

/** What the handlers read of a request's URL. */
export interface RequestUrl {
  /** Go's `URL.Path`: `%` escapes decoded (bytes read as UTF-8), "" for an opaque target (`http:x`). */
  readonly pathname: string;
  /** `?` and the raw query, or "" without one (request logs). */
  readonly search: string;
  /** The query's parameters as Go's `URL.Query()` reads them (parsed on first use). */
  readonly searchParams: URLSearchParams;
}

const PLAIN_PATH = /^\/[^%?\x00-\x1f\x7f]*$/;

class ParsedUrl implements RequestUrl {
  private params: URLSearchParams | undefined;
  constructor(
    readonly pathname: string,
    private readonly rawQuery = "",
  ) {}
  get search(): string {
    return this.rawQuery === "" ? "" : `?${this.rawQuery}`;
  }
  get searchParams(): URLSearchParams {
    // Go's ParseQuery skips a pair with a `;` or a bad escape, which URLSearchParams keeps; otherwise they agree.
    this.params ??= new URLSearchParams(/[;%]/.test(this.rawQuery) ? queryPairs(this.rawQuery) : this.rawQuery);
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
