/**
 * A runtime.Scheme as the API server's typed decoder consults it: which Go type a group/version/kind names.
 * A typed resource's body is decoded into the type its apiVersion and kind name (missing parts taken from the
 * request's resource), then converted to the resource's internal type: a kind the scheme does not know, or one
 * it cannot convert, is refused before any validation.
 */
export interface TypedScheme {
  /** The Go type (`v1.Status`) of a group/version/kind, undefined when not registered. */
  goType(group: string, version: string, kind: string): string | undefined;
  /** Whether the Go type converts to the resource's internal type (it is the resource's kind in some version). */
  converts(goType: string): boolean;
  /** The resource's internal Go type (`apiextensions.CustomResourceDefinition`), named in conversion errors. */
  readonly internalType: string;
}

/** Types `metav1.AddToGroupVersion` registers in every group version it is called for. */
const META_KINDS = new Set(["WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions", "UpdateOptions", "PatchOptions"]);
/** Types registered as unversioned: found under any group and version (`Scheme.AddUnversionedTypes`). */
const UNVERSIONED_KINDS = new Set(["Status", "WatchEvent", "APIVersions", "APIGroupList", "APIGroup", "APIResourceList"]);
const APIEXTENSIONS = "apiextensions.k8s.io";
const APIEXTENSIONS_KINDS = new Set(["CustomResourceDefinition", "CustomResourceDefinitionList", "ConversionReview"]);

/**
 * The apiextensions-apiserver's scheme (k8s.io/apiextensions-apiserver/pkg/apiserver): the apiextensions group in
 * v1, v1beta1 and its internal version, the meta options added to v1 and to the empty group's v1, and the
 * unversioned meta types.
 */
export const apiextensionsScheme: TypedScheme = {
  goType(group, version, kind) {
    if (group === APIEXTENSIONS) {
      if (version === "__internal") return APIEXTENSIONS_KINDS.has(kind) ? `apiextensions.${kind}` : kind === "WatchEvent" ? "v1.InternalEvent" : undefined;
      if ((version === "v1" || version === "v1beta1") && APIEXTENSIONS_KINDS.has(kind)) return `${version}.${kind}`;
      if ((version === "v1" || version === "v1beta1") && META_KINDS.has(kind)) return `v1.${kind}`;
    }
    if (group === "" && version === "v1" && META_KINDS.has(kind)) return `v1.${kind}`;
    if (UNVERSIONED_KINDS.has(kind)) return `v1.${kind}`;
    return undefined;
  },
  converts: (goType) => goType.endsWith(".CustomResourceDefinition"),
  internalType: "apiextensions.CustomResourceDefinition",
};
