/**
 * The answer of a store's own follow-up write, encoded ahead. A CRD create through this server is followed by the
 * controllers' status write (`NamesAccepted`, `Established`) before it is answered; the client's next request is
 * usually a GET of that CRD (`kubectl wait`, `kubectl apply`'s next run). Once the create's answer is on its way,
 * the object as the status write left it is decoded and remembered in the encoded answers, in the time the server
 * waits for that GET, so the GET (still a consistent read of the store) finds its answer encoded instead of
 * decoding it between its read and its answer. The remembered text is what decoding gives (EncodedObjects keys it
 * by resource type, revision and stored text), so no answer changes.
 */
import type { StoredValue } from "../../storage/types.js";
import { EncodedObjects } from "./encoded-objects.js";
import { decodeStored, type RestRequest } from "./rest-common.js";

/**
 * After `created` was answered: when the store's local cache holds a newer revision of its key (the follow-up
 * write), that revision's JSON answer is encoded and remembered, at the end of this event-loop turn (after the
 * create's answer is written).
 */
export function encodeFollowUpAhead(r: RestRequest, created: StoredValue): void {
  const enc = r.encoded;
  const peek = r.store.peek;
  if (!enc || !peek || !EncodedObjects.cacheable(r.rt)) return;
  setImmediate(() => {
    const next = peek.call(r.store, created.key)?.value;
    if (!next || next.modRevision <= created.modRevision || enc.get(r.rt, next) !== undefined) return;
    decodeStored(r.rt, next).then(
      (obj) => enc.put(r.rt, next, obj),
      // An undecodable value is reported by the request that reads it.
      () => {},
    );
  });
}
