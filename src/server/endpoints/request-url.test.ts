import assert from "node:assert/strict";
import { test } from "node:test";
import { parseRequestURI, queryPairs } from "../../go/url.js";
import { requestUrl } from "./request-url.js";

const parts = (target: string) => {
  const u = requestUrl(target);
  return u && { pathname: u.pathname, search: u.search, query: [...u.searchParams] };
};

test("requestUrl: Go's path (decoded, not cleaned) and the raw query, or undefined for a 400", () => {
  const cases: [string, string, string, [string, string][]][] = [
    // target, pathname, search, query parameters
    ["/apis/stable.example.com/v1/namespaces/default/crontabs/ct-1", "/apis/stable.example.com/v1/namespaces/default/crontabs/ct-1", "", []],
    ["/", "/", "", []],
    ["/api/v1/namespaces/a:b@c!$&'()*+,;=~_", "/api/v1/namespaces/a:b@c!$&'()*+,;=~_", "", []],
    ["/apis/x/v1/crontabs?watch=true&limit=5", "/apis/x/v1/crontabs", "?watch=true&limit=5", [["watch", "true"], ["limit", "5"]]],
    ["/apis/x/v1/crontabs?", "/apis/x/v1/crontabs", "", []],
    ["/apis/x/v1/crontabs?limit=1#x", "/apis/x/v1/crontabs", "?limit=1#x", [["limit", "1#x"]]],
    ["/apis/x/v1/crontabs?fieldSelector=a%3Db+c", "/apis/x/v1/crontabs", "?fieldSelector=a%3Db+c", [["fieldSelector", "a=b c"]]],
    ["/a/./b", "/a/./b", "", []],
    ["/a/../b", "/a/../b", "", []],
    ["/a\\b", "/a\\b", "", []],
    ["/a#frag", "/a#frag", "", []],
    ["//", "//", "", []],
    ["//[", "//[", "", []],
    ["//evil/x", "//evil/x", "", []],
    ["*", "*", "", []],
    ["/ap%69s/x%2Fy", "/apis/x/y", "", []],
    ["/a/%C3%A9", "/a/é", "", []],
    ["http://h/apis?limit=2", "/apis", "?limit=2", [["limit", "2"]]],
    ["http:version", "", "", []],
    // Go's ParseQuery drops a pair with a `;` or a bad escape (URLSearchParams would keep it).
    ["/x?limit=1;x&watch=true", "/x", "?limit=1;x&watch=true", [["watch", "true"]]],
    ["/x?limit=%zz&limit=2", "/x", "?limit=%zz&limit=2", [["limit", "2"]]],
    ["/x?labelSelector=a%3Db%2Cc&limit=500", "/x", "?labelSelector=a%3Db%2Cc&limit=500", [["labelSelector", "a=b,c"], ["limit", "500"]]],
  ];
  for (const [target, pathname, search, query] of cases) {
    assert.deepEqual(parts(target), { pathname, search, query }, target);
  }
  for (const target of ["/%", "/%zz", "/a%4?x", "http://[/x", "x", "", "/a\tb"]) assert.equal(requestUrl(target), undefined, target);
});

test("requestUrl: random targets agree with Go's parse (the plain-path shortcut included)", () => {
  const alphabet = ["/", "/", ".", "..", "%", "%2e", "%2F", "%zz", "%C3%A9", "?", "#", "&", "=", "a", "Z", ":", "@", "[", "]", "\\", "*", "+", ";", "é", "http://", "//"];
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  let refused = 0;
  let plain = 0;
  for (let i = 0; i < 5000; i++) {
    let t = next() % 4 === 0 ? "" : "/";
    const n = next() % 10;
    for (let j = 0; j < n; j++) t += alphabet[next() % alphabet.length];
    const g = parseRequestURI(t);
    if (g === undefined) refused++;
    if (/^\/[^%?]*$/.test(t)) plain++;
    const want = g && { pathname: g.path, search: g.rawQuery === "" ? "" : `?${g.rawQuery}`, query: queryPairs(g.rawQuery, true) };
    assert.deepEqual(parts(t), want, JSON.stringify(t));
  }
  // Both kinds occur: targets Go refuses, and plain paths (the shortcut).
  assert.ok(refused > 0 && plain > 0);
});

test("requestUrl: the query of a plain path is empty and its own object", () => {
  const a = requestUrl("/apis")!;
  const b = requestUrl("/apis")!;
  assert.equal(a.searchParams.size, 0);
  a.searchParams.set("x", "1");
  assert.equal(b.searchParams.get("x"), null);
});
