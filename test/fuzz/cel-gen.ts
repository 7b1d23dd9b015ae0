/**
 * Random x-kubernetes-validations rules for the CEL fuzzer (scripts/fuzz-cel.ts): expressions over the
 * Kubernetes libraries (strings ext, lists, sets, optionals, regex, quantity, ip/cidr, url, semver, format,
 * two-variable comprehensions) with constants, int64 overflow, errors inside `||`/`&&`, messageExpression,
 * and objects whose values hit the libraries' parse errors. Each case is a CRD create plus a custom
 * resource create through the real apiextensions code and through crdkit.
 */
import type { JsonObject, JsonValue } from "../../src/value/json-value.js";
import type { Rng } from "./rng.js";

const STRINGS = [
  "", "a", "abc", "ABC", "a,b", "1.2.3.4", "::1", "[::]:80", "10.0.0.0/8", "fe80::1/64", "1.2.3.4/33", "300.1.1.1",
  "1Gi", "500m", "1.5", "-1", "1e3", "Gi", "http://x.io/p?q=1", "https://[::1]:8080/a", "not a url", "/path",
  "1.2.3", "v1.2.3", "1.2.3-alpha+b", "01.2.3", "é日本", "a%b", "2006-01-02T15:04:05Z", "1h30m",
];
const INTS = ["0", "1", "-1", "7", "100", "9223372036854775807", "-9223372036854775808", "4611686018427387904"];

function str(r: Rng, depth: number): string {
  const x = r.next();
  if (depth > 2 || x < 0.35) return r.chance(0.5) ? "self.s" : `'${r.pick(STRINGS)}'`;
  const s = str(r, depth + 1);
  return r.pick([
    `${s}.lowerAscii()`, `${s}.upperAscii()`, `${s} + '${r.pick(STRINGS)}'`, `self.l.join('${r.pick([",", "-", ""])}')`,
    `${s}.replace('a', 'b')`, `string(${int(r, depth + 1)})`, `${s}.substring(${r.int(0, 3)})`, `${s}.trim()`,
    `'%s/%d'.format([${s}, ${int(r, depth + 1)}])`, `${s}.split(',').join('.')`, `self.?s.orValue('${r.pick(STRINGS)}')`,
    `(self.b ? ${s} : 'x')`, `${s}.charAt(${r.int(0, 4)})`, `strings.quote(${s})`, `${s}.reverse()`,
    `self.l.sort().join(',')`, `self.m.?k.orValue('')`,
  ]);
}

function int(r: Rng, depth: number): string {
  const x = r.next();
  if (depth > 2 || x < 0.35) return r.chance(0.5) ? "self.i" : r.pick(INTS);
  const a = int(r, depth + 1);
  return r.pick([
    `${a} + ${int(r, depth + 1)}`, `${a} * ${r.pick(INTS)}`, `${a} / ${r.pick(["2", "0", "-1"])}`, `${a} % ${r.pick(["3", "0"])}`,
    `-${a}`, `size(${str(r, depth + 1)})`, `self.l.size()`, `int(${str(r, depth + 1)})`, `int(self.f)`, `int(${r.pick(["1e19", "-1.5", "2.0"])})`,
    `${str(r, depth + 1)}.indexOf('${r.pick(["a", "", "x"])}')`, `quantity(${str(r, depth + 1)}).asInteger()`,
    `semver(${str(r, depth + 1)}).major()`, `cidr(${str(r, depth + 1)}).prefixLength()`, `ip(${str(r, depth + 1)}).family()`,
    `url(${str(r, depth + 1)}).getPort().size()`, `[1, 2, 3].map(x, x * ${a}).sum()`, `math.abs(${a})`, `math.greatest(${a}, 0)`,
    `self.l.indexOf('${r.pick(STRINGS)}')`, `uint(${a}) > 0u ? 1 : 0`,
  ]);
}

function bool(r: Rng, depth: number): string {
  const x = r.next();
  if (depth < 2 && x < 0.25) {
    const a = bool(r, depth + 1);
    const b = bool(r, depth + 1);
    return r.pick([`(${a} || ${b})`, `(${a} && ${b})`, `!(${a})`, `(self.b ? ${a} : ${b})`]);
  }
  const s = str(r, depth + 1);
  return r.pick([
    `${int(r, depth + 1)} ${r.pick(["<", "<=", "==", "!=", ">", ">="])} ${int(r, depth + 1)}`,
    `${s} ${r.pick(["==", "!=", "<", ">"])} ${str(r, depth + 1)}`,
    `isIP(${s})`, `isCIDR(${s})`, `isQuantity(${s})`, `isURL(${s})`, `isSemver(${s})`, `isSemver(${s}, true)`,
    `${s}.matches('${r.pick(["^[a-z]+$", "[0-9]", "(", "^$", "é"])}')`, `${s}.startsWith(${str(r, depth + 1)})`,
    `${s}.contains('a')`, `ip(${s}).isLoopback()`, `cidr(${s}).containsIP(ip('10.0.0.1'))`, `ip.isCanonical(${s})`,
    `quantity(${s}).isGreaterThan(quantity('1'))`, `quantity(${s}).compareTo(quantity('${r.pick(STRINGS)}')) == 0`,
    `url(${s}).getScheme() == 'https'`, `semver(${s}).isLessThan(semver('1.0.0'))`,
    `self.l.all(x, x.size() < ${r.int(0, 4)})`, `self.l.exists(x, x == ${s})`, `self.l.exists_one(x, x == 'a')`,
    `self.m.all(k, v, k.size() <= v.size())`, `self.m.exists(k, k == 'k')`, `sets.contains(self.l, ['a'])`,
    `sets.intersects(self.l, ['a', 'b'])`, `self.l.isSorted()`, `has(self.s)`, `self.?s.hasValue()`,
    `self.l.filter(x, x != '').size() == self.l.size()`, `self.f > ${r.pick(["0.5", "1.0", "-1e300"])}`,
    `self.l.all(i, x, i < 5 || x == '')`, `${s}.lowerAscii() == ${s}`, `format.dns1123Label().validate(${s}).hasValue()`,
    `duration('${r.pick(["1s", "1h30m"])}') < duration('2h')`, `${s}.find('[0-9]+') != ''`,
    `bool(${r.pick(["'true'", "'yes'"])})`,
  ]);
}

/** The CRD of one case: spec with typed fields and `rules` on spec. */
export function celCrd(rules: JsonObject[]): JsonObject {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: "widgets.example.com" },
    spec: {
      group: "example.com",
      names: { plural: "widgets", singular: "widget", kind: "Widget", listKind: "WidgetList" },
      scope: "Cluster",
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: "object",
              properties: {
                spec: {
                  type: "object",
                  properties: {
                    s: { type: "string", maxLength: 64 },
                    i: { type: "integer" },
                    f: { type: "number" },
                    b: { type: "boolean" },
                    l: { type: "array", maxItems: 8, items: { type: "string", maxLength: 16 } },
                    m: { type: "object", maxProperties: 4, additionalProperties: { type: "string", maxLength: 16 } },
                  },
                  "x-kubernetes-validations": rules as JsonValue[],
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** One case: rules plus an object (as JSON text, to keep int64 / float64 exact). */
export function genCelCase(r: Rng): { crd: JsonObject; objectJson: string } {
  const n = r.int(1, 2);
  const rules: JsonObject[] = [];
  for (let k = 0; k < n; k++) {
    const rule: JsonObject = { rule: bool(r, 0) };
    if (r.chance(0.3)) {
      rule["messageExpression"] = r.pick([`'bad: ' + ${str(r, 1)}`, `string(${int(r, 1)})`, "'x'.repeat(10)", "''", `${str(r, 1)}`]);
    }
    if (r.chance(0.1)) rule["message"] = "custom message";
    rules.push(rule);
  }
  const spec: string[] = [];
  if (r.chance(0.9)) spec.push(`"s":${JSON.stringify(r.pick(STRINGS))}`);
  if (r.chance(0.9)) spec.push(`"i":${r.pick(INTS)}`);
  if (r.chance(0.7)) spec.push(`"f":${r.pick(["1.5", "0.0", "-2.25", "1e300", "3"])}`);
  if (r.chance(0.8)) spec.push(`"b":${r.pick(["true", "false"])}`);
  if (r.chance(0.8)) spec.push(`"l":${JSON.stringify(Array.from({ length: r.int(0, 4) }, () => r.pick(["a", "b", "", "c", "abc", "1.2.3.4"])))}`);
  if (r.chance(0.6)) spec.push(`"m":${JSON.stringify(Object.fromEntries(Array.from({ length: r.int(0, 3) }, () => [r.pick(["k", "a", "key"]), r.pick(["v", "", "long value"])])))}`);
  const objectJson = `{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w1"},"spec":{${spec.join(",")}}}`;
  return { crd: celCrd(rules), objectJson };
}

/** Tokens of a rule (identifiers, numbers, quoted strings, two-character operators, single characters). */
const TOKEN = /'[^']*'|[A-Za-z_][A-Za-z0-9_]*|[0-9][0-9.eE]*u?|&&|\|\||[=!<>]=|\S/g;
const TYPO_TOKENS = [")", "(", "]", "[", ":", ",", "?", "}", "{", ".", "1", "x", "+", "&&", "!", "'a'"];

/**
 * A user's typo in a rule (`fuzz:cel --typos`): one token of `rule` deleted, doubled, replaced or
 * preceded by a stray token, so that the parser's error recovery (missing, extraneous and mismatched
 * tokens, and the errors after the first one) is compared too. Draws from its own `r`.
 */
export function withTypo(r: Rng, rule: string): string {
  const toks = rule.match(TOKEN) ?? [];
  if (toks.length === 0) return rule;
  const i = r.int(0, toks.length - 1);
  const out = [...toks];
  switch (r.int(0, 3)) {
    case 0:
      out.splice(i, 1);
      break;
    case 1:
      out.splice(i, 0, toks[i]!);
      break;
    case 2:
      out[i] = r.pick(TYPO_TOKENS);
      break;
    default:
      out.splice(i, 0, r.pick(TYPO_TOKENS));
  }
  return out.join(" ");
}
