/**
 * `Warning` headers as the API server writes them (issue 13): control characters and invalid UTF-8
 * dropped, non-ASCII sent as UTF-8 bytes, duplicates dropped, the 4 KiB total and 256-rune truncation;
 * a committed write is never answered as a failure because of a warning.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startServer, type RunningServer } from "../../src/server/server.js";
import { warningHeaders } from "../../src/server/endpoints/warning-headers.js";
import { api, widget, widgetCrd, WIDGETS } from "./client.js";

/** A header value as the client's bytes, decoded as UTF-8 (fetch hands header bytes over as Latin-1). */
const utf8 = (h: string) => Buffer.from(h, "latin1").toString("utf8");

describe("warningHeaders", () => {
  const cases: { name: string; in: string[]; out: string[] }[] = [
    { name: "quotes and backslashes escaped", in: ['a "b" \\c'], out: ['299 - "a \\"b\\" \\\\c"'] },
    { name: "empty and duplicate texts dropped", in: ["", "x", "x", "y"], out: ['299 - "x"', '299 - "y"'] },
    { name: "control characters drop the warning (CR, LF, tab, DEL, C1)", in: ["a\r\nb", "t\tz", "d\u007f", "c\u0085", "ok"], out: ['299 - "ok"'] },
    { name: "invalid UTF-8 (a lone surrogate) drops the warning", in: ["bad \ud800 text", "ok"], out: ['299 - "ok"'] },
    { name: "non-ASCII kept, as UTF-8 bytes", in: ["ключ 😀"], out: ['299 - "ключ 😀"'] },
  ];
  for (const c of cases) {
    it(c.name, () => assert.deepEqual(warningHeaders(c.in).map(utf8), c.out));
  }

  it("past 4,096 runes in total, replays every warning cut to 256 runes and stops at the total again", () => {
    const long = (ch: string) => ch.repeat(1000);
    // 4 × 1,000 runes fit; the fifth goes over: all are replayed at 256 runes each, later ones too,
    // until 4,096 runes are written (16 warnings of 256 runes).
    const texts = Array.from({ length: 30 }, (_, i) => long(String.fromCharCode(0x430 + i)));
    const out = warningHeaders(texts).map(utf8);
    assert.equal(out.length, 16);
    for (let i = 0; i < 16; i++) assert.equal(out[i], `299 - "${String.fromCharCode(0x430 + i).repeat(256)}"`);
    const fits = warningHeaders(texts.slice(0, 4)).map(utf8);
    assert.deepEqual(fits, texts.slice(0, 4).map((t) => `299 - "${t}"`));
  });
});

describe("Warning headers over HTTP", () => {
  let srv: RunningServer;
  before(async () => {
    srv = await startServer();
    assert.equal((await api(srv.url, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widgetCrd())).status, 201);
  });
  after(() => srv.close());

  it("an unknown field named ключ is warned about in UTF-8", async () => {
    const r = await api(srv.url, "POST", WIDGETS, widget("cyr", { ключ: 1 }));
    assert.equal(r.status, 201, r.text);
    assert.equal(utf8(r.headers.get("warning")!), '299 - "unknown field \\"spec.ключ\\""');
  });

  it("a warning with CR/LF is dropped and the committed write answers 201", async () => {
    const r = await api(srv.url, "POST", WIDGETS, widget("crlf", { "a\r\nb": 1, c: 2 }));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.headers.get("warning"), '299 - "unknown field \\"spec.c\\""');
    assert.equal((await api(srv.url, "GET", `${WIDGETS}/crlf`)).status, 200);
  });
});
