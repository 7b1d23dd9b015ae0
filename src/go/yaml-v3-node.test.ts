import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { JsonValue } from "../value/json-value.js";
import { goYamlV3NodeMarshal } from "./yaml-v3-node.js";

/**
 * [JSON value, text] as gnostic's compiler.Marshal wrote them (go.yaml.in/yaml/v3 v3.0.4, the JSON text read
 * with yaml.Unmarshal into a yaml.Node): block scalars at every depth, quoting, keys kept in order. Not
 * reproduced (left out): U+2028 inside a string and a leading byte-order mark.
 */
const RECORDED: [JsonValue, string][] = [["a\nb", "|-\n    a\n    b\n"], [["a\nb", {"k": "x\ny", "m": {"p": "q\nr", "s": ["t\nu"]}, "n": [[{"z": "1\n2"}]]}], "- |-\n  a\n  b\n- k: |-\n    x\n    y\n  m:\n    p: |-\n        q\n        r\n    s:\n        - |-\n          t\n          u\n  n:\n    - - z: |-\n            1\n            2\n"], [{"a": [["x\ny", {"b": "c\nd"}]], "e": {"f": [{"g": {"h": "i\nj"}}]}}, "a:\n    - - |-\n        x\n        y\n      - b: |-\n            c\n            d\ne:\n    f:\n        - g:\n            h: |-\n                i\n                j\n"], [[[["deep\ntext"]]], "- - - |-\n      deep\n      text\n"], [{"k": "  lead\n"}, "k: |4\n      lead\n"], [{"k": "x\n\n"}, "k: |+\n    x\n\n"], [{"a": [{"group": "g", "kind": "K"}, {"x": ["p", "q"]}], "b": {"c": {"d": "yes"}}, "e": [], "f": {}, "g": "123", "h": "a: b", "i": "line1\nline2", "j": 1.5, "k": "", "l": "on", "m": "*x", "n": [[1, 2], [3]]}, "a:\n    - group: g\n      kind: K\n    - x:\n        - p\n        - q\nb:\n    c:\n        d: yes\ne: []\nf: {}\ng: \"123\"\nh: 'a: b'\ni: |-\n    line1\n    line2\nj: 1.5\nk: \"\"\nl: on\nm: '*x'\nn:\n    - - 1\n      - 2\n    - - 3\n"], [["1:20", "2001-01-01", "2001-01-01T10:00:00Z", "0o17", "0x1F", "-.inf", ".5", ".x", "1_000", "<<", "h\u00e9llo", "x #y", " lead", "trail ", "tab\there", "ctl\u0001", "-", "- a", "?", "? x", "@a", "`b", "%c", "!d", "&e", "|f", ">g", "'h", "\"i", "#j", "k:", "l,m", "[n", "{o", "1e5", "+1", "-0b101", "0b2", "Yes", "NO", "~", "null", "NULL", "Null", "nul", "TRUE", "tRUE", "=", "x\r\ny"], "- 1:20\n- \"2001-01-01\"\n- \"2001-01-01T10:00:00Z\"\n- \"0o17\"\n- \"0x1F\"\n- \"-.inf\"\n- \".5\"\n- .x\n- \"1_000\"\n- <<\n- h\u00e9llo\n- 'x #y'\n- ' lead'\n- 'trail '\n- \"tab\\there\"\n- \"ctl\\x01\"\n- '-'\n- '- a'\n- '?'\n- '? x'\n- '@a'\n- '`b'\n- '%c'\n- '!d'\n- '&e'\n- '|f'\n- '>g'\n- '''h'\n- '\"i'\n- '#j'\n- 'k:'\n- l,m\n- '[n'\n- '{o'\n- \"1e5\"\n- \"+1\"\n- \"-0b101\"\n- 0b2\n- Yes\n- NO\n- \"~\"\n- \"null\"\n- \"NULL\"\n- \"Null\"\n- nul\n- \"TRUE\"\n- tRUE\n- =\n- \"x\\r\\ny\"\n"]];

/** Keys that are not simple keys (a line break, more than 128 bytes), recorded the same way. */
const RECORDED_KEYS: [JsonValue, string][] = [[{"a\nb": "e", "x": 1}, "? |-\n    a\n    b\n: e\nx: 1\n"], [{"a\nb": {"c": "d", "e": "f"}}, "? |-\n    a\n    b\n:   c: d\n    e: f\n"], [{"a\nb": ["c", "d"]}, "? |-\n    a\n    b\n:   - c\n    - d\n"], [{"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk": "v"}, "? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n: v\n"], [[{"a\nb": [1]}], "- ? |-\n    a\n    b\n  : - 1\n"], [{"1": "a", "true": "b", "a b": "c", "": "d", "a\nb": "e", "-": "f"}, "\"1\": a\n\"true\": b\na b: c\n\"\": d\n? |-\n    a\n    b\n: e\n'-': f\n"]];

describe("go-yaml v3 Marshal of a node read from JSON (gnostic's Any.yaml)", () => {
  RECORDED.forEach(([value, text], i) => {
    it(`case ${i}`, () => assert.equal(goYamlV3NodeMarshal(value), text));
  });

  RECORDED_KEYS.forEach(([value, text], i) => {
    it(`non-simple key ${i}`, () => assert.equal(goYamlV3NodeMarshal(value), text));
  });

  it("orders keys as the JSON text did when asked (integer keys a JavaScript object reorders)", () => {
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    assert.equal(goYamlV3NodeMarshal({ b: 1, "10": 2, "9": 3 }, cmp), '"10": 2\n"9": 3\nb: 1\n');
  });
});
