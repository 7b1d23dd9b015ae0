/** `GET /version`: kubectl's dispatcher picks `kubectl.1.<minor>` from it. */
import type { JsonObject } from "../../value/json-value.js";

/** The Kubernetes version crdkit serves the API of. */
export const SERVED_VERSION = { major: "1", minor: "32" };

export function versionInfo(): JsonObject {
  return {
    major: SERVED_VERSION.major,
    minor: SERVED_VERSION.minor,
    gitVersion: `v${SERVED_VERSION.major}.${SERVED_VERSION.minor}.0-crdkit`,
    gitCommit: "0000000000000000000000000000000000000000",
    gitTreeState: "clean",
    buildDate: "2026-01-01T00:00:00Z",
    goVersion: "go1.23.4",
    compiler: "gc",
    platform: `${process.platform}/${process.arch === "x64" ? "amd64" : process.arch}`,
  };
}
