/**
 * A request made inside the server by one of its controllers (the garbage collector's patches and deletes),
 * shaped as the `IncomingMessage` the REST handlers read: method, headers (the body's type and length, the
 * controller's User-Agent, which names its field manager) and the body as a stream. No socket, no response.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

export function internalRequest(method: string, userAgent: string, body?: { contentType: string; text: string }): IncomingMessage {
  const bytes = body === undefined ? undefined : Buffer.from(body.text, "utf8");
  const req = Readable.from(bytes === undefined ? [] : [bytes]) as unknown as IncomingMessage;
  const headers: IncomingMessage["headers"] = { "user-agent": userAgent };
  if (body !== undefined && bytes !== undefined) {
    headers["content-type"] = body.contentType;
    headers["content-length"] = String(bytes.length);
  }
  Object.assign(req, { method, headers, url: "" });
  return req;
}

/** The response object of an internal request: never written (the handlers answer with values). */
export const NO_RESPONSE = undefined as unknown as ServerResponse;
