/**
 * The playground's state in the URL hash, so that a case can be shared: `#z=` + base64url of the
 * deflate-raw-compressed JSON (or `#j=` + base64url of the plain JSON where CompressionStream is missing).
 */

export interface ShareState {
  crd: string;
  object: string;
  old: string;
  expression: string;
  fieldValidation: "Strict" | "Warn" | "Ignore";
  tab: string;
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const out = new Response(new Blob([new Uint8Array(bytes)]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** Encodes the state for the URL hash (without the `#`). */
export async function encodeState(state: ShareState): Promise<string> {
  const json = new TextEncoder().encode(JSON.stringify(state));
  if (typeof CompressionStream === "undefined") return `j=${toBase64Url(json)}`;
  return `z=${toBase64Url(await pipe(json, new CompressionStream("deflate-raw")))}`;
}

/** Decodes a URL hash (with or without `#`); undefined when it holds no valid state. */
export async function decodeState(hash: string): Promise<Partial<ShareState> | undefined> {
  const h = hash.replace(/^#/, "");
  try {
    let bytes: Uint8Array;
    if (h.startsWith("z=")) bytes = await pipe(fromBase64Url(h.slice(2)), new DecompressionStream("deflate-raw"));
    else if (h.startsWith("j=")) bytes = fromBase64Url(h.slice(2));
    else return undefined;
    const v: unknown = JSON.parse(new TextDecoder().decode(bytes));
    if (typeof v !== "object" || v === null) return undefined;
    const o = v as Record<string, unknown>;
    const out: Partial<ShareState> = {};
    for (const k of ["crd", "object", "old", "expression", "tab"] as const) if (typeof o[k] === "string") out[k] = o[k];
    if (o["fieldValidation"] === "Strict" || o["fieldValidation"] === "Warn" || o["fieldValidation"] === "Ignore") out.fieldValidation = o["fieldValidation"];
    return out;
  } catch {
    return undefined;
  }
}
