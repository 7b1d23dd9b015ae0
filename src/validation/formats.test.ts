/**
 * String formats: kube-openapi strfmt default_test.go / date_test.go / time_test.go / duration_test.go /
 * kubernetes-extensions_test.go valid/invalid tables, apiextensions formats_test.go (supported formats
 * per compatibility version, GetUnrecognizedFormats), plus Go-parser edge cases (net, url, mail, time).
 */
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";
import { effectiveFormat, getUnrecognizedFormats, getUnrecognizedFormatsInSchema, lookupFormat, supportedFormats, validatesFormat } from "./formats.js";

const a = (c: string, n: number) => c.repeat(n);

const TABLES: Record<string, { valid: string[]; invalid: string[] }> = {
  uri: {
    valid: ["http://somewhere.com", "http://somewhereelse.com", "/absolute/path", "*", "mailto:someone", "http:", "https://[::1]:80/x?y#z", "http://u:p@host/%41", "http://[fe80::1%25en0]:8080/", "mongodb://a:1,b:2/db", "http://[::ffff:1.2.3.4]/"],
    invalid: [
      "somewhere.com", "", "relative/path", ":foo", "http://host/%zz", "http://ho st/", "http://host:8a/", "http://[::1/", "a\tb", "?q",
      "http://[1.2.3.4]/", "http://x[::1]/", "http://a:1:2/", "http://[v1.x]/",
    ],
  },
  email: {
    valid: [
      "somebody@somewhere.com", "somebodyelse@somewhere.com", "blah@gmail.com", "test@d.verylongtoplevel", "email+tag@gmail.com",
      `" "@example.com`, String.raw`"Abc\@def"@example.com`, `"Fred Bloggs"@example.com`, String.raw`"Joe\\Blow"@example.com`,
      `"Abc@def"@example.com`, "customer/department=shipping@example.com", "$A12345@example.com", "!def!xyz%abc@example.com",
      "_somename@example.com", "!#$%&'*+-/=?^_`{}|~@example.com", "Miles.O'Brian@example.com", "postmaster@☁→❄→☃→☀→☺→☂→☹→✝.ws",
      "root@localhost", "john@com", "api@piston.ninja", "Barry Gibbs <bg@example.com>", "a@b (comment)", "group: a@b;", "x@[127.0.0.1]",
    ],
    invalid: ["somebody@somewhere@com", "", "plainaddress", "a..b@c", ".a@b", "a@b.", "Name <a@b", "group:;", "group: a@b, c@d;", "x@[999.1.1.1]"],
  },
  hostname: {
    valid: [
      "somewhere.com", "888.com", "a.com", "a.b.com", "a.b.c.com", "a.b.c.d.com", "a.b.c.d.e.com", "1.com", "1.2.com", "1.2.3.com",
      "1.2.3.4.com", "99.domain.com", "99.99.domain.com", "1wwworg.example.com", "1000wwworg.example.com", "xn--bcher-kva.example.com",
      "xn-80ak6aa92e.co", "xn-80ak6aa92e.com", "xn--ls8h.la", "☁→❄→☃→☀→☺→☂→☹→✝.ws", "www.example.onion", "www.example.ôlà", "ôlà.ôlà",
      "ôlà.ôlà.ôlà", "ex$ample", "localhost", "example", "x", "x-y", "a.b.c.dot", "www.example.org", "a.b.c.d.e.f.g.dot", "ex=ample.com",
      "<foo>", "www.example-hyphenated.org", "www.詹姆斯.org", "www.élégigôö.org", "www.詹姆斯.london",
    ],
    invalid: [
      "somewhere.com!", "user@email.domain", "1.1.1.1", a("a", 256), ["x", "y", a("a", 64)].join("."), "www.example-.org",
      "www.--example.org", "-www.example.org", "www-.example.org", "www.d-.org", "www.-d.org", "www-", "-www", "www.ex ample.org",
      "_www.example.org", "www.ex;ample.org", "www.example_underscored.org", "www.詹姆斯.x", "a.b.c.d", "-xyz", "xyz-", "x.", "a.b.c.dot-",
      "a.b.c.é;ö",
    ],
  },
  ipv4: {
    valid: ["192.168.254.1", "192.168.254.2", "127.0.0.1", "192.168.1.1", "192.168.1.01", "0001.2.3.4", "::ffff:1.2.3.4"],
    invalid: ["198.168.254.2.2", "256.1.1.1", "1.2.3", "::1", "", "1.2.3.4 "],
  },
  ipv6: {
    valid: ["::1", "::2", "2001:db8::1", "::ffff:1.2.3.4", "1:2:3:4:5:6:7:8", "fe80::", "::"],
    invalid: ["127.0.0.1", "::1%eth0", "1:2:3:4:5:6:7:8:9", "1::2::3", "00001::", "::ffff:01.2.3.4", "g::1"],
  },
  cidr: {
    valid: ["192.168.254.1/24", "192.168.254.2/24", "192.0.2.1/24", "192.0.02.1/24", "2001:db8:a0b:12f0::1/32", "10.0.0.0/032", "::/128"],
    invalid: ["198.168.254.2", "2001:db8:a0b:12f0::1", "10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/8x"],
  },
  mac: {
    valid: ["01:02:03:04:05:06", "06:05:04:03:02:01", "01-02-03-04-05-06", "0102.0304.0506", "01:02:03:04:05:06:07:08", "0123456789ab"],
    invalid: ["01:02:03:04:05", "0123456789a", "0123456789ag", "01:02:03:04:05:0g", "01:02-03:04:05:06", "0102.0304.050", "01:02:03:04:05:06:07"],
  },
  uuid: {
    valid: ["a3bb189e-8bf9-3888-9912-ace4e6543002", "F47AC10B58CC4372A5670E02B2C3D479"],
    invalid: ["not-a-uuid", "a3bb189e-8bf9-3888-9912-ace4e654300"],
  },
  uuid3: { valid: ["a3bb189e-8bf9-3888-9912-ace4e6543002"], invalid: ["not-a-uuid", "f47ac10b-58cc-4372-a567-0e02b2c3d479"] },
  uuid4: { valid: ["f47ac10b-58cc-4372-a567-0e02b2c3d479"], invalid: ["not-a-uuid", "f47ac10b-58cc-4372-c567-0e02b2c3d479"] },
  uuid5: { valid: ["886313e1-3b8a-5372-9b90-0c9aee199e5d"], invalid: ["not-a-uuid", "a3bb189e-8bf9-3888-9912-ace4e6543002"] },
  isbn: { valid: ["0321751043", "978-0321751041"], invalid: ["836217463"] },
  isbn10: { valid: ["0321751043", "0-321-75104-3", "080442957X"], invalid: ["836217463", "978-0321751041"] },
  isbn13: { valid: ["978-0321751041", "978 0321751041"], invalid: ["978-0321751042", "0321751043"] },
  hexcolor: { valid: ["#FFFFFF", "#000000", "fff", "#abc"], invalid: ["#fffffffz", "#ffff"] },
  rgbcolor: { valid: ["rgb(255,255,255)", "rgb(0,0,0)", "rgb( 1 , 2 , 3 )"], invalid: ["rgb(300,0,0)", "rgb(0,0)", "rgb(01,0,0)"] },
  ssn: { valid: ["111-11-1111", "999 99 9999"], invalid: ["999 99 999", "111111111", "111-11-11111"] },
  creditcard: { valid: ["4111-1111-1111-1111", "4012-8888-8888-1881", "4111 1111 1111 1111"], invalid: ["9999-9999-9999-999", "4111-1111-1111-1112"] },
  password: { valid: ["super secret stuff here", "super secret!!!", "even more secret", ""], invalid: [] },
  byte: {
    valid: ["ZWxpemFiZXRocG9zZXk=", "VGhpcyBpcyBh", "YWI="],
    invalid: ["ZWxpemFiZXRocG9zZXk", "", "YW=I", "YWI=YWI="],
  },
  bsonobjectid: { valid: ["507f1f77bcf86cd799439011", "507F1F77BCF86CD799439011"], invalid: ["507f1f77bcf86cd79943901", "507f1f77bcf86cd79943901g", "yada"] },
  date: {
    valid: ["2017-12-22", "2000-02-29", "2400-02-29", "2014-12-15", "0000-01-01"],
    invalid: ["2017-1-1", "17-13-22", "2017-02-29", "1900-02-29", "2100-02-29", "2017-13-22", "2017-12-32", "20171-12-32", "YYYY-MM-DD", "20-17-2017", "2017-12-22T01:02:03Z", "2017-00-10", "2017-01-00", "1972/01/01"],
  },
  datetime: {
    valid: ["2014-12-15T08:00:00.000Z", "2011-08-18T19:03:37.000000000+01:00", "2014-12-15T19:30:20Z", "0001-01-01T00:00:00Z", "2014-12-15t19:30:20z"],
    invalid: ["zor", "zorg", "zorgTx", "1972-12-31Tx", "1972-12-31T24:40:00.000Z", "1972-12-31T23:63:00.000Z", "1972-12-31T23:59:60.000Z", "2014-12-15T08:00:00", "", "2014-12-15 08:00:00Z"],
  },
  duration: {
    valid: [
      "0ms", "2ms", "0", "-1.5h", "1h30m", ".5s", "1.s", "1µs", "1μs", "1ns", "1us", "1s", "1m", "1h", "1hr", "1d", "1w", "1wk",
      "1nanoseconds", "1nanos", "1microseconds", "1micros", "1millis", "1milliseconds", "1second", "1sec", "1min", "1minute", "1hour",
      "1day", "1week", "1  ns", "1  us", "1  µs", "1  ms", "1  s", "1  m", "1  h", "1  hr", "1  d", "1  w", "1  wk", "1  nanoseconds",
      "1  week", "3000000h", "45 weeks", "45 weekz", "12 hours", "12 minutes", "abc 5 days xyz",
    ],
    invalid: [
      "yada", "three week", "9999999999999999999999999999999999999999999999999999999 weeks", "12 parsecs", "12 y", "45 wekk", "45 weeekks",
      "12 phours", "", "5", ".s", "-", "+.",
    ],
  },
  "k8s-short-name": {
    valid: ["a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2", a("a", 63)],
    invalid: [
      "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "-a", "-1", "_", "a_", "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a.b", "1.",
      ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1", "1 2", a("a", 64), "a-", "1-",
    ],
  },
  "k8s-long-name": {
    valid: [
      "a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a", "1--a--b--2", "a.a", "ab.a", "abc.a", "a1.a", "a-1.a",
      "a--1--2--b.a", "a.1", "ab.1", "abc.1", "a1.1", "a-1.1", "a--1--2--b.1", "0.a", "01.a", "012.a", "1a.a", "1-a.a", "0.1", "01.1",
      "012.1", "1a.1", "1-a.1", "1--a--b--2.1", "a.b.c.d.e", "aa.bb.cc.dd.ee", "1.2.3.4.5", "11.22.33.44.55", a("a", 253),
    ],
    invalid: [
      "", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "-a", "-1", "_", "a_", "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a..b", "1.",
      ".1", "1..2", " ", "a ", " a", "a b", "1 ", " 1", "1 2", "A.a", "aB.a", "ab.A", "A1.a", "a1.A", "A.1", "aB.1", "A1.1", "1A.1", "0.A",
      "01.A", "012.A", "1A.a", "1a.A", "A.B.C.D.E", "AA.BB.CC.DD.EE", "a.B.c.d.e", "aa.bB.cc.dd.ee", "a@b", "a,b", "a_b", "a;b", "a:b",
      "a%b", "a?b", "a$b", a("a", 254), "a-", "1-",
    ],
  },
};

describe("strfmt registry", () => {
  for (const [format, t] of Object.entries(TABLES)) {
    it(format, () => {
      for (const s of t.valid) assert.equal(validatesFormat(format, s), true, `expected ${JSON.stringify(s)} to be a valid ${format}`);
      for (const s of t.invalid) assert.equal(validatesFormat(format, s), false, `expected ${JSON.stringify(s)} to be an invalid ${format}`);
    });
  }
  it("has exactly the 26 registered formats; names normalized by removing dashes", () => {
    assert.equal(Object.keys(TABLES).length, 26);
    for (const name of ["date-time", "uuid-4", "k8sshortname", "is-bn"]) assert.ok(lookupFormat(name), name);
    for (const name of ["int32", "binary", "Email", "url", "ip"]) assert.equal(lookupFormat(name), undefined, name);
  });
});

describe("supported formats (formats_test.go)", () => {
  const cases: [string, string | undefined, { major: number; minor: number }, string][] = [
    ["string", "email", { major: 1, minor: 0 }, "email"],
    ["string", "date-time", { major: 1, minor: 0 }, "date-time"],
    ["string", "k8s-short-name", { major: 1, minor: 33 }, ""],
    ["string", "k8s-short-name", { major: 1, minor: 34 }, "k8s-short-name"],
    ["string", "k8s-long-name", { major: 1, minor: 35 }, "k8s-long-name"],
    ["string", "int32", { major: 1, minor: 34 }, ""],
    ["string", "unknown", { major: 1, minor: 34 }, ""],
    ["", "uuid", { major: 1, minor: 34 }, "uuid"],
    ["integer", "int32", { major: 1, minor: 0 }, "int32"],
    ["integer", "int64", { major: 1, minor: 0 }, "int64"],
    ["integer", "uint32", { major: 1, minor: 0 }, ""],
    ["integer", "email", { major: 1, minor: 0 }, ""],
    ["number", "float", { major: 1, minor: 0 }, "float"],
    ["number", "double", { major: 1, minor: 0 }, "double"],
    ["number", "int32", { major: 1, minor: 0 }, ""],
    ["boolean", "email", { major: 1, minor: 0 }, ""],
    ["object", "uri", { major: 1, minor: 0 }, ""],
  ];
  for (const [type, format, version, want] of cases) {
    it(`${type || "<none>"} / ${format} @ ${version.major}.${version.minor}`, () => {
      assert.equal(effectiveFormat(type ? [type] : [], format, supportedFormats(version)), want);
    });
  }
  it("int-or-string nodes are treated like untyped nodes", () => {
    assert.equal(effectiveFormat(["integer", "string"], "int32"), "");
    assert.equal(effectiveFormat(["integer", "string"], "email"), "email");
  });
  it("GetUnrecognizedFormats", () => {
    assert.deepEqual(getUnrecognizedFormats({ type: "string", format: "email" }), []);
    assert.deepEqual(getUnrecognizedFormats({ type: "string", format: "unknown-format" }), ["unknown-format"]);
    assert.deepEqual(getUnrecognizedFormats({ type: "integer", format: "int16" }), ["int16"]);
    assert.deepEqual(getUnrecognizedFormats({ type: "number", format: "float32" }), ["float32"]);
    assert.deepEqual(getUnrecognizedFormats({ type: "boolean", format: "byte" }), ["byte"]);
    assert.deepEqual(getUnrecognizedFormats({ type: "string", format: "k8s-long-name" }, { major: 1, minor: 33 }), ["k8s-long-name"]);
    assert.deepEqual(getUnrecognizedFormats({ type: "string" }), []);
    assert.deepEqual(getUnrecognizedFormats({ "x-kubernetes-int-or-string": true, format: "int32" }), ["int32"]);
    assert.deepEqual(getUnrecognizedFormats({ format: "unknown-format" }), ["unknown-format"]);
    assert.deepEqual(getUnrecognizedFormats({ format: "k8sshortname", type: "string" }), []);
  });
  it("getUnrecognizedFormatsInSchema walks the whole schema", () => {
    assert.deepEqual(
      getUnrecognizedFormatsInSchema({
        type: "object",
        format: "x1",
        properties: {
          a: { type: "string", format: "email" },
          b: { type: "array", items: { type: "integer", format: "uint64" } },
          c: { type: "object", additionalProperties: { type: "string", format: "color" } },
          d: { "x-kubernetes-int-or-string": true, format: "int-or-string" },
        },
        allOf: [{ format: "y" }],
      }),
      ["x1", "y", "uint64", "color", "int-or-string"],
    );
  });
});

describe("email (net/mail) details", () => {
  const cases: [string, boolean][] = [
    ["=?utf-8?q?J=C3=B6rg?= <j@example.com>", true],
    ["=?x-unknown?q?abc?= <j@example.com>", false],
    ["=?x-unknown?b?not*base64?= <j@example.com>", true],
    ["John (the man) Doe <j@example.com>", true],
    ["a@b (unclosed", false],
    ['"" @example.com', false],
    ["a@b, c@d", false],
    ["<a@b>", true],
    ["Name <a@b> trailing", false],
    ["a@[::1]", true],
    ["a@[01.2.3.4]", false],
  ];
  for (const [s, want] of cases) it(s, () => assert.equal(validatesFormat("email", s), want));
});
