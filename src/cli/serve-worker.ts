// The entry of a `crdkit serve --workers N` worker process (serve-workers.ts forks it with the serve flags).
import { runServe } from "./serve.js";

const code = await runServe(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
});
process.exit(code);
