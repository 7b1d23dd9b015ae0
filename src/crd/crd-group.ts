/** The API group of CustomResourceDefinitions. */
export const CRD_GROUP = "apiextensions.k8s.io";
