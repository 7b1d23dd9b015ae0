import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addrString, isGlobalUnicast, isLinkLocalUnicast, isLoopback, maskedPrefix, parseAddr, parseKubernetesCIDR,
  parseKubernetesIP, parsePrefix, prefixContains, prefixString,
} from "./netip.js";

const roundTrips: [string, string][] = [
  ["192.168.0.1", "192.168.0.1"], ["2001:db8::68", "2001:db8::68"], ["2001:0db8:0:0:0:0:0:68", "2001:db8::68"],
  ["::", "::"], ["::1", "::1"], ["1:0:0:1:0:0:0:1", "1:0:0:1::1"], ["::ffff:1.2.3.4", "::ffff:1.2.3.4"],
  ["fe80::1%eth0", "fe80::1%eth0"], ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"], ["1:0:2::", "1:0:2::"],
];
for (const [input, want] of roundTrips) {
  test(`netip.ParseAddr(${input}).String()`, () => {
    const a = parseAddr(input);
    assert.notEqual(typeof a, "string", String(a));
    assert.equal(addrString(a as Exclude<typeof a, string>), want);
  });
}

const addrErrors: [string, string][] = [
  ["", 'ParseAddr(""): unable to parse IP'],
  ["1.2.3", 'ParseAddr("1.2.3"): IPv4 address too short'],
  ["1.2.3.4.5", 'ParseAddr("1.2.3.4.5"): IPv4 address too long'],
  ["01.2.3.4", 'ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero'],
  ["1.2.3.256", 'ParseAddr("1.2.3.256"): IPv4 field has value >255'],
  ["1..2.3", 'ParseAddr("1..2.3"): IPv4 field must have at least one digit (at ".2.3")'],
  ["1234:::cdef", 'ParseAddr("1234:::cdef"): each colon-separated field must have at least one digit (at ":cdef")'],
  ["1:2", 'ParseAddr("1:2"): address string too short'],
  ["::g", 'ParseAddr("::g"): each colon-separated field must have at least one digit (at "g")'],
  ["%eth0", 'ParseAddr("%eth0"): missing IPv6 address'],
];
for (const [input, want] of addrErrors) test(`netip.ParseAddr(${JSON.stringify(input)}) error`, () => assert.equal(parseAddr(input), want));

test("prefixes", () => {
  assert.equal(parsePrefix("1.2.3.4"), 'netip.ParsePrefix("1.2.3.4"): no \'/\'');
  assert.equal(parsePrefix("1.2.3.4/33"), 'netip.ParsePrefix("1.2.3.4/33"): prefix length out of range');
  assert.equal(parsePrefix("1.2.3.4/024"), 'netip.ParsePrefix("1.2.3.4/024"): bad bits after slash: "024"');
  const p = parsePrefix("10.1.2.3/8");
  assert.ok(typeof p !== "string");
  assert.equal(prefixString(maskedPrefix(p)), "10.0.0.0/8");
  const ip = parseAddr("10.200.0.1");
  assert.ok(typeof ip !== "string");
  assert.ok(prefixContains(p, ip));
});

test("Kubernetes ip()/cidr() parse errors", () => {
  assert.equal(parseKubernetesIP("::ffff:1.2.3.4"), 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed');
  assert.equal(parseKubernetesIP("fe80::1%eth0"), 'IP address "fe80::1%eth0" with zone value is not allowed');
  assert.equal(
    parseKubernetesCIDR("foo"),
    "network address parse error during conversion from string: netip.ParsePrefix(\"foo\"): no '/'",
  );
});

test("classification", () => {
  const a = (s: string) => parseAddr(s) as Exclude<ReturnType<typeof parseAddr>, string>;
  assert.ok(isLoopback(a("127.0.0.1")) && isLoopback(a("::1")));
  assert.ok(isLinkLocalUnicast(a("169.254.1.1")) && isLinkLocalUnicast(a("fe80::1")));
  assert.ok(isGlobalUnicast(a("8.8.8.8")) && !isGlobalUnicast(a("255.255.255.255")) && !isGlobalUnicast(a("224.0.0.1")));
});
