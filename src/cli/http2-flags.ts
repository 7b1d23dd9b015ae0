/** kube-apiserver's HTTP/2 serving flags for `crdkit serve` (`--disable-http2-serving`, `--http2-max-streams-per-connection`). */
import type { Http2ServingOptions } from "../server/http2-serving.js";

export const HTTP2_USAGE = `
HTTP/2 (on the TLS port, negotiated by ALPN as kube-apiserver; plain HTTP is HTTP/1.1 only):
  --disable-http2-serving[=true|false]
                       offer HTTP/1.1 only (default false: h2 preferred, http/1.1 for the others)
  --http2-max-streams-per-connection N
                       streams a client may open at once on one HTTP/2 connection (default 0: 100)
`;

/** Whether `flag` is one of these flags. */
export function isHttp2Flag(flag: string): boolean {
  return flag === "--disable-http2-serving" || flag === "--http2-max-streams-per-connection";
}

/**
 * Applies one flag to `out`; a message when its value is wrong. `inline` is the `=value` part, `next` reads
 * the following argument (a boolean flag takes a value only with `=`, as pflag).
 */
export function setHttp2Flag(out: Http2ServingOptions, flag: string, inline: string | undefined, next: () => string | undefined): string | undefined {
  if (flag === "--disable-http2-serving") {
    const v = inline ?? "true";
    if (v !== "true" && v !== "false") return `invalid argument ${JSON.stringify(v)} for "--disable-http2-serving" flag: want true or false`;
    out.disabled = v === "true";
    return undefined;
  }
  const v = inline ?? next() ?? "";
  // An int flag (pflag's strconv.ParseInt; here at most 9 digits); a negative value means the default, as 0 does.
  if (!/^[+-]?\d{1,9}$/.test(v)) return `invalid argument ${JSON.stringify(v)} for "--http2-max-streams-per-connection" flag: want an integer`;
  out.maxStreamsPerConnection = Math.max(Number(v), 0);
  return undefined;
}
