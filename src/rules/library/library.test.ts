/**
 * Kubernetes CEL libraries (cases translated from apiserver pkg/cel/library/*_test.go): results and exact
 * runtime error texts.
 */
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CelError, CelOptional, type CelValue } from "../../cel/index.js";
import { compileNodeRules } from "../compile.js";
import { schemaDeclType } from "../decl-type.js";
import { structural } from "../test-helpers.test-util.js";

const SCHEMA = structural({ type: "integer" });

/** Evaluates a boolean expression; returns true/false, `error: <text>` or `compile: <text>`. */
function evalBool(expr: string): boolean | string {
  const r = compileNodeRules(SCHEMA, [{ rule: expr }], schemaDeclType(SCHEMA, false));
  if (!Array.isArray(r)) return `internal: ${r.internalError}`;
  const c = r[0]!;
  if (c.error) return `compile: ${c.error.detail}`;
  const v: CelValue = c.program!.eval({ self: 1n }).value;
  if (v instanceof CelError) return `error: ${v.message}`;
  if (typeof v === "boolean") return v;
  return `value: ${String(v)}`;
}

const TRUE: string[] = [
  // urls
  "url('https://kubernetes.io/docs/').getScheme() == 'https'",
  "url('https://user:pass@example.com:80/path?query=val#fragment').getHost() == 'example.com:80'",
  "url('https://[::1]:80/path').getHostname() == '::1'",
  "url('https://example.com:8080').getPort() == '8080'",
  "url('https://example.com').getPort() == ''",
  "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
  "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
  "url('https://example.com/a%2Fb').getEscapedPath() == '/a%2Fb'",
  "isURL('https://kubernetes.io/docs/')",
  "!isURL('../relative-path')",
  "!isURL('not a url')",
  // regex
  "'abc 123'.find('[0-9]+') == '123'",
  "'abc'.find('[0-9]+') == ''",
  "'123 abc 456'.findAll('[0-9]+') == ['123', '456']",
  "'123 abc 456'.findAll('[0-9]+', 1) == ['123']",
  "'123 abc 456'.findAll('xyz') == []",
  // lists
  "[1, 2, 3].isSorted()",
  "!['c', 'b'].isSorted()",
  "[1, 2, 3].sum() == 6",
  "[1.5, 2.5].sum() == 4.0",
  "[duration('1s'), duration('2s')].sum() == duration('3s')",
  "[3, 1, 2].min() == 1",
  "[3, 1, 2].max() == 3",
  "['a', 'c', 'b'].max() == 'c'",
  "[1, 2, 3, 2].indexOf(2) == 1",
  "[1, 2, 3, 2].lastIndexOf(2) == 3",
  "[1, 2].indexOf(5) == -1",
  "[].sum() == 0",
  // quantity
  "quantity('200M') == quantity('0.2G')",
  "quantity('2M') == quantity('0.002G') && quantity('2000k') == quantity('2M')",
  "quantity('50M').isLessThan(quantity('50Mi'))",
  "quantity('50Mi').isGreaterThan(quantity('50M'))",
  "quantity('200M').compareTo(quantity('0.2G')) == 0",
  "quantity('50M').compareTo(quantity('50Mi')) == -1",
  "quantity('50k').add(quantity('20')) == quantity('50.02k')",
  "quantity('50k').add(20) == quantity('50020')",
  "quantity('50k').sub(quantity('20')) == quantity('49.98k')",
  "quantity('50k').sub(20) == quantity('49980')",
  "quantity('50k').asInteger() == 50000",
  "quantity('50.5').asApproximateFloat() == 50.5",
  "quantity('50').isInteger()",
  "!quantity('50.5').isInteger()",
  "sign(quantity('-50k')) == -1",
  "isQuantity('20Mi')",
  "!isQuantity('20Mo')",
  // ip
  "ip('192.168.0.1').family() == 4",
  "ip('2001:db8::68').family() == 6",
  "ip('0.0.0.0').isUnspecified()",
  "ip('127.0.0.1').isLoopback()",
  "ip('224.0.0.1').isLinkLocalMulticast()",
  "ip('169.254.169.254').isLinkLocalUnicast()",
  "ip('192.168.0.1').isGlobalUnicast()",
  "!ip('255.255.255.255').isGlobalUnicast()",
  "ip.isCanonical('2001:db8::68')",
  "!ip.isCanonical('2001:DB8::68')",
  "isIP('192.168.0.1')",
  "!isIP('192.168.0.1.0')",
  "string(ip('192.168.0.1')) == '192.168.0.1'",
  "ip('192.168.0.1') == ip('192.168.0.1')",
  // cidr
  "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))",
  "!cidr('192.168.0.0/24').containsIP('192.168.1.1')",
  "cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/25'))",
  "!cidr('192.168.0.0/24').containsCIDR('192.168.0.0/23')",
  "cidr('192.168.0.0/24').ip() == ip('192.168.0.0')",
  "cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')",
  "cidr('2001:db8::/32').prefixLength() == 32",
  "string(cidr('2001:db8:1::/32').masked()) == '2001:db8::/32'",
  "isCIDR('10.0.0.0/8')",
  "!isCIDR('10.0.0.0/')",
  // semver
  "semver('1.2.3').major() == 1",
  "semver('1.2.3').minor() == 2",
  "semver('1.2.3').patch() == 3",
  "semver('1.0.0').isLessThan(semver('1.0.1'))",
  "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))",
  "semver('1.0.0-alpha.1').isGreaterThan(semver('1.0.0-alpha'))",
  "semver('1.2.3').compareTo(semver('1.2.3+build')) == 0",
  "semver('v01.2', true) == semver('1.2.0')",
  "isSemver('1.2.3')",
  "!isSemver('1.2')",
  "isSemver('v1.2', true)",
  // format
  "!format.dns1123Label().validate('my-name').hasValue()",
  "format.dns1123Label().validate('My-Name').hasValue()",
  "format.named('dns1123Label').hasValue()",
  "!format.named('nope').hasValue()",
  "format.named('uuid').value().validate('not-a-uuid') == optional.of(['does not match the UUID format'])",
  "!format.uri().validate('https://example.com').hasValue()",
  "!format.labelValue().validate('my.value').hasValue()",
  // sets / strings / two-variable comprehensions from the generic engine
  "sets.contains([1, 2, 3], [2])",
  "'a,b'.split(',') == ['a', 'b']",
  "[1, 2].all(i, v, i < v)",
];

const ERRORS: [string, string][] = [
  ["url('../relative') == url('x')", "error: URL parse error during conversion from string: parse \"../relative\": invalid URI for request"],
  // a constant pattern is compiled with the program (cel.OptimizeRegex); a computed one when evaluated
  ["'abc'.find('[') == ''", "compile: program instantiation failed: error parsing regexp: missing closing ]: `[`"],
  ["'abc'.find('[' + '') == ''", "error: Illegal regex: error parsing regexp: missing closing ]: `[`"],
  ["[].min() == 1", "error: min called on empty list"],
  ["[].max() == 1", "error: max called on empty list"],
  ["quantity('10Mo') == quantity('1')", "error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ["quantity('50.5').asInteger() == 1", "error: cannot convert value to integer"],
  ["ip('192.168.0.1.0').family() == 4", 'error: IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long'],
  [
    "ip('2001:db8:::68').family() == 4",
    'error: IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")',
  ],
  [
    "cidr('192.168.0.0/').prefixLength() == 1",
    'error: network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""',
  ],
  ["ip('::ffff:1.2.3.4').family() == 6", 'error: IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed'],
  ["ip('fe80::1%eth0').family() == 6", 'error: IP address "fe80::1%eth0" with zone value is not allowed'],
  ["semver('1.2').major() == 1", "error: No Major.Minor.Patch elements found"],
  ["semver('01.2.3').major() == 1", 'error: Major number must not contain leading zeroes "01"'],
  ["semver('1.2.3-').major() == 1", "error: Prerelease is empty"],
  ["semver('v1.2-beta', true).major() == 1", "error: short version cannot contain PreRelease/Build meta data"],
];

describe("Kubernetes CEL libraries", () => {
  for (const expr of TRUE) {
    it(expr, () => assert.equal(evalBool(expr), true));
  }
  for (const [expr, want] of ERRORS) {
    it(expr, () => assert.equal(evalBool(expr), want));
  }
  it("quantity() requires a string", () => {
    assert.match(String(evalBool("quantity(1) == quantity('1')")), /^compile: compilation failed: ERROR: <input>:1:9: found no matching overload for 'quantity' applied to '\(int\)'/);
  });
  it("optional values", () => {
    assert.equal(CelOptional.NONE.hasValue(), false);
  });
});
