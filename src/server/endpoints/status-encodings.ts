/**
 * A `Status` in the encodings an error answer may need besides compact JSON:
 * - indented JSON (`responsewriters.WriteRawJSON`, `json.MarshalIndent(…, "", "  ")`), which the API server
 *   writes when no media type of the request's Accept header can carry the error (406 to `text/html`);
 * - Kubernetes' protobuf (`k8s\0` + `runtime.Unknown` around the `metav1.Status` message, gogo-protobuf
 *   field order, non-pointer strings written even when empty), when the Accept header asks for it.
 */
import protobuf from "protobufjs";
import type { Status } from "../../errors/index.js";
import { statusJson } from "./status-json.js";
import type { JsonValue } from "../../value/json-value.js";

/** Go's `json.Indent` with a two-space indent, over compact JSON text. */
export function indentJson(compact: string): string {
  let out = "";
  let depth = 0;
  let inString = false;
  const nl = () => `\n${"  ".repeat(depth)}`;
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += compact[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      if (compact[i + 1] === close) {
        out += c + close;
        i++;
      } else {
        depth++;
        out += c + nl();
      }
    } else if (c === "}" || c === "]") {
      depth--;
      out += nl() + c;
    } else if (c === ",") out += c + nl();
    else if (c === ":") out += ": ";
    else out += c;
  }
  return out;
}

/** The Status as `WriteRawJSON` writes it. */
export function statusIndentedJson(s: Status): string {
  return indentJson(statusJson(s as unknown as Record<string, JsonValue>));
}

function str(w: protobuf.Writer, field: number, v: unknown): void {
  w.uint32((field << 3) | 2).string(typeof v === "string" ? v : "");
}

/** The Status as the protobuf serializer writes it (media type `application/vnd.kubernetes.protobuf`). */
export function statusProtobuf(s: Status): Uint8Array {
  const st = protobuf.Writer.create();
  const meta = protobuf.Writer.create();
  str(meta, 1, "");
  str(meta, 2, "");
  str(meta, 3, "");
  st.uint32((1 << 3) | 2).bytes(meta.finish());
  str(st, 2, s.status);
  str(st, 3, s.message);
  str(st, 4, s.reason ?? "");
  if (s.details) {
    const d = protobuf.Writer.create();
    const det = s.details as Record<string, unknown>;
    str(d, 1, det["name"]);
    str(d, 2, det["group"]);
    str(d, 3, det["kind"]);
    for (const c of (Array.isArray(det["causes"]) ? det["causes"] : []) as Record<string, unknown>[]) {
      const cw = protobuf.Writer.create();
      str(cw, 1, c["reason"]);
      str(cw, 2, c["message"]);
      str(cw, 3, c["field"]);
      d.uint32((4 << 3) | 2).bytes(cw.finish());
    }
    d.uint32(5 << 3).int32(typeof det["retryAfterSeconds"] === "number" ? det["retryAfterSeconds"] : 0);
    str(d, 6, det["uid"]);
    st.uint32((5 << 3) | 2).bytes(d.finish());
  }
  st.uint32(6 << 3).int32(s.code);
  const tm = protobuf.Writer.create();
  str(tm, 1, "v1");
  str(tm, 2, "Status");
  const env = protobuf.Writer.create();
  env.uint32((1 << 3) | 2).bytes(tm.finish());
  env.uint32((2 << 3) | 2).bytes(st.finish());
  str(env, 3, "");
  str(env, 4, "");
  const body = env.finish();
  const out = new Uint8Array(4 + body.length);
  out.set([0x6b, 0x38, 0x73, 0x00]);
  out.set(body, 4);
  return out;
}
