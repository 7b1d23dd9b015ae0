import { Env, isCompileFailure, formatType } from "./src/cel/env.js";
const env = new Env({ variables: { self: "map(string, dyn)", x: "int", s: "string" }, extendedValidations: true });
for (const e of ["[1, 'a']", "{'a': 1, 'b': 'c'}", "duration('1x')", "timestamp('2020')", "s.matches('[')", "'%d'.format(['a'])", "'%s %s'.format([1])", "'%s'.format([1, 2])", "'%d'.format([1.0])", "[1, 2] == [1]", "'%s'.format([[1, 'a']])", "duration('1h') < duration('2h')", "x.matches('a')"]) {
  const r = env.compile(e);
  console.log(e, "=>", isCompileFailure(r) ? r.issues : formatType(r.outputType));
}
