/**
 * `--kubeconfig`: the CustomResourceDefinitions of a live cluster, read with
 * `GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions` (paged with `limit`/`continue`, as kubectl
 * does) using the kubeconfig's server, CA, and token, client certificate or basic credentials.
 */
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { decodeDocuments } from "../io/decode.js";
import { type JsonValue, getKey, isObject, setKey } from "../value/json-value.js";
import { InputError } from "./files.js";
import type { ClusterAccess } from "./kubeconfig.js";

const CRD_LIST_PATH = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
const PAGE_SIZE = 500;
const TIMEOUT_MS = 30_000;

function get(access: ClusterAccess, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(access.server + path);
  const headers: Record<string, string> = { Accept: "application/json", "User-Agent": "crdkit" };
  if (access.token !== undefined) headers["Authorization"] = `Bearer ${access.token}`;
  else if (access.username !== undefined) {
    headers["Authorization"] = `Basic ${Buffer.from(`${access.username}:${access.password ?? ""}`).toString("base64")}`;
  }
  return new Promise((resolvePromise, reject) => {
    const opts = { method: "GET", headers, timeout: TIMEOUT_MS };
    const onResponse = (res: import("node:http").IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolvePromise({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    };
    let req: import("node:http").ClientRequest;
    if (url.protocol === "https:") {
      req = httpsRequest(
        url,
        {
          ...opts,
          ...(access.ca ? { ca: access.ca } : {}),
          ...(access.cert ? { cert: access.cert } : {}),
          ...(access.key ? { key: access.key } : {}),
          ...(access.tlsServerName ? { servername: access.tlsServerName } : {}),
          rejectUnauthorized: !access.insecureSkipTlsVerify,
        },
        onResponse,
      );
    } else if (url.protocol === "http:") {
      req = httpRequest(url, opts, onResponse);
    } else {
      reject(new InputError(`unsupported server URL ${access.server}`));
      return;
    }
    req.on("timeout", () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000}s`)));
    req.on("error", reject);
    req.end();
  });
}

function statusMessage(body: string, status: number): string {
  try {
    const s = JSON.parse(body) as { message?: unknown };
    if (typeof s.message === "string") return s.message;
  } catch {
    // not a Status object
  }
  return `HTTP ${status}`;
}

/** The CRDs of the cluster, each with a `source` naming the cluster. Throws InputError. */
export async function fetchClusterCrds(access: ClusterAccess, pageSize = PAGE_SIZE): Promise<{ source: string; value: JsonValue }[]> {
  const source = `cluster ${access.server} (context ${access.context})`;
  const out: { source: string; value: JsonValue }[] = [];
  let cont = "";
  do {
    const q = `?limit=${pageSize}${cont === "" ? "" : `&continue=${encodeURIComponent(cont)}`}`;
    let res: { status: number; body: string };
    try {
      res = await get(access, CRD_LIST_PATH + q);
    } catch (e) {
      throw new InputError(`cannot read the CRDs of ${source}: ${(e as Error).message}`);
    }
    if (res.status !== 200) throw new InputError(`cannot read the CRDs of ${source}: ${statusMessage(res.body, res.status)}`);
    const doc = decodeDocuments(res.body, { format: "json" })[0];
    const list = doc?.value;
    const items = isObject(list) ? getKey(list, "items") : undefined;
    if (!isObject(list) || !Array.isArray(items)) {
      throw new InputError(`cannot read the CRDs of ${source}: the answer is not a CustomResourceDefinitionList`);
    }
    // Items of a typed list carry no TypeMeta (the API server omits it, as kubectl knows): give each its own.
    for (const it of items) {
      if (isObject(it)) {
        if (getKey(it, "apiVersion") === undefined) setKey(it, "apiVersion", "apiextensions.k8s.io/v1");
        if (getKey(it, "kind") === undefined) setKey(it, "kind", "CustomResourceDefinition");
      }
      out.push({ source, value: it });
    }
    const md = getKey(list, "metadata");
    const c = isObject(md) ? getKey(md, "continue") : undefined;
    cont = typeof c === "string" ? c : "";
  } while (cont !== "");
  return out;
}
