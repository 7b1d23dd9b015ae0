/**
 * The group, version and kind a body is decoded as: the serializer reads `apiVersion` and `kind` from the body
 * (`SimpleMetaFactory.Interpret`, `schema.ParseGroupVersion`) and fills in what is missing from the request's
 * (`gvkWithDefaults`). Decode errors name this kind and version (`widget in version "v1" cannot be handled as a
 * Widget: …`), not the resource's.
 */
import { parseGroupVersion } from "../objectmeta/validate-meta.js";

export interface BodyGvk {
  group: string;
  version: string;
  kind: string;
}

/**
 * `gvkWithDefaults(Interpret(body), defaults)` for a decoded body object (`apiVersion`/`kind` that are no
 * strings count as missing); undefined when the apiVersion does not parse (the serializer's own error).
 */
export function bodyGvk(obj: { [key: string]: unknown }, defaults: BodyGvk): BodyGvk | undefined {
  const av = typeof obj["apiVersion"] === "string" ? obj["apiVersion"] : "";
  const gv = parseGroupVersion(av);
  if (gv === null) return undefined;
  let [group, version] = gv;
  const k = obj["kind"];
  const kind = typeof k === "string" && k !== "" ? k : defaults.kind;
  if (version === "" && group === "") {
    group = defaults.group;
    version = defaults.version;
  }
  if (version === "" && group === defaults.group) version = defaults.version;
  return { group, version, kind };
}
