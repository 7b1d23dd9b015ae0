/**
 * `crdkit serve` serves the playground page (built by `npm run build:web` into `web/dist`, shipped in the
 * npm package) at `/ui/`. The page validates in the browser; it reads this server's CRDs with an
 * ordinary `GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions`. Off with `--no-ui`.
 */
import { existsSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

/** The URL prefix of the page. */
export const UI_PREFIX = "/ui/";

/** Where the built page is: `web/dist` of the package (the same relative path from src/ and dist/). */
export function defaultUiDir(): string {
  return fileURLToPath(new URL("../../web/dist/", import.meta.url));
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** True for the paths the page owns (`/ui` and everything under `/ui/`). */
export function isUiPath(pathname: string): boolean {
  return pathname === "/ui" || pathname.startsWith(UI_PREFIX);
}

function send(res: ServerResponse, code: number, type: string, body: string | Buffer, head: boolean, extra: Record<string, string> = {}): void {
  res.writeHead(code, { "Content-Type": type, "Content-Length": String(Buffer.byteLength(body)), ...extra });
  res.end(head ? undefined : body);
}

/** Answers a request for a `/ui` path from the files in `dir`. */
export function serveUi(req: IncomingMessage, res: ServerResponse, pathname: string, dir: string): void {
  const method = req.method ?? "GET";
  const head = method === "HEAD";
  if (method !== "GET" && !head) {
    send(res, 405, "text/plain; charset=utf-8", "405: Method Not Allowed\n", false, { Allow: "GET, HEAD" });
    return;
  }
  if (pathname === "/ui") {
    send(res, 301, "text/plain; charset=utf-8", "", head, { Location: UI_PREFIX });
    return;
  }
  // The path is decoded already (a bad escape was answered 400 before); `..` cannot leave `dir` (below).
  const rel = pathname.slice(UI_PREFIX.length) || "index.html";
  const root = resolve(dir);
  const file = resolve(join(root, rel));
  const ext = /\.[a-z]+$/.exec(file)?.[0] ?? "";
  if (!file.startsWith(root + sep) || rel.includes("\0") || !(ext in TYPES) || !existsSync(file)) {
    const built = existsSync(join(root, "index.html"));
    const text = built ? "404: Not Found\n" : "404: the playground page is not built: run `npm run build:web` in the crdkit directory\n";
    send(res, 404, "text/plain; charset=utf-8", text, head);
    return;
  }
  let body: Buffer;
  try {
    body = readFileSync(file);
  } catch {
    send(res, 404, "text/plain; charset=utf-8", "404: Not Found\n", head);
    return;
  }
  send(res, 200, TYPES[ext]!, body, head, { "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff" });
}
