/**
 * kubectl-validate's corrections to the published OpenAPI of built-in types
 * (`pkg/validator/schema_patcher.go`), applied per definition before references are resolved. They make
 * the schemas say what the API server's Go decoding accepts:
 *
 * - AnnotateNullable: types with custom JSON handling of `null` (Time, Quantity, RawExtension, …).
 * - IntOrStringDefinition: IntOrString becomes `x-kubernetes-int-or-string: true`.
 * - RemoveInvalidDefaults: the `{}` default published for fields of those types is dropped.
 * - AllowEmptyByteFormat: `format: byte` strings may be empty (native types allow `""`, CRDs do not).
 *
 * crdkit adds one of its own, PreserveFreeFormObjects: RawExtension (ControllerRevision `data`, DRA opaque
 * `parameters`, …) and FieldsV1 hold any JSON object in Go, but are published as a bare `type: object`,
 * which would prune (and in Strict mode reject) their content; they get
 * `x-kubernetes-preserve-unknown-fields: true`, as the API server keeps their content.
 */
import type { JSONSchemaProps } from "../crd/types.js";
import type { JsonValue } from "../value/json-value.js";

const NULLABLE = new Set([
  "io.k8s.apimachinery.pkg.runtime.RawExtension",
  "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
  "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
  "io.k8s.apimachinery.pkg.apis.meta.v1.Duration",
  "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON",
  "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrBool",
  "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaPropsOrStringArray",
  "io.k8s.apimachinery.pkg.api.resource.Quantity",
]);
const INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
const FREE_FORM = new Set(["io.k8s.apimachinery.pkg.runtime.RawExtension", "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1"]);

function isEmptyObject(v: JsonValue | undefined): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}

/** Calls `fn` on every schema node below and including `s`, children first (kubectl-validate's PostorderVisitor). */
function postorder(s: JSONSchemaProps, fn: (s: JSONSchemaProps) => JSONSchemaProps): JSONSchemaProps {
  const out: JSONSchemaProps = { ...s };
  const map = (m: Record<string, JSONSchemaProps> | undefined) => {
    if (!m) return m;
    const r: Record<string, JSONSchemaProps> = {};
    for (const k of Object.keys(m)) r[k] = postorder(m[k]!, fn);
    return r;
  };
  if (s.properties) out.properties = map(s.properties);
  if (s.patternProperties) out.patternProperties = map(s.patternProperties);
  if (s.allOf) out.allOf = s.allOf.map((x) => postorder(x, fn));
  if (s.anyOf) out.anyOf = s.anyOf.map((x) => postorder(x, fn));
  if (s.oneOf) out.oneOf = s.oneOf.map((x) => postorder(x, fn));
  if (s.not) out.not = postorder(s.not, fn);
  if (Array.isArray(s.items)) out.items = s.items.map((x) => postorder(x, fn));
  else if (s.items) out.items = postorder(s.items, fn);
  if (typeof s.additionalProperties === "object") out.additionalProperties = postorder(s.additionalProperties, fn);
  if (typeof s.additionalItems === "object") out.additionalItems = postorder(s.additionalItems, fn);
  return fn(out);
}

function refName(s: JSONSchemaProps): string {
  if (typeof s.$ref === "string") return s.$ref;
  return "";
}

/** The patched definition `name` (all built-in group-versions get every patch). */
export function patchDefinition(name: string, def: JSONSchemaProps): JSONSchemaProps {
  let s = postorder(def, (n) => {
    if (n.format !== "byte" || n.type !== "string") return n;
    const out = { ...n, allOf: [...(n.allOf ?? []), { anyOf: [{ format: "byte" }, { maxLength: 0 }] }] };
    delete out.format;
    return out;
  });
  if (NULLABLE.has(name)) s = postorder(s, (n) => ({ ...n, nullable: true }));
  if (name === INT_OR_STRING) s = { "x-kubernetes-int-or-string": true };
  if (FREE_FORM.has(name)) s = { ...s, "x-kubernetes-preserve-unknown-fields": true };
  return postorder(s, (n) => {
    if (!isEmptyObject(n.default)) return n;
    const invalid = (x: JSONSchemaProps) => NULLABLE.has(refName(x)) || refName(x) === INT_OR_STRING;
    if (!invalid(n) && !(n.allOf ?? []).some(invalid)) return n;
    const out = { ...n };
    delete out.default;
    return out;
  });
}
