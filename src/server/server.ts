/**
 * `crdkit serve`: a kubectl-compatible API server for CRDs and custom resources on node:http.
 */
import { mkdirSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Http2SecureServer } from "node:http2";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { guardStore, storeFault } from "../storage/fault-guard.js";
import { MemoryStore } from "../storage/memory-store.js";
import { RequestTooLargeError } from "../storage/request-size.js";
import { sqliteAvailable } from "../storage/sqlite-driver.js";
import { SqliteStore } from "../storage/sqlite-store.js";
import type { Store } from "../storage/types.js";
import type { JsonObject, JsonValue } from "../value/json-value.js";
import { acceptable, checkRestfulRoute, errorsIndented, errorsProtobuf, notAcceptableError } from "./endpoints/accept.js";
import { statusIndentedJson, statusProtobuf } from "./endpoints/status-encodings.js";
import { wantsYaml } from "./endpoints/yaml-response.js";
import { builtinDiscovery, builtinTypes } from "./auth/builtin-types.js";
import { NO_USER, RequestGate } from "./auth/request-gate.js";
import { requestAttributes } from "./auth/request-attributes.js";
import { answerDeadlineExceeded, DEFAULT_REQUEST_TIMEOUT_MS, isLongRunning, requestDeadlineMs } from "./filters/request-deadline.js";
import type { RequestContext } from "./auth/request-context.js";
import { type Security, type SecurityOptions, setupSecurity } from "./auth/security.js";
import { goCipherOrder } from "./auth/tls-cipher-order.js";
import { CrdFinalizer, markCrdDeleting } from "./controllers/crd-finalizer.js";
import { CrdNamingController, crdNamingStore } from "./controllers/crd-naming-controller.js";
import { crdResourceType } from "./registry/crd-resource.js";
import { Discovery, discoveryContentType, negotiateDiscovery } from "./discovery/discovery.js";
import { ApiError, apiErrors } from "./endpoints/errors.js";
import { isPrettyPrint, sendError, sendJson } from "./endpoints/http-io.js";
import { compressedAnswer } from "./endpoints/response-compression.js";
import { serveContent } from "./endpoints/serve-content.js";
import { EncodedObjects } from "./endpoints/encoded-objects.js";
import { OpenApi } from "./openapi/openapi.js";
import { OpenApiV2Cache, serveOpenApiV2 } from "./openapi/openapi-v2-handler.js";
import { metaString } from "./registry/object-meta.js";
import { Registry } from "./registry/registry.js";
import { storeFailure } from "./endpoints/store-errors.js";
import { healthCheck } from "./health.js";
import { registrySynced } from "./registry/registry-synced-store.js";
import { type TrackedStore, trackRevisions } from "./registry/revision-tracker.js";
import type { ResourceType } from "./registry/resource-type.js";
import { checkSelectorSyntax, decodeStored, parseFilters, type RestRequest, type RestResponse } from "./endpoints/rest-common.js";
import { listPage, listParams, parseListNumbers, type ListPage, type ListParams } from "./endpoints/list-paging.js";
import { converted, getObject, listAnswer, listCollection } from "./endpoints/rest-read.js";
import { checkDeletePreconditions, createObject, deleteObject, deleteOne, patchObject, patchTypesOf, readDeleteOptions, retryingConflicts, updateObject } from "./endpoints/rest-write.js";
import { negotiatePatchType } from "./endpoints/content-type.js";
import { isDryRunDelete } from "./endpoints/delete-options.js";
import { queryBool } from "./endpoints/query-params.js";
import { InFlightLimits } from "./filters/inflight.js";
import { auditHeader, auditIdOf, initAuditId, setAuditHeader } from "./filters/audit-id.js";
import { loopbackRequestGuard } from "./filters/host-check.js";
import { storageApiError } from "./endpoints/storage-errors.js";
import { route, type Route } from "./endpoints/router.js";
import { answerClientError, refuseExpectation, refuseMissingHost } from "./endpoints/client-error.js";
import { requestUrl, sendBadRequestTarget } from "./endpoints/request-url.js";
import { indexBody, listedPaths } from "./discovery/index-paths.js";
import { defaultUiDir, isUiPath, serveUi } from "./ui.js";
import { SERVED_VERSION, versionAnswer } from "./discovery/version.js";
import { serveWatch } from "./endpoints/watch.js";
import { NamespaceDeleter } from "./controllers/namespace-deleter.js";
import { GarbageCollector, type GcClient } from "./garbagecollector/garbage-collector.js";
import { internalRequest, NO_RESPONSE } from "./endpoints/internal-request.js";
import { admitNamespaceDelete, admitNamespaced } from "./registry/namespace/namespace-lifecycle.js";
import { namespaceResourceType } from "./registry/namespace/namespace-type.js";
import { ensureSystemNamespaces } from "./registry/namespace/system-namespaces.js";
import { storageVersionOf } from "./registry/registry.js";
import type { WebhookSettings } from "./conversion/conversion.js";
import type { QueryParams, RequestUrl } from "./endpoints/request-url.js";
import { createDualServer, type Http2ServingOptions } from "./http2-serving.js";

/** The garbage collector's User-Agent (kube-controller-manager's client for it; the field manager is its first part). */
const GC_USER_AGENT = `kube-controller-manager/v${SERVED_VERSION.major}.${SERVED_VERSION.minor}.0 (linux/amd64) kubernetes/crdkit/generic-garbage-collector`;

/** How long a graceful shutdown waits for in-flight requests before closing connections. */
const SHUTDOWN_GRACE_MS = 5000;

/**
 * The largest request head (request line and headers) read: kube-apiserver's `MaxHeaderBytes` (1 MiB) plus the
 * 4 KiB Go's server allows beyond it; a larger one is answered 431 (Node's default, 16 KiB, refused long
 * request targets — such as long label selectors — that Kubernetes serves).
 */
const MAX_REQUEST_HEAD_BYTES = (1 << 20) + 4096;

/** How long an idle HTTP/1.1 keep-alive connection stays open. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** A structured log record. */
export type LogRecord = Record<string, string | number | boolean>;

export interface ServerOptions {
  /** Data directory (the database is `DIR/crdkit.db`); ignored when `store` is given. Default: in memory. */
  dataDir?: string;
  store?: Store;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Receives one record per request and lifecycle event; default: none. */
  log?: (r: LogRecord) => void;
  /** Whether `log` receives a record per request (default true; `crdkit serve --quiet`: false, none is built). */
  logRequests?: boolean;
  /** SQLite synchronous mode (default FULL). */
  synchronous?: "FULL" | "NORMAL";
  /** TLS, authentication and authorization flags (kube-apiserver's); default: open on loopback. */
  security?: SecurityOptions;
  /** The playground page's directory served at `/ui/` (default: the package's `web/dist`); false: off. */
  ui?: string | false;
  /**
   * The NamespaceLifecycle admission (default true, as kube-apiserver): creates of namespaced objects need
   * an existing, non-terminating Namespace; `default`, `kube-system`, `kube-public` cannot be deleted.
   */
  namespaceLifecycle?: boolean;
  /**
   * How long the namespace controller waits before deleting the content of a namespace marked for deletion
   * (default 5000 ms, Kubernetes' `namespaceDeletionGracePeriod`).
   */
  namespaceDeletionDelayMs?: number;
  /** How CRD conversion webhooks are reached (service endpoints, call deadline). */
  conversionWebhooks?: WebhookSettings;
  /** HTTP/2 on the TLS port (`--disable-http2-serving`, `--http2-max-streams-per-connection`); default on. */
  http2?: Http2ServingOptions;
  /**
   * The garbage collector (default true, as kube-controller-manager's `--enable-garbage-collector`): DELETEs
   * with `propagationPolicy` Orphan/Foreground set the `orphan`/`foregroundDeletion` finalizers and the
   * collector deletes or orphans dependents (metadata.ownerReferences); false: neither, as envtest.
   */
  garbageCollector?: boolean;
  /**
   * Whether the collector itself runs (default: as `garbageCollector`). False with `garbageCollector` on is a
   * cluster whose kube-controller-manager is down: DELETEs set the GC finalizers and nothing removes them, as on
   * the standalone apiextensions-apiserver the server goldens were recorded on.
   */
  garbageCollectorController?: boolean;
  /**
   * The deadline of a request that is not long-running (`--request-timeout`, default 1m0s): later its answer
   * is the timeout filter's 504 (filters/request-deadline.ts).
   */
  requestTimeoutMs?: number;
}

/** A running server. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly store: Store;
  /** What the server runs with (TLS material, credentials signer). */
  readonly security: Security;
  /** Graceful shutdown: stop accepting, end watches, finish in-flight requests, close the store. */
  close(): Promise<void>;
}

/** Opens the store for `dataDir` (a database file) or in memory (without better-sqlite3: a MemoryStore). */
export function openStore(dataDir: string | undefined, synchronous?: "FULL" | "NORMAL"): Store {
  if (dataDir === undefined) return sqliteAvailable() ? new SqliteStore({ path: ":memory:" }) : new MemoryStore();
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, "crdkit.db");
  return guardStore(new SqliteStore({ path, ...(synchronous ? { synchronous } : {}) }), path);
}

/** The text of an unexpected failure; a stack overflow (a bug: deep values are refused earlier) is named as such. */
function internalMessage(e: unknown): string {
  if (e instanceof RangeError && /call stack/i.test(e.message)) return "the object is nested too deeply to process";
  return e instanceof Error ? e.message : String(e);
}

/** The request dispatcher, separate from the socket so it can be tested and embedded. */
export class ApiHandler {
  readonly registry: Registry;
  readonly crdType: ResourceType;
  private readonly discovery: Discovery;
  /** The index's body (the listed paths do not change while the server runs: CRD groups are not listed). */
  private indexText: string | undefined;
  private readonly openapi: OpenApi;
  private readonly openapiV2 = new OpenApiV2Cache();
  private readonly encoded = new EncodedObjects();
  private readonly watchStops = new Set<() => void>();
  private readonly finalizer: CrdFinalizer;
  private readonly naming: CrdNamingController;
  private readonly crdStore: Store;
  private readonly rbacStore: Store;
  private readonly gate: RequestGate;
  private readonly builtins: Map<string, ResourceType>;
  /** The groups of `builtins` (a custom resource's request skips the map's key). */
  private readonly builtinGroups: Set<string>;
  /** The built-in types served through the RBAC-synced store (all of `builtins` but namespaces). */
  private readonly rbacTypes: Set<ResourceType>;
  readonly namespaceType: ResourceType;
  private readonly namespaceDeleter: NamespaceDeleter;
  private readonly namespaceLifecycle: boolean;
  /** `--enable-garbage-collector`: DELETEs set the GC finalizers and the collector runs. */
  private readonly garbageCollection: boolean;
  private readonly garbageCollector: GarbageCollector | undefined;
  /** Whether a record of each request goes to the log (false: none is built). */
  logRequests = true;
  /** `--request-timeout`: the deadline of requests that are not long-running. */
  requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;

  readonly store: TrackedStore;

  constructor(
    /** The store itself (`store` is it behind the revision tracker). */
    readonly backend: Store,
    private readonly log: (r: LogRecord) => void,
    security?: Security,
    /** Refuses requests before dispatch (the loopback Host/Origin check). */
    private readonly guard?: (headers: IncomingMessage["headers"]) => ApiError | undefined,
    private readonly uiDir: string | false = false,
    namespaces: { lifecycle?: boolean; deletionDelayMs?: number } = {},
    webhooks: WebhookSettings = {},
    garbageCollection = true,
    collector = garbageCollection,
  ) {
    this.namespaceLifecycle = namespaces.lifecycle ?? true;
    this.garbageCollection = garbageCollection;
    // Every store call of this server goes through the tracker (see revision-tracker.ts).
    this.store = trackRevisions(backend);
    this.registry = new Registry(this.store, () => this.store.knownRevision, webhooks);
    this.crdType = crdResourceType();
    this.crdType.beforeDelete = (crd) => this.deleteCustomResources(crd);
    this.crdType.markForDeletion = markCrdDeleting;
    const synced = registrySynced(this.store, this.registry);
    this.naming = new CrdNamingController(synced, this.registry);
    this.crdStore = crdNamingStore(synced, this.naming);
    // A CRD the finalizer deleted frees its names for the others of its group.
    this.finalizer = new CrdFinalizer(this.store, this.registry, async (name, group, revision) => {
      await this.registry.caughtUp(revision);
      await this.naming.afterWrite(name, group);
    });
    this.gate = new RequestGate(security, this.store, (e) =>
      log({ level: "warn", msg: "clusterrole aggregation failed", error: e instanceof Error ? e.message : String(e) }),
    );
    this.rbacStore = registrySynced(this.store, this.gate);
    this.builtins = builtinTypes();
    this.namespaceType = namespaceResourceType();
    this.builtins.set("/v1/namespaces", this.namespaceType);
    this.builtinGroups = new Set([...this.builtins.values()].map((rt) => rt.group));
    this.rbacTypes = new Set([...this.builtins].filter(([key, rt]) => rt !== this.namespaceType && key === `${rt.group}/${rt.version}/${rt.plural}`).map(([, rt]) => rt));
    this.namespaceDeleter = new NamespaceDeleter(
      this.store,
      () => this.namespacedTypes(),
      (e) => log({ level: "warn", msg: "namespace deletion failed", error: e instanceof Error ? e.message : String(e) }),
      namespaces.deletionDelayMs,
    );
    this.garbageCollector = garbageCollection && collector
      ? new GarbageCollector(this.store, this.gcClient(), (msg, fields) => log({ level: "warn", msg, ...fields }))
      : undefined;
    this.discovery = new Discovery(this.registry, this.crdType, builtinDiscovery(this.builtins));
    this.openapi = new OpenApi(this.registry, this.crdType);
  }

  private async deleteCustomResources(crd: JsonObject): Promise<void> {
    const e = this.registry.get(metaString(crd, "name"));
    if (e && e.names.plural !== "") await this.store.deletePrefix(`/registry/${e.group}/${e.names.plural}/`);
  }

  /** Every namespaced resource (one version each, the storage version when served): a namespace's content. */
  private namespacedTypes(): ResourceType[] {
    const out = [...this.builtins.values()].filter((rt) => rt.namespaced);
    for (const e of this.registry.entries()) {
      if (!e.namespaced) continue;
      const storage = storageVersionOf(e.obj);
      const versions = [storage, ...e.versions.map((v) => v.name)].filter((v): v is string => v !== undefined);
      const rt = versions.map((v) => this.registry.lookup(e.group, v, e.names.plural)).find((x) => x !== undefined);
      if (rt) out.push(rt);
    }
    return out;
  }

  /** The address discovery documents advertise. */
  setServerAddress(address: string): void {
    this.discovery.serverAddress = address;
  }

  /** Loads the CRDs and starts the controllers; rejects when the store cannot be read. */
  async start(): Promise<void> {
    await this.registry.start();
    // CRDs written without their status pass (a replica stopped in between) get it now.
    await this.naming.syncAll();
    await this.finalizer.start();
    await this.gate.start();
    await ensureSystemNamespaces(this.store, this.namespaceType);
    await this.namespaceDeleter.start();
    await this.garbageCollector?.start();
  }

  /** Ends every open watch and the controllers (shutdown). */
  stopWatches(): void {
    this.finalizer.stop();
    this.namespaceDeleter.stop();
    this.garbageCollector?.stop();
    this.registry.stop();
    this.gate.stop();
    for (const s of [...this.watchStops]) s();
  }

  /** Handles one request. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = this.logRequests ? process.hrtime.bigint() : 0n;
    const url = requestUrl(req.url ?? "/");
    if (url === undefined) {
      sendBadRequestTarget(res);
      return;
    }
    let warnings: string[] | undefined;
    let user = "";
    let routed: Route | undefined;
    let deadline: NodeJS.Timeout | undefined;
    let timedOut = false;
    try {
      const denied = this.guard?.(req.headers);
      if (denied) throw denied;
      // The request's kind (as RequestInfo) before authentication: the deadline filters come first.
      const attrs = requestAttributes(req.method ?? "GET", url, NO_USER);
      if (!isLongRunning(attrs)) {
        deadline = setTimeout(() => {
          timedOut = true;
          answerDeadlineExceeded(req, res);
        }, requestDeadlineMs(url.searchParams, this.requestTimeoutMs));
      }
      // The playground's static files are public (its API calls are authenticated like any other request).
      const ui = this.uiDir !== false && isUiPath(url.pathname);
      let out: RestResponse | undefined;
      if (ui) serveUi(req, res, url.pathname, this.uiDir as string);
      else {
        const ctx = this.gate.admit(req, url, attrs);
        user = ctx.attrs.user.name;
        routed = route(url.pathname, url.segments);
        const r = routed;
        const review = r.kind === "resource" && r.name === "" ? await this.gate.serveReview(r.group, r.version, r.plural, req.method ?? "GET", req, ctx.attrs.user) : undefined;
        out = review ?? (await this.dispatch(r, req, res, url.searchParams, ctx));
      }
      if (out && typeof out.body !== "string" && out.contentType === undefined && !ui && wantsYaml(req.headers.accept) && routed?.kind === "resource") {
        out = { ...out, contentType: "application/yaml" };
      }
      if (out) {
        warnings = out.warnings;
        if (typeof out.body === "string" && out.contentType !== undefined) {
          const length = Buffer.byteLength(out.body);
          const gzipped = compressedAnswer(req, out.body, length);
          res.writeHead(out.code, {
            "Cache-Control": out.cacheControl ?? "no-cache, private",
            "Content-Type": out.contentType,
            "Content-Length": String(gzipped?.length ?? length),
            ...(gzipped ? { "Content-Encoding": "gzip", Vary: "Accept-Encoding" } : {}),
            ...auditHeader(res),
          });
          res.end(gzipped ?? out.body);
        } else {
          const opts: Parameters<typeof sendJson>[3] = { pretty: isPrettyPrint(url.search.slice(1), req.headers["user-agent"]) };
          if (out.json !== undefined && out.contentType === undefined) opts.json = out.json;
          if (out.contentType) opts.contentType = out.contentType;
          if (warnings) opts.warnings = warnings;
          if (out.cacheControl) opts.cacheControl = out.cacheControl;
          sendJson(res, out.code, out.body, opts);
        }
      }
    } catch (e) {
      // The deadline's 504 was the answer: what the handler did since is dropped, as Go's timeout writer does.
      if (!timedOut) this.answerFailure(e, req, res, url, routed);
    }
    clearTimeout(deadline);
    if (!this.logRequests) return;
    this.log({
      level: "info",
      msg: "request",
      method: req.method ?? "",
      path: url.pathname,
      query: url.search,
      status: res.statusCode,
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      userAgent: req.headers["user-agent"] ?? "",
      auditId: auditIdOf(res) ?? "",
      user,
      // Go's Request.Proto, as the API server's httplog records it.
      protocol: `HTTP/${req.httpVersion}`,
    });
  }

  /** Answers a request whose handling failed with `e` (its Status, or a 500), unless an answer was started. */
  private answerFailure(e: unknown, req: IncomingMessage, res: ServerResponse, url: RequestUrl, routed: Route | undefined): void {
    const stored = storeFailure(e);
      const limit = storageApiError(e);
      const err = e instanceof ApiError ? e : (stored ?? limit ?? apiErrors.internal(internalMessage(e)));
      if (stored) this.log({ level: "warn", msg: "store unavailable", error: String((e as Error).message) });
      else if (!(e instanceof ApiError) && !(e instanceof RequestTooLargeError)) this.log({ level: "error", msg: "handler failed", error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
      if (!res.headersSent) {
        const resource = (routed ?? route(url.pathname)).kind === "resource";
        const yaml = resource && wantsYaml(req.headers.accept);
        // No clause of the Accept header can carry a Status without a conversion: `WriteRawJSON` (indented).
        if (resource && err.encoded === undefined && err.plainText === undefined && errorsIndented(req.headers.accept)) {
          err.encoded = { contentType: "application/json", body: statusIndentedJson(err.status) };
        }
        // The first clause that can carry a Status asks for protobuf: the Status is sent so.
        if (resource && err.encoded === undefined && err.plainText === undefined && errorsProtobuf(req.headers.accept)) {
          err.encoded = { contentType: "application/vnd.kubernetes.protobuf", body: statusProtobuf(err.status) };
        }
        sendError(res, err, err.warnings, yaml, isPrettyPrint(url.search.slice(1), req.headers["user-agent"]));
      }
      else if (!res.writableEnded) res.end();
  }

  private async dispatch(r: Route, req: IncomingMessage, res: ServerResponse, query: QueryParams, ctx: RequestContext): Promise<RestResponse | undefined> {
    const method = req.method ?? "GET";
    const readOnly = () => {
      if (method !== "GET" && method !== "HEAD") throw apiErrors.methodNotAllowed();
    };
    // go-restful's web services (/version, /api, /apis, a built-in group's discovery) route GET only (HEAD is 405)
    const getOnly = () => {
      if (method !== "GET") throw apiErrors.methodNotAllowed();
    };
    switch (r.kind) {
      case "version":
        getOnly();
        return versionAnswer();
      case "ping":
        // A check's own path answers `ok` (healthz adaptCheckToHandler; ping never fails), without nosniff.
        return { code: 200, body: "ok", contentType: "text/plain; charset=utf-8" };
      case "health":
        // The healthz handler sets nosniff on every answer (ok, verbose and failed).
        res.setHeader("X-Content-Type-Options", "nosniff");
        return healthCheck(r.endpoint, this.backend, query.has("verbose"), storeFault(this.backend));
      case "core": {
        getOnly();
        const f = negotiateDiscovery(req.headers.accept);
        return { code: 200, body: this.discovery.coreVersions(f), contentType: discoveryContentType(f) };
      }
      case "apis": {
        getOnly();
        const f = negotiateDiscovery(req.headers.accept);
        // Aggregated discovery documents are cacheable (the real server answers `public` with an ETag).
        return { code: 200, body: this.discovery.apis(f), contentType: discoveryContentType(f), ...(f === "legacy" ? {} : { cacheControl: "public" }) };
      }
      case "index": {
        // The index answers every method (routes.IndexLister).
        this.indexText ??= indexBody(listedPaths(this.discovery.builtinGroupVersions()));
        return { code: r.found ? 200 : 404, body: this.indexText, contentType: "application/json" };
      }
      case "noRoute":
        throw apiErrors.notFoundStatus();
      case "openapiNone":
        // kube-openapi's v3 handler answers a path that names no document with an empty 200 (any method).
        res.writeHead(200, { "Cache-Control": "no-cache, private", "Content-Length": "0", ...auditHeader(res) });
        res.end();
        return undefined;
      case "group": {
        // the CRD handler's group and version discovery answer every method as GET
        if (this.discovery.isBuiltinGroup(r.group)) getOnly();
        const g = this.discovery.group(r.group);
        if (!g) throw apiErrors.pathNotFound();
        return { code: 200, body: g };
      }
      case "groupVersion": {
        if (this.discovery.isBuiltinGroup(r.group)) getOnly();
        const l = this.discovery.resourceList(r.group, r.version);
        // A built-in group's web service answers a Status; the CRD handler the mux's plain 404.
        if (!l) throw this.discovery.isBuiltinGroup(r.group) ? apiErrors.notFoundStatus() : apiErrors.pathNotFound();
        return { code: 200, body: l };
      }
      // kube-openapi's v3 handlers answer every method as GET
      case "openapiIndex": {
        setAuditHeader(res);
        const index = this.openapi.indexDocument();
        res.setHeader("Etag", `"${index.hash}"`);
        res.setHeader("Content-Type", "application/json");
        res.setHeader("Cache-Control", "no-cache, private");
        serveContent(req, res, index.modified, Buffer.from(index.text, "utf8"));
        return undefined;
      }
      case "openapiDoc":
      case "openapiDiscoveryDoc": {
        const name = r.kind === "openapiDoc" ? `apis/${r.group}/${r.version}` : r.name;
        const doc = r.kind === "openapiDoc" ? this.openapi.document(r.group, r.version) : this.openapi.discoveryDocument(r.name);
        if (!doc) return this.dispatch({ kind: "openapiNone" }, req, res, query, ctx);
        setAuditHeader(res);
        res.setHeader("Etag", `"${doc.hash}"`);
        res.setHeader("Vary", "Accept");
        res.setHeader("Content-Type", "application/json");
        // kube-openapi's handler3: a document asked for by another hash moves (301) to its current URL; one
        // asked for by its hash may be cached for good.
        const hash = query.get("hash");
        if (hash !== null && hash !== "") {
          if (hash !== doc.hash) {
            res.writeHead(301, { "Content-Type": "application/json", "Cache-Control": "no-cache, private", Location: `/openapi/v3/${name}?hash=${doc.hash}`, "Content-Length": "0" });
            res.end();
            return undefined;
          }
          res.setHeader("Expires", new Date(Date.now() + 365 * 86_400_000).toUTCString());
          res.setHeader("Cache-Control", "public, immutable");
        } else res.setHeader("Cache-Control", "no-cache, private");
        serveContent(req, res, doc.modified, Buffer.from(doc.text, "utf8"));
        return undefined;
      }
      case "openapiV2":
        readOnly();
        setAuditHeader(res);
        serveOpenApiV2(req, res, this.openapiV2.answer(this.openapi.v2(`${SERVED_VERSION.major}.${SERVED_VERSION.minor}`)));
        return undefined;
      case "resource":
        return this.resource(r, method, req, res, query, ctx);
      default:
        // Past a built-in group's prefix (`/apis/apiextensions.k8s.io/v1/a/b/c/d`) its web service answers.
        throw r.kind === "notFound" && r.group !== undefined && this.discovery.isBuiltinGroup(r.group) ? apiErrors.notFoundStatus() : apiErrors.pathNotFound();
    }
  }

  private lookup(group: string, version: string, plural: string): ResourceType | undefined {
    if (group === this.crdType.group && version === this.crdType.version && plural === this.crdType.plural) return this.crdType;
    if (this.builtinGroups.has(group)) {
      const b = this.builtins.get(`${group}/${version}/${plural}`);
      if (b) return b;
    }
    return this.registry.lookup(group, version, plural);
  }

  private async resource(
    r: Extract<Route, { kind: "resource" }>,
    method: string,
    req: IncomingMessage,
    res: ServerResponse,
    query: QueryParams,
    context: RequestContext,
  ): Promise<RestResponse | undefined> {
    const rt = this.lookup(r.group, r.version, r.plural);
    // The custom resource handler reads HEAD as GET (RequestInfo's verb get or list; Node sends no body).
    if (method === "HEAD" && rt?.decodesBodyVersion) method = "GET";
    // A built-in group's web service (go-restful) answers a Status for a path it has no route for; the CRD
    // handler leaves such paths to the mux's plain 404.
    const noRoute = () => (this.discovery.isBuiltinGroup(r.group) ? apiErrors.notFoundStatus() : apiErrors.pathNotFound());
    if (!rt || (r.extraParts && this.discovery.isBuiltinGroup(r.group))) throw noRoute();
    if (!rt.namespaced && r.namespaced) throw noRoute();
    const isCollection = r.name === "";
    if (rt.namespaced && !r.namespaced && !(isCollection && method === "GET")) throw noRoute();
    const extra = rt.extraSubresources?.find((s) => s.name === r.subresource);
    if (extra && !extra.verbs.includes(method === "PUT" ? "update" : method === "PATCH" ? "patch" : method === "GET" ? "get" : "")) {
      throw apiErrors.methodNotAllowed();
    }
    if (r.subresource !== "" && !extra && !((r.subresource === "status" && rt.status) || (r.subresource === "scale" && rt.scale))) {
      // The custom resource handler looks the object up under a subresource it does not serve.
      throw this.discovery.isBuiltinGroup(r.group) ? apiErrors.notFoundStatus() : apiErrors.notFound(rt.plural, rt.group, r.name);
    }
    const builtin = this.discovery.isBuiltinGroup(r.group);
    // A built-in group's routes check the Content-Type of a patch and the Accept header first (go-restful).
    if (builtin) checkRestfulRoute(method, method === "GET" && (isCollection || r.watch === true), req.headers["content-type"], req.headers.accept, patchTypesOf(rt));
    // The patch handler checks the patch's Content-Type, then the name (the custom resource handler serves a patch
    // of `…/plural` or `…/plural//scale` too), before it negotiates the answer's media type.
    if (method === "PATCH" && (!isCollection || rt.decodesBodyVersion)) {
      negotiatePatchType(req.headers["content-type"], patchTypesOf(rt));
      if (isCollection) throw apiErrors.badRequest("name must be provided");
    }
    // A built-in kind may be asked for in protobuf only: crdkit has no protobuf encoding of the kinds (their
    // Status has one). A read or a dry-run write is served up to its answer, so that a failure is the real
    // one (in protobuf); its success is then the 406. Other writes and watches are refused before.
    let protobufOnly = false;
    if (!acceptable(req.headers.accept)) {
      const served = builtin && acceptable(req.headers.accept, true) && !r.watch && !query.has("watch") && (method === "GET" || query.has("dryRun"));
      if (!served) throw notAcceptableError(req.headers.accept);
      protobufOnly = true;
    }
    // Writes of CRDs wait until this replica's registry has seen them, so that the next request is
    // served by the new definition (other replicas follow through their watch); RBAC writes likewise
    // wait for this replica's RBAC policy.
    const rr = this.restRequest(rt, r.namespace, r.name, r.subresource, query, req, res, context);
    if (this.namespaceLifecycle && rt === this.namespaceType && method === "DELETE" && r.name !== "") admitNamespaceDelete(r.name);
    let out: RestResponse | undefined;
    try {
      out = await this.serveResource(rr, r, method);
      if (protobufOnly && (out === undefined || out.code < 400)) throw notAcceptableError(req.headers.accept);
    } catch (e) {
      // The custom resource handler warns about a deprecated version before serving, so failures carry it too.
      if (e instanceof ApiError && rt.deprecationWarning && !(e.warnings ?? []).includes(rt.deprecationWarning)) e.warnings = [rt.deprecationWarning, ...(e.warnings ?? [])];
      throw e;
    }
    // A deprecated version warns on every verb (writes add it with their own warnings).
    if (out && rt.deprecationWarning && (method === "GET" || method === "HEAD" || method === "DELETE") && !(out.warnings ?? []).includes(rt.deprecationWarning)) {
      out.warnings = [rt.deprecationWarning, ...(out.warnings ?? [])];
    }
    return out;
  }

  /** The REST handlers' view of a request of `rt` (its store, admission plugins, the GC setting). */
  private restRequest(
    rt: ResourceType,
    namespace: string,
    name: string,
    subresource: string,
    query: QueryParams,
    req: IncomingMessage,
    res: ServerResponse,
    context?: RequestContext,
  ): RestRequest {
    const store = rt === this.crdType ? this.crdStore : this.rbacTypes.has(rt) ? this.rbacStore : this.store;
    const rr: RestRequest = { store, rt, namespace, name, subresource, query, req, res, encoded: this.encoded, garbageCollection: this.garbageCollection };
    if (context) rr.context = context;
    if (this.namespaceLifecycle && rt.namespaced) rr.admit = (op, obj) => admitNamespaced(this.store, rt, namespace, op, obj);
    return rr;
  }

  /**
   * The garbage collector's client: the RESTMapper over the served resources, and patches and deletes through
   * the REST handlers with kube-controller-manager's User-Agent (its field manager), past authentication.
   */
  private gcClient(): GcClient {
    const call = async (method: "PATCH" | "DELETE", rt: ResourceType, namespace: string, name: string, body: JsonObject) => {
      const req = internalRequest(method, GC_USER_AGENT, { contentType: method === "PATCH" ? "application/merge-patch+json" : "application/json", text: JSON.stringify(body) });
      const rr = this.restRequest(rt, rt.namespaced ? namespace : "", name, "", new URLSearchParams(), req, NO_RESPONSE);
      await (method === "PATCH" ? retryingConflicts(() => patchObject(rr)) : deleteObject(rr));
    };
    return {
      resolve: (apiVersion, kind, anyVersion) => this.resolveKind(apiVersion, kind, anyVersion === true),
      patch: (rt, namespace, name, patch) => call("PATCH", rt, namespace, name, patch),
      delete: (rt, namespace, name, options) => call("DELETE", rt, namespace, name, options),
    };
  }

  /** The served resource of a group/version and kind (`anyVersion`: another served version of the kind will do). */
  private resolveKind(apiVersion: string, kind: string, anyVersion: boolean): ResourceType | undefined {
    const slash = apiVersion.indexOf("/");
    const group = slash < 0 ? "" : apiVersion.slice(0, slash);
    const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
    if (slash >= 0 && apiVersion.indexOf("/", slash + 1) >= 0) return undefined;
    const fixed = [this.crdType, ...this.builtins.values()].filter((rt) => rt.group === group && rt.kind === kind);
    const exact = fixed.find((rt) => rt.version === version);
    if (exact) return exact;
    if (fixed.length > 0) return anyVersion ? fixed[0] : undefined;
    for (const e of this.registry.entries()) {
      if (e.group !== group || e.names.kind !== kind) continue;
      const rt = this.registry.lookup(group, version, e.names.plural);
      if (rt || !anyVersion) return rt;
      for (const v of e.versions) {
        const other = this.registry.lookup(group, v.name, e.names.plural);
        if (other) return other;
      }
    }
    return undefined;
  }

  private async serveResource(rr: RestRequest, r: Extract<Route, { kind: "resource" }>, method: string): Promise<RestResponse | undefined> {
    const { query } = rr;
    const isCollection = r.name === "";
    const watch = async () => {
      let stop: (() => void) | undefined;
      await serveWatch(rr, (s) => {
        stop = s;
        this.watchStops.add(s);
      });
      if (stop) this.watchStops.delete(stop);
      return undefined;
    };
    if (r.watch) {
      if (method !== "GET") throw apiErrors.methodNotAllowed();
      if (!isCollection) {
        // A watch of one object is one of its collection with the name as field selector.
        const fs = query.get("fieldSelector") ?? "";
        if (fs === "") query.set("fieldSelector", `metadata.name=${r.name}`);
        else if (!new RegExp(`(^|,)metadata\\.name==?${r.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(,|$)`).test(fs)) {
          throw apiErrors.badRequest("fieldSelector metadata.name doesn't match requested name");
        }
      }
      return watch();
    }
    if (isCollection) {
      if (rr.rt.decodesBodyVersion && r.subresource !== "" && (method === "GET" || method === "POST" || method === "DELETE")) {
        // `…/plural//status`: the custom resource handler's subresource serves get, update and patch only.
        const verb = method === "POST" ? "create" : method === "DELETE" ? "deletecollection" : query.has("watch") && queryBool(query.get("watch")) ? "watch" : "list";
        throw apiErrors.methodNotSupported(r.plural, r.group, verb);
      }
      if (method === "GET") {
        // ListOptions.Watch as the parameter codec reads it: any value but "0" and "false" (any case) is true.
        if (query.has("watch") && queryBool(query.get("watch"))) return watch();
        return listCollection(rr);
      }
      if (method === "POST") return converted(rr, await createObject(rr));
      if (method === "DELETE") {
        if (rr.rt.verbs && !rr.rt.verbs.includes("deletecollection")) throw apiErrors.methodNotAllowed();
        return this.deleteCollection(rr);
      }
      if (method === "PUT" || method === "PATCH") throw apiErrors.badRequest("name must be provided");
      throw this.unservedMethod(rr, method);
    }
    switch (method) {
      case "GET":
        return getObject(rr);
      case "PUT":
        return converted(rr, await retryingConflicts(() => updateObject(rr)));
      case "PATCH":
        return converted(rr, await retryingConflicts(() => patchObject(rr)));
      case "DELETE":
        // The custom resource handler's subresources (status, scale) serve no delete.
        if (r.subresource !== "") throw apiErrors.methodNotSupported(r.plural, r.group, "delete");
        return converted(rr, await deleteObject(rr));
      case "POST":
        // The custom resource handler creates for a POST to an item path too: the name is the body's, the path's
        // is not used (its subresources serve no create). go-restful routes no POST to a built-in item.
        if (!rr.rt.decodesBodyVersion) throw this.unservedMethod(rr, method);
        if (r.subresource !== "") throw apiErrors.methodNotSupported(r.plural, r.group, "create");
        return converted(rr, await createObject({ ...rr, name: "" }));
      default:
        throw this.unservedMethod(rr, method);
    }
  }

  /** A method a resource path has no handler for: go-restful's 405, or the custom resource handler's for a verb "". */
  private unservedMethod(rr: RestRequest, method: string): ApiError {
    const verbless = !["GET", "POST", "PUT", "PATCH", "DELETE"].includes(method);
    return rr.rt.decodesBodyVersion && verbless ? apiErrors.methodNotSupported(rr.rt.plural, rr.rt.group, "") : apiErrors.methodNotAllowed();
  }

  /**
   * `DELETE` of a collection (generic `Store.DeleteCollection`): lists page by page (10,000, or one page of
   * the client's `limit`), deletes each object, and answers the objects as listed with the first page's
   * ListMeta (the one page's with a limit).
   */
  private async deleteCollection(r: RestRequest): Promise<RestResponse> {
    // The list options are read first (their 400/422), then the DeleteOptions.
    // The options are decoded (numbers, then the selectors' syntax), validated, then the field labels checked.
    parseListNumbers(r.query);
    checkSelectorSyntax(r.query);
    const params = listParams(r.query);
    const filters = parseFilters(r.rt, r.query);
    const opts = await readDeleteOptions(r);
    const dry = isDryRunDelete(opts);
    const hasLimit = params.limit > 0;
    const p: ListParams = { ...params, limit: hasLimit ? params.limit : DELETE_COLLECTION_PAGE };
    const listed: JsonValue[] = [];
    let first: ListPage | undefined;
    for (;;) {
      const page = await listPage(r, filters, p);
      first ??= page;
      for (const obj of page.items) {
        listed.push(obj);
        const key = r.rt.storagePrefix + (r.rt.namespaced ? `${metaString(obj, "namespace")}/` : "") + metaString(obj, "name");
        const sv = await r.store.get(key);
        if (!sv) continue;
        const cur = await decodeStored(r.rt, sv);
        // Each object is deleted as by a DELETE with the same options: a precondition that fails ends the request.
        checkDeletePreconditions(r.rt, metaString(cur, "name"), cur, opts);
        await deleteOne({ ...r, namespace: metaString(cur, "namespace") }, cur, sv.modRevision, dry, opts);
      }
      if (hasLimit || page.continueToken === "") break;
      p.continueToken = page.continueToken;
      p.resourceVersion = "";
      p.match = "";
    }
    if (!first) throw apiErrors.internal("no list page");
    const meta: JsonObject = { resourceVersion: String(first.revision), continue: first.continueToken };
    if (first.remainingItemCount !== undefined) meta["remainingItemCount"] = first.remainingItemCount;
    // Answered as a list is (the same conversions; a typed list without TypeMeta on its items).
    return listAnswer(r, listed as JsonObject[], meta);
  }
}

/** `deleteCollectionPageSize` of the generic store. */
const DELETE_COLLECTION_PAGE = 10_000;

/** Starts the server. */
export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? (() => {});
  const host = opts.host ?? "127.0.0.1";
  let security: Security;
  try {
    security = await setupSecurity(opts.security ?? {}, host, opts.dataDir);
  } catch (e) {
    await opts.store?.close();
    throw e;
  }
  const store = opts.store ?? openStore(opts.dataDir, opts.synchronous);
  // The first log line says how the server is protected (once the store opened: a failure is said alone).
  log({ level: security.authenticator ? "info" : "warn", msg: "security", summary: security.summary });
  for (const w of security.warnings) log({ level: "warn", msg: w });
  const handler = new ApiHandler(
    store,
    log,
    security,
    loopbackRequestGuard(host),
    opts.ui === undefined ? defaultUiDir() : opts.ui,
    {
      ...(opts.namespaceLifecycle !== undefined ? { lifecycle: opts.namespaceLifecycle } : {}),
      ...(opts.namespaceDeletionDelayMs !== undefined ? { deletionDelayMs: opts.namespaceDeletionDelayMs } : {}),
    },
    opts.conversionWebhooks,
    opts.garbageCollector ?? true,
    opts.garbageCollectorController ?? opts.garbageCollector ?? true,
  );
  handler.logRequests = opts.logRequests ?? true;
  if (opts.requestTimeoutMs !== undefined) handler.requestTimeoutMs = opts.requestTimeoutMs;
  try {
    await handler.start();
  } catch (e) {
    handler.stopWatches();
    await store.close();
    throw e;
  }
  const limits = new InFlightLimits();
  const onRequest = (req: IncomingMessage, res: ServerResponse): Promise<void> | undefined => {
    if (refuseMissingHost(req, res)) return undefined;
    initAuditId(req, res);
    if (limits.admit(req, res)) return handler.handle(req, res);
    return undefined;
  };
  let server: Server | Http2SecureServer;
  let closeIdle: () => void;
  let closeAll: () => void;
  if (security.tls && !opts.http2?.disabled) {
    // h2 and http/1.1 by ALPN, as kube-apiserver (http2-serving.ts).
    const dual = createDualServer({ ...goCipherOrder(), ...security.tls, rejectUnauthorized: false }, opts.http2 ?? {}, onRequest, {
      maxHeaderSize: MAX_REQUEST_HEAD_BYTES,
      keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
      refuseExpectation,
    });
    server = dual.server;
    closeIdle = dual.closeIdle;
    closeAll = dual.closeAll;
  } else {
    const h1: Server = security.tls
      ? // --disable-http2-serving: ALPN offers http/1.1 only (Go's NextProtos ["http/1.1"]).
        createHttpsServer({ ...goCipherOrder(), ...security.tls, rejectUnauthorized: false, maxHeaderSize: MAX_REQUEST_HEAD_BYTES, requireHostHeader: false, ALPNProtocols: ["http/1.1"] }, onRequest)
      : createServer({ maxHeaderSize: MAX_REQUEST_HEAD_BYTES, requireHostHeader: false }, onRequest);
    h1.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    h1.on("checkExpectation", refuseExpectation);
    server = h1;
    closeIdle = () => h1.closeIdleConnections();
    closeAll = () => h1.closeAllConnections();
  }
  server.on("clientError", answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  handler.setServerAddress(`${host.includes(":") ? `[${host}]` : host}:${port}`);
  const url = `${security.tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`;
  log({ level: "info", msg: "listening", url, revision: handler.registry.revision });
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    host,
    store,
    security,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => {
          void store.close().finally(() => {
            log({ level: "info", msg: "stopped" });
            resolve();
          });
        });
        handler.stopWatches();
        // HTTP/2 connections get GOAWAY (their in-flight streams finish), idle HTTP/1.1 ones are closed.
        closeIdle();
        // In-flight requests get a grace period; keep-alive connections that go idle later are cut then.
        setTimeout(closeAll, SHUTDOWN_GRACE_MS).unref();
      });
      return closing;
    },
  };
}
