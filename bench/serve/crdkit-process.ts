// The `crdkit` command from the sources (bin/crdkit.js runs the compiled dist/), for benches that start it as a process.
import { main } from "../../src/cli/main.js";

process.exitCode = await main(process.argv.slice(2));
