import assert from "node:assert/strict";
import { test } from "node:test";
import { requestUrl } from "./request-url.js";

const parts = (target: string) => {
  const u = requestUrl(target);
  return u && { pathname: u.pathname, search: u.search, query: [...u.searchParams] };
};
const viaUrl = (target: string) => {
  let u: URL;
  try {
    u = new URL(target, "http://localhost");
  } catch {
    return undefined;
  }
  return { pathname: u.pathname, search: u.search, query: [...u.searchParams] };
};

test("requestUrl: the path and query WHATWG URL gives, for plain paths and the others", () => {
  const cases: [string, string, string][] = [
    // target, pathname, search
    ["/apis/stable.example.com/v1/namespaces/default/crontabs/ct-1", "/apis/stable.example.com/v1/namespaces/default/crontabs/ct-1", ""],
    ["/", "/", ""],
    ["/api/v1/namespaces/a:b@c!$&'()*+,;=~_", "/api/v1/namespaces/a:b@c!$&'()*+,;=~_", ""],
    ["/apis/x/v1/crontabs?watch=true&limit=5", "/apis/x/v1/crontabs", "?watch=true&limit=5"],
    ["/apis/x/v1/crontabs?", "/apis/x/v1/crontabs", ""],
    ["/a/./b", "/a/b", ""],
    ["/a/../b", "/b", ""],
    ["/a/b/..", "/a/", ""],
    ["/a/b/.", "/a/b/", ""],
    ["/a/%2e%2E/b", "/b", ""],
    ["/a/.hidden", "/a/.hidden", ""],
    ["/a\\b", "/a/b", ""],
    ["/a b", "/a%20b", ""],
    ["/a\"<>`{}^|b", "/a%22%3C%3E%60%7B%7D^|b", ""],
    ["/a/é", "/a/%C3%A9", ""],
    ["/a#frag", "/a", ""],
    ["/a/%41", "/a/%41", ""],
    ["//evil/x", "/x", ""],
  ];
  // A target URL refuses (a bad host after `//`).
  assert.equal(requestUrl("//["), undefined);
  for (const [target, pathname, search] of cases) {
    assert.deepEqual(parts(target), viaUrl(target), target);
    assert.equal(requestUrl(target)?.pathname, pathname, target);
    assert.equal(requestUrl(target)?.search, search, target);
  }
});

test("requestUrl: random targets over URL's special characters agree with URL", () => {
  const alphabet = "/./..%2e?#&=aZ09-_~:@!$'()*+,;\\ \"<>`{}^|é[]";
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  let refused = 0;
  for (let i = 0; i < 5000; i++) {
    let t = "/";
    const n = next() % 12;
    for (let j = 0; j < n; j++) t += alphabet[next() % alphabet.length];
    const want = viaUrl(t);
    if (want === undefined) refused++;
    assert.deepEqual(parts(t), want, JSON.stringify(t));
  }
  // Some of them are targets URL refuses (`//[`…).
  assert.ok(refused > 0);
});

test("requestUrl: the query of a plain path is empty and its own object", () => {
  const a = requestUrl("/apis")!;
  const b = requestUrl("/apis")!;
  assert.equal(a.searchParams.size, 0);
  a.searchParams.set("x", "1");
  assert.equal(b.searchParams.get("x"), null);
});
