/** `GET /version`: kubectl's dispatcher picks `kubectl.1.<minor>` from it. */
import { goJsonIndent } from "../../go/json.js";
import { goJsonMarshalStruct } from "../../go/json-struct.js";
import type { JsonObject } from "../../value/json-value.js";
import { VERSION_INFO } from "../typed/go-shapes.js";

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

/** The answer to `GET /version`: version.Info as WriteRawJSON writes it (json.MarshalIndent, struct order, no newline). */
export function versionAnswer(): { code: number; body: JsonObject; json: string } {
  const body = versionInfo();
  return { code: 200, body, json: goJsonIndent(goJsonMarshalStruct(body, VERSION_INFO)) };
}
