/** Differential fuzzing against k8s.io/apiextensions-apiserver; see README.md in this folder. */
import { execFileSync } from "node:child_process";
import { compileSchemaValidator, validateCustomResource, validateCustomResourceUpdate } from "../../../src/validation/index.js";
import { errorString, FieldPath } from "../../../src/errors/index.js";
import { Float64, type JsonValue, float64, kindOf } from "../../../src/value/json-value.js";
// biome-ignore lint/suspicious/noExplicitAny: generated schemas and values are untyped JSON
type Any = any;
let seed = Number(process.env.SEED ?? 7);
const rnd = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
const pick = <T,>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
const chance = (p: number) => rnd() < p;
const FORMATS = ["email", "uri", "hostname", "ipv4", "ipv6", "cidr", "mac", "uuid", "date", "date-time", "datetime", "duration", "byte", "int32", "int64", "float", "double", "k8s-short-name", "bogus", "password", "hexcolor"];
const PATTERNS = ["^a", "b$", "^[a-z]+$", "\\d", "(?=x)", "+", "^.{2,3}$", "é", "^\\s*$", "(?i)^A"];
const STRS = ["", "a", "ab", "abc", "A", "1", "é😀", "a@b.c", "1.2.3.4", "::1", "2020-01-01", "2020-01-01T00:00:00Z", "1h", "YWI=", "x y", "a-b", "01:02:03:04:05:06", "10.0.0.0/8", "http://x/y"];
const NUMS: JsonValue[] = [0, 1, -1, 5, 10, 2147483648, -2147483649, 1.5, 0.25, float64(1), float64(10), float64(1e20), 1e6 + 0.5, 9007199254740993n, -3];
function genSchema(d: number): Any {
  const s: Any = {};
  const t = pick(["string", "integer", "number", "boolean", "object", "array", "", "", "ios"]);
  if (t === "ios") s["x-kubernetes-int-or-string"] = true; else if (t) s.type = t;
  if (chance(0.15)) s.nullable = true;
  if (chance(0.15)) s.format = pick(FORMATS);
  if (chance(0.15)) s.maxLength = Math.floor(rnd() * 4);
  if (chance(0.1)) s.minLength = Math.floor(rnd() * 4);
  if (chance(0.15)) s.pattern = pick(PATTERNS);
  if (chance(0.15)) s.maximum = pick([0, 1, 10, 1.5, 1e6, 2147483647, 1e20]);
  if (chance(0.1)) s.exclusiveMaximum = true;
  if (chance(0.15)) s.minimum = pick([0, 1, -1, 0.5, 5]);
  if (chance(0.1)) s.exclusiveMinimum = true;
  if (chance(0.1)) s.multipleOf = pick([2, 3, 0.5, 0.1, 1.5]);
  if (chance(0.1)) s.enum = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick<JsonValue>(["a", "b", 1, float64(1), 1.5, true, null, { k: 1 }, [1]]));
  if (d > 0 && (t === "array" || chance(0.1))) { s.items = genSchema(d - 1); if (chance(0.3)) s.maxItems = Math.floor(rnd() * 3); if (chance(0.2)) s.minItems = 1 + Math.floor(rnd() * 2); if (chance(0.1)) s.uniqueItems = true;
    if (chance(0.3)) { s.items = { type: "object", properties: { k: { type: "string" }, v: genSchema(d - 1) } }; s["x-kubernetes-list-type"] = "map"; s["x-kubernetes-list-map-keys"] = ["k"]; } }
  if (d > 0 && (t === "object" || chance(0.1))) {
    if (chance(0.8)) { s.properties = {}; for (const k of ["a", "b", "c"].slice(0, 1 + Math.floor(rnd() * 3))) s.properties[k] = genSchema(d - 1); }
    if (chance(0.3)) s.required = ["a", "z"].slice(0, 1 + Math.floor(rnd() * 2));
    if (chance(0.2)) s.additionalProperties = chance(0.4) ? false : genSchema(d - 1);
    if (chance(0.15)) s.maxProperties = Math.floor(rnd() * 3);
    if (chance(0.1)) s.minProperties = 1 + Math.floor(rnd() * 2);
  }
  if (d > 0 && chance(0.12)) s.anyOf = [genSchema(d - 1), genSchema(d - 1)];
  if (d > 0 && chance(0.08)) s.oneOf = [genSchema(d - 1), genSchema(d - 1)];
  if (d > 0 && chance(0.08)) s.allOf = [genSchema(d - 1)];
  if (d > 0 && chance(0.05)) s.not = genSchema(d - 1);
  return s;
}
function genValue(s: Any, d: number): JsonValue {
  if (chance(0.08)) return null;
  const t = chance(0.8) ? (s?.type ?? pick(["string", "integer", "object", "array"])) : pick(["string", "integer", "number", "boolean", "object", "array"]);
  switch (t) {
    case "string": return pick(STRS);
    case "integer": case "number": return pick(NUMS);
    case "boolean": return chance(0.5);
    case "array": { if (d <= 0) return []; const n = Math.floor(rnd() * 4); return Array.from({ length: n }, () => (s?.["x-kubernetes-list-type"] === "map" && chance(0.8) ? { k: pick(["x", "y", "z"]), v: genValue(s.items?.properties?.v, d - 1) } : genValue(s?.items, d - 1))); }
    default: { if (d <= 0) return {}; const o: Record<string, JsonValue> = {}; for (const k of ["a", "b", "c", "z"]) if (chance(0.5)) o[k] = genValue(s?.properties?.[k] ?? s?.additionalProperties, d - 1); return o; }
  }
}
function mutateValue(v: JsonValue, s: Any, d: number): JsonValue {
  if (chance(0.5)) return v;
  if (Array.isArray(v)) { const a = v.map((x) => (chance(0.3) ? mutateValue(x, s?.items ?? s?.items, d - 1) : x)); if (chance(0.2)) a.reverse(); if (chance(0.15)) a.pop(); return a; }
  if (kindOf(v) === "object") { const o: Record<string, JsonValue> = {}; for (const [k, x] of Object.entries(v as object)) if (!chance(0.1)) o[k] = chance(0.3) ? mutateValue(x as JsonValue, s?.properties?.[k], d - 1) : (x as JsonValue); if (chance(0.1)) o.b = genValue(s?.properties?.b, d - 1); return o; }
  return genValue(s, d);
}
function tagged(v: JsonValue): string {
  if (v instanceof Float64) { const n = v.value; const s = String(n); return /[.eE]/.test(s) ? s : `${s}.0`; }
  if (typeof v === "number") { const s = String(v); return Number.isInteger(v) && /[eE]/.test(s) ? BigInt(v).toString() : s; }
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return `[${v.map(tagged).join(",")}]`;
  if (v && typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${tagged(x as JsonValue)}`).join(",")}}`;
  return JSON.stringify(v);
}
const N = Number(process.env.N ?? 3000);
const cases: { schema: Any; value: JsonValue; old?: JsonValue; path?: string }[] = [];
for (let i = 0; i < N; i++) {
  const schema = genSchema(Number(process.env.DEPTH ?? 3));
  const value = genValue(schema, 3);
  const c: Any = { schema, value };
  if (chance(0.4)) c.old = mutateValue(value, schema, 3);
  if (chance(0.1)) c.path = "status";
  cases.push(c);
}
const input = cases.map((c) => `{"schema":${tagged(c.schema)},"value":${tagged(c.value)}${c.old !== undefined ? `,"old":${tagged(c.old)}` : ""}${c.path ? `,"path":"${c.path}"` : ""}}`).join("\n") + "\n";
const lines = execFileSync(process.env.ORACLE ?? "/tmp/goracle2/oracle", { input, maxBuffer: 1 << 28 }).toString().trim().split("\n");
let bad = 0, errsSeen = 0, ratchetMattered = 0, composite = 0;
cases.forEach((c, i) => {
  const go: string[] = JSON.parse(lines[i]!);
  if (go.some((g) => g.startsWith("PANIC") || g.startsWith("BAD") || g.startsWith("CONVERT") || g.startsWith("VALIDATOR"))) { console.log("oracle:", go[0]); return; }
  const v = compileSchemaValidator(c.schema);
  const fp = c.path ? FieldPath.of(c.path) : null;
  const mine = (c.old !== undefined ? validateCustomResourceUpdate(fp, c.value, c.old, v) : validateCustomResource(fp, c.value, v)).map(errorString);
  errsSeen += go.length;
  if (c.old !== undefined && validateCustomResource(fp, c.value, v).length !== go.length) ratchetMattered++;
  if (go.some((g) => g.includes("must validate"))) composite++;
  const a = [...go].sort(), b = [...mine].sort();
  if (JSON.stringify(a) !== JSON.stringify(b)) { bad++; if (bad <= 8) console.log(JSON.stringify({ schema: c.schema, value: tagged(c.value), old: c.old === undefined ? undefined : tagged(c.old) }), "\n  go:  ", JSON.stringify(a), "\n  mine:", JSON.stringify(b)); }
});
console.log({ cases: N, bad, errsSeen, ratchetMattered, composite });
