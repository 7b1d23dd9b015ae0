/**
 * `metav1.ObjectMeta` (and its OwnerReference / ManagedFieldsEntry) as Go holds it after JSON decoding:
 * every field present with its zero value, pointers as `undefined` when nil, maps as `Map` (nil =
 * `undefined`), int64 as a JS integer (or bigint beyond 2^53).
 */
import type { JsonValue } from "../value/json-value.js";
import type { GoTime } from "../go/time.js";

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager: string;
  operation: string;
  apiVersion: string;
  time?: GoTime;
  fieldsType: string;
  /** The raw `fieldsV1` value (any JSON), undefined when nil. */
  fieldsV1?: JsonValue;
  subresource: string;
}

export interface ObjectMeta {
  name: string;
  generateName: string;
  namespace: string;
  selfLink: string;
  uid: string;
  resourceVersion: string;
  generation: number | bigint;
  /** Zero time when unset (see `isZeroTime`). */
  creationTimestamp: GoTime;
  deletionTimestamp?: GoTime;
  deletionGracePeriodSeconds?: number | bigint;
  labels?: Map<string, string>;
  annotations?: Map<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  managedFields?: ManagedFieldsEntry[];
}
