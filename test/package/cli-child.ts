/** Runs the `crdkit` command line in a child process (argv: the command's arguments). */
import { main } from "../../src/cli/main.js";

process.exitCode = await main(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  isTTY: false,
});
