import assert from "node:assert/strict";
import { test } from "node:test";
import { isRequestURI, parseQuery, parseRequestURI, queryPairs } from "./url.js";

// Each answer is Go 1.26's `url.ParseRequestURI(target)`: [URL.Path, URL.RawQuery], or undefined for an error.
const CASES: [string, [string, string] | undefined][] = [
  ["/apis/stable.example.com/v1/namespaces/default/crontabs/ct-1", ["/apis/stable.example.com/v1/namespaces/default/crontabs/ct-1", ""]],
  ["/", ["/", ""]],
  ["*", ["*", ""]],
  // No scheme: `//…` is a path, never a host.
  ["//", ["//", ""]],
  ["//[", ["//[", ""]],
  ["//apis", ["//apis", ""]],
  ["//a:b:c/x", ["//a:b:c/x", ""]],
  // Nothing is cleaned: dot segments, backslashes and fragments stay in the path.
  ["/a/./b", ["/a/./b", ""]],
  ["/a/../b", ["/a/../b", ""]],
  ["/..", ["/..", ""]],
  ["/a\\b", ["/a\\b", ""]],
  ["/a#frag", ["/a#frag", ""]],
  ["/a\"<>`{}^|b", ["/a\"<>`{}^|b", ""]],
  // Escapes are decoded (an escaped `/` too); bytes are read as UTF-8.
  ["/ver%73ion", ["/version", ""]],
  ["/version%2F", ["/version/", ""]],
  ["/a%25zz", ["/a%zz", ""]],
  ["/a%2e%2E/b", ["/a../b", ""]],
  ["/%C3%A9", ["/é", ""]],
  ["/a+b", ["/a+b", ""]],
  // Bad escapes in the path are errors; in the query they are not checked.
  ["/%", undefined],
  ["/%zz", undefined],
  ["/a%4", undefined],
  ["/a%4g", undefined],
  ["/%zz?x", undefined],
  ["/x?%zz", ["/x", "%zz"]],
  // The query: after the first `?`, `#` included; a lone trailing `?` is an empty query.
  ["/x?watch=true&limit=5", ["/x", "watch=true&limit=5"]],
  ["/x?", ["/x", ""]],
  ["/x?a?b", ["/x", "a?b"]],
  ["/x?a=b#c", ["/x", "a=b#c"]],
  // Absolute form: the host is checked and dropped; without `/` after the scheme the URI is opaque (path "").
  ["http://h/apis", ["/apis", ""]],
  ["HTTP://h/version", ["/version", ""]],
  ["http://127.0.0.1:1", ["", ""]],
  ["http:/version", ["/version", ""]],
  ["http:version", ["", ""]],
  ["http:version?x=1", ["", "x=1"]],
  ["http://[/x", undefined],
  ["http://h:port/x", undefined],
  ["http://[::1]:80/x", ["/x", ""]],
  // Neither `/…`, `*` nor absolute; control characters; empty.
  ["x", undefined],
  ["?a", undefined],
  [":x", undefined],
  ["", undefined],
  ["/a\tb", undefined],
  ["/a\x7f", undefined],
];

test("parseRequestURI: Go's path and raw query, or its error", () => {
  for (const [target, want] of CASES) {
    const u = parseRequestURI(target);
    assert.deepEqual(u && [u.path, u.rawQuery], want, JSON.stringify(target));
    assert.equal(isRequestURI(target), want !== undefined, JSON.stringify(target));
  }
});

test("parseRequestURI: a byte that is not UTF-8 after decoding stays a byte (as a lone surrogate, see go/utf8.ts)", () => {
  assert.equal(parseRequestURI("/a%FFb")?.path, "/a\udcffb");
  assert.equal(parseRequestURI("/%C3")?.path, "/\udcc3");
  assert.equal(parseRequestURI("/%C3%A9%E2%82")?.path, "/é\udce2\udc82");
});

test("queryPairs: url.ParseQuery's pairs in order (a `;` or a bad escape drops the pair)", () => {
  assert.deepEqual(queryPairs("a=1&b=x+y&c=%41%2B&d&&e="), [["a", "1"], ["b", "x y"], ["c", "A+"], ["d", ""], ["e", ""]]);
  assert.deepEqual(queryPairs("limit=1;x&watch=true"), [["watch", "true"]]);
  assert.deepEqual(queryPairs("limit=%zz&limit=x%4&limit=2"), [["limit", "2"]]);
  assert.deepEqual(queryPairs(";a=1&b=%3B"), [["b", ";"]]);
  assert.deepEqual(queryPairs("k=%C3%A9&e=%FF&s=😀&p=%F0%9F%98%80"), [["k", "é"], ["e", "\uFFFD"], ["s", "😀"], ["p", "😀"]]);
  assert.deepEqual([...parseQuery("a=1&b=2&a=3")], [["a", ["1", "3"]], ["b", ["2"]]]);
});

test("queryPairs keepBytes: bytes that are not UTF-8 stay bytes (lone surrogates), as in Go's url.Values", () => {
  assert.deepEqual(queryPairs("a=%FF&b=a%C3%A9&%FE=1", true), [["a", "\udcff"], ["b", "aé"], ["\udcfe", "1"]]);
  assert.deepEqual(queryPairs("a=%FF"), [["a", "\ufffd"]]);
});
