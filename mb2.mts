import { Env, isCompileFailure } from "./src/cel/env.js";
import { nativeToCel } from "./src/cel/values/native.js";
const items = []; for (let i = 0; i < 100; i++) items.push({ name: `a${i}`, port: BigInt(8000 + i) });
const self = nativeToCel({ items });
const env = new Env({ variables: { self: "map(string, dyn)" } });
const c = env.compile("self.items.all(x, x.name.startsWith('a') && size(x.name) < 64)"); if (isCompileFailure(c)) throw 1;
const prog = env.program(c);
const act = { self };
for (let i = 0; i < 30000; i++) prog.eval(act);
