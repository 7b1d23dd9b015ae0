// The fault tests on etcd 3.6 (built by scripts/go-tools.mjs; `npm run interop` builds and runs them).
import { goTool } from "../interop/go-tools.js";
import { EtcdProcess } from "../storage/etcd-process.js";
import { etcdFaultsSuite } from "./etcd-faults-suite.js";

const { path: bin, skip } = goTool("etcd-3.6", "CRDKIT_ETCD36");
etcdFaultsSuite("etcd 3.6", () => EtcdProcess.start({ bin: bin! }), skip);
