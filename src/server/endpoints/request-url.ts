/**
 * The parts of a request target the server reads (path, query), as WHATWG URL parses it against
 * `http://localhost`: a plain path — characters URL keeps as they are, no query, no `%`, no dot segment, not
 * starting with `//` — is its own pathname without building a URL (most GETs); anything else goes through URL.
 */

/** What the handlers read of a request's URL (a URL is one). */
export interface RequestUrl {
  readonly pathname: string;
  /** `?` and the query, or "" without one. */
  readonly search: string;
  readonly searchParams: URLSearchParams;
}

/**
 * A path URL would not change: `/` then unreserved characters, sub-delimiters, `:`, `@` and `/` (no `\`, which
 * it reads as `/`, none it percent-encodes, no `?`, `#` or `%`), and not `//…` (a host for URL).
 */
const PLAIN_PATH = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/]*$/;

class PlainPath implements RequestUrl {
  private params: URLSearchParams | undefined;
  constructor(readonly pathname: string) {}
  get search(): string {
    return "";
  }
  get searchParams(): URLSearchParams {
    this.params ??= new URLSearchParams();
    return this.params;
  }
}

/** The URL of request target `target` (`req.url`), or undefined when URL refuses it (`//[`: a bad host). */
export function requestUrl(target: string): RequestUrl | undefined {
  // A `.` segment (`/./`, `/../`, a trailing `/.`) is resolved by URL.
  if (PLAIN_PATH.test(target) && !target.includes("/.")) return new PlainPath(target);
  // Not URL.canParse: in Node 20 its answer for a target such as `//*(é` changed once V8 optimized the call
  // (the random-target test saw canParse and the constructor disagree), so the constructor alone decides.
  try {
    return new URL(target, "http://localhost");
  } catch {
    return undefined;
  }
}

/**
 * Answers a request whose target cannot be parsed as Go's HTTP server answers a request it cannot read:
 * 400 with the text `400 Bad Request`, closing the connection.
 */
export function sendBadRequestTarget(res: import("node:http").ServerResponse): void {
  const text = "400 Bad Request";
  res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": String(text.length), Connection: "close" });
  res.end(text);
}
