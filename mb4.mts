import { parse } from "./src/cel/parser/parser.js";
import { plan } from "./src/cel/interpreter/planner.js";
import { standardFunctions } from "./src/cel/stdlib-impl/index.js";
import { nativeToCel } from "./src/cel/values/native.js";
const f = standardFunctions();
const self = nativeToCel({ minReplicas: 1n, replicas: 3n, maxReplicas: 10n, name: "web-frontend-prod", labels: { app: "web", tier: "frontend", env: "prod" } });
const e = process.argv[2] ?? "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas";
const p1 = plan(parse(e).ast!, { functions: f }); const a1 = { self };
for (let i = 0; i < 3_000_000; i++) p1.eval(a1);
