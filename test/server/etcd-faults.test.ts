import { EtcdProcess } from "../storage/etcd-process.js";
import { etcdFaultsSuite } from "./etcd-faults-suite.js";

etcdFaultsSuite("Debian etcd", () => EtcdProcess.start());
