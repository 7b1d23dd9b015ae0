export type { ObjectMeta, OwnerReference, ManagedFieldsEntry } from "./types.js";
export { emptyObjectMeta, unmarshalObjectMeta, type DecodeResult } from "./go-decode.js";
export {
  getObjectMeta,
  setObjectMeta,
  objectMetaToUnstructured,
  goTypeName,
  type GetObjectMetaOptions,
  type GetObjectMetaResult,
} from "./get-set.js";
export { coerce, childOrRoot, keyOrRoot, indexOrRoot, type CoerceOptions, type CoerceResult } from "./coerce.js";
export { validateEmbedded } from "./validate-embedded.js";
export { hasEmbedded } from "./embedded-index.js";
export {
  validateObjectMeta,
  validateObjectMetaUpdate,
  validateLabels,
  validateAnnotations,
  validateOwnerReferences,
  validateFinalizers,
  validateManagedFields,
  validateFieldManager,
  parseGroupVersion,
  ownerReferenceJson,
  TOTAL_ANNOTATION_SIZE_LIMIT,
} from "./validate-meta.js";
export {
  type NameValidator,
  isDNS1123Label,
  isDNS1123Subdomain,
  isDNS1035Label,
  isQualifiedName,
  isValidLabelValue,
  isPathSegmentName,
  isPathSegmentPrefix,
  nameIsDNSSubdomain,
  nameIsDNSLabel,
  validatePathSegment,
  regexError,
  maxLenError,
  byteLength,
} from "./names.js";
export {
  objectMetaOf,
  validateCustomResourceMetadata,
  validateCustomResourceMetadataOf,
  validateCustomResourceMetadataUpdate,
  validateCustomResourceMetadataUpdateOf,
  validateGenericCreate,
  validateGenericUpdate,
  finalizerWarnings,
  resourceVersionRequiredError,
  type MetaOrErrors,
} from "./custom-resource.js";
export { nestedStringError } from "./accessor-error.js";
