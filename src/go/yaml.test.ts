/**
 * goYamlMarshal against sigs.k8s.io/yaml JSONToYAML (go-yaml v2.4.4, as k8s.io/apiextensions-apiserver
 * v0.37.2 links it): each expected text was produced by the Go function from the same JSON input. (The
 * same comparison over the 4,382 YAML documents of the shared corpus found no difference.)
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeJsonStream } from "../io/json-decode.js";
import { formatFloatG, goYamlMarshal } from "./yaml.js";

const CASES: [string, string, string][] = [
  ["scalars and numbers", "{\"a\": 1, \"b\": \"x\", \"d\": {}, \"e\": [], \"f\": null, \"g\": true, \"h\": 1.5, \"i\": 1e-07, \"j\": 1234567.5, \"k\": 0.0001, \"l\": 123456, \"m\": -0.5, \"n\": 2.5e+21}", "a: 1\nb: x\nd: {}\ne: []\nf: null\ng: true\nh: 1.5\ni: 1e-07\nj: 1.2345675e+06\nk: 0.0001\nl: 123456\nm: -0.5\n\"n\": 2.5e+21\n"],
  ["strings that would read back as other types are double-quoted", "[\"\", \"true\", \"yes\", \"on\", \"null\", \"~\", \"1\", \"1.5\", \"0x1F\", \"017\", \"1e3\", \".5\", \".inf\", \"2026-11-26T17:00:00Z\", \"2026-01-02\", \"1:20\", \"+1\", \"1_000\", \"0b101\", \"y\", \"Off\", \"<<\", \"_1\"]", "- \"\"\n- \"true\"\n- \"yes\"\n- \"on\"\n- \"null\"\n- \"~\"\n- \"1\"\n- \"1.5\"\n- \"0x1F\"\n- \"017\"\n- \"1e3\"\n- \".5\"\n- \".inf\"\n- \"2026-11-26T17:00:00Z\"\n- \"2026-01-02\"\n- \"1:20\"\n- \"+1\"\n- \"1_000\"\n- \"0b101\"\n- \"y\"\n- \"Off\"\n- <<\n- _1\n"],
  ["indicators make single quotes", "[\"-\", \"- a\", \"a: b\", \"a #b\", \"#x\", \"key:\", \"x:y\", \" lead\", \"trail \", \"a'b\", \"@at\", \"`tick\", \"*star\", \"&amp\"]", "- '-'\n- '- a'\n- 'a: b'\n- 'a #b'\n- '#x'\n- 'key:'\n- x:y\n- ' lead'\n- 'trail '\n- a'b\n- '@at'\n- '`tick'\n- '*star'\n- '&amp'\n"],
  ["control and non-BMP characters are escaped", "{\"r\": \"\\ttab\", \"t\": \"a\\\"b\", \"u\": \"é ü\", \"v\": \"😀\", \"x\": \"back\\\\slash\", \"bell\": \"\\u0007\"}", "bell: \"\\a\"\nr: \"\\ttab\"\nt: a\"b\nu: é ü\nv: \"\\U0001F600\"\nx: back\\slash\n"],
  ["multi-line strings are literal blocks", "{\"m\": \"line1\\nline2\", \"n\": \"line1\\nline2\\n\", \"o\": \"line\\n\\n\", \"y\": \"multi\\n line\", \"z\": \"sp \\nx\", \"multi\\nkey\": 1}", "m: |-\n  line1\n  line2\n? |-\n  multi\n  key\n: 1\n\"n\": |\n  line1\n  line2\no: |+\n  line\n\n\"y\": |-\n  multi\n   line\nz: \"sp \\nx\"\n"],
  ["long lines fold past column 80", "{\"long\": \"word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word\", \"longq\": \"'word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word\", \"longd\": \"\\\"word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word\\t\", \"list\": [\"word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word\", {\"k\": \"word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word\"}]}", "list:\n- word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word\n- k: word word word word word word word word word word word word word word word word\n    word word word word word word word word word word word word word word\nlong: word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word\nlongd: \"\\\"word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word word\\t\"\nlongq: '''word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word word'\n"],
  ["sequences: indentless in mappings, nested on the dash line", "{\"k\": [[1, 2], [[3]], [{\"a\": 1, \"b\": []}]], \"top\": [{\"x\": {\"y\": [1]}}]}", "k:\n- - 1\n  - 2\n- - - 3\n- - a: 1\n    b: []\ntop:\n- x:\n    \"y\":\n    - 1\n"],
  ["keys in go-yaml's natural order", "{\"1\": 7, \"9\": 9, \"10\": 8, \"a10\": 1, \"a2\": 2, \"a1\": 3, \"A\": 4, \"b\": 5, \"_x\": 6, \"a01\": 10, \"a001\": 11, \"ab\": 12, \"a b\": 13, \"f:spec\": {\".\": {}, \"f:x\": {}}, \"\": 1, \"true\": 2}", "\"\": 1\n_x: 6\n\"1\": 7\n\"9\": 9\n\"10\": 8\nA: 4\na b: 13\na1: 3\na01: 10\na001: 11\na2: 2\na10: 1\nab: 12\nb: 5\nf:spec:\n  .: {}\n  f:x: {}\n\"true\": 2\n"],
  ["keys that are not simple (multi-line, over 128 bytes) use ? / :", "{\"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\": {\"a\": 1, \"b\": {\"c\": 2}}, \"jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj\": [1, [2, 3], {\"d\": 4}], \"x\\ny\": \"s\", \"b\": [1]}", "b:\n- 1\n? jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj\n: - 1\n  - - 2\n    - 3\n  - d: 4\n? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n: a: 1\n  b:\n    c: 2\n? |-\n  x\n  y\n: s\n"],
];

describe("goYamlMarshal (sigs.k8s.io/yaml JSONToYAML)", () => {
  for (const [name, json, want] of CASES) {
    it(name, () => {
      const doc = decodeJsonStream(json).documents[0];
      assert.ok(doc);
      assert.equal(goYamlMarshal(doc.value), want);
    });
  }
  it("formats floats as strconv.FormatFloat(f, 'g', -1, 64)", () => {
    assert.deepEqual([1e-7, 0.0001, 123456.5, 1234567.5, 1e21, -2.5].map(formatFloatG), ["1e-07", "0.0001", "123456.5", "1.2345675e+06", "1e+21", "-2.5"]);
  });
});
