/** Source positions of CRD errors: from the path Kubernetes reports to the path of the node as written. */

/**
 * Maps an internal error path (what Kubernetes reports) to the path of the node in the document as
 * written, for source positions: hoisted top-level fields live in `spec.versions[0]` of a v1 CRD.
 */
export function documentPath(field: string, apiVersion: string): string {
  if (!apiVersion.endsWith("/v1")) return field;
  let f = field;
  const hoisted: [string, string][] = [
    ["spec.validation.", "spec.versions[0].schema."],
    ["spec.validation", "spec.versions[0].schema"],
    ["spec.subresources", "spec.versions[0].subresources"],
    ["spec.additionalPrinterColumns", "spec.versions[0].additionalPrinterColumns"],
    ["spec.selectableFields", "spec.versions[0].selectableFields"],
    ["spec.schema.openAPIV3Schema", "spec.versions[0].schema.openAPIV3Schema"],
    ["spec.conversion.webhookClientConfig", "spec.conversion.webhook.clientConfig"],
    ["spec.conversion.conversionReviewVersions", "spec.conversion.webhook.conversionReviewVersions"],
  ];
  for (const [from, to] of hoisted) {
    if (f === from || f.startsWith(from + ".") || f.startsWith(from + "[") || (from.endsWith(".") && f.startsWith(from))) {
      f = to + f.slice(from.length);
      break;
    }
  }
  if (f === "spec.version") f = "spec.versions[0].name";
  return f.replace(/\.JSONPath$/, ".jsonPath");
}
