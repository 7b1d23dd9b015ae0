/** Runs `crdkit serve` in a child process for restart tests (argv: serve flags). */
import { runServe } from "../../src/cli/serve.js";

const code = await runServe(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
});
process.exit(code);
