/**
 * The built-in schema provider: for an apiVersion, kind and Kubernetes release, the compiled
 * {@link BuiltinKind} (schemas resolved, patched and compiled lazily, on first use, then cached).
 *
 * ```ts
 * const builtins = new BuiltinSchemas(bundle);            // bundle: see src/cli/builtin-loader.ts
 * const deployments = builtins.lookup("apps/v1", "Deployment", "1.37");
 * const r = deployments?.create(obj, { fieldValidation: "Strict" });
 * ```
 */
import type { JSONSchemaProps } from "../crd/types.js";
import { CrdkitError } from "../errors/crdkit-error.js";
import { type BuiltinBundle, type BundleRelease, bundleReleases } from "./bundle.js";
import { type BuiltinKind, compileBuiltinKind } from "./builtin-kind.js";
import { DefinitionResolver, RecursiveDefinitionError, UnresolvedReferenceError } from "./resolve-definition.js";
import { patchDefinition } from "./schema-patches.js";

/** Why a built-in kind has no usable schema (e.g. CustomResourceDefinition, whose schema is recursive). */
export class BuiltinUnavailable {
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
    readonly reason: string,
  ) {}
}

interface ReleaseIndex {
  release: BundleRelease;
  kinds: Map<string, [string, string, number, number]>;
  defs: Map<string, number>;
  resolver: DefinitionResolver;
  compiled: Map<string, BuiltinKind | BuiltinUnavailable>;
}

export class BuiltinSchemas {
  /** Supported releases, ascending (`"1.27"` … `"1.37"`). */
  readonly releases: readonly string[];
  private readonly index = new Map<string, ReleaseIndex>();

  constructor(private readonly bundle: BuiltinBundle) {
    this.releases = bundleReleases(bundle);
  }

  /** The newest release in the bundle (the default). */
  get newest(): string {
    return this.releases.at(-1) ?? "";
  }

  /** The k8s.io/kubernetes module version a release's schemas come from (`v1.37.2`). */
  moduleVersion(release: string): string | undefined {
    return this.bundle.versions[release]?.module;
  }

  /** The `[apiVersion, kind]` pairs a release knows. Throws for an unknown release. */
  kinds(release: string): [string, string][] {
    return [...this.releaseIndex(release).kinds.values()].map(([a, k]) => [a, k]);
  }

  /**
   * The kind, or undefined when the release has no such built-in kind, or {@link BuiltinUnavailable}
   * when it has one but its schema cannot be used. Throws CrdkitError (`unknown-kubernetes-version`)
   * for a release the bundle does not have.
   */
  lookup(apiVersion: string, kind: string, release: string = this.newest): BuiltinKind | BuiltinUnavailable | undefined {
    const idx = this.releaseIndex(release);
    const key = `${apiVersion}\u0000${kind}`;
    const hit = idx.compiled.get(key);
    if (hit) return hit;
    const entry = idx.kinds.get(key);
    if (!entry) return undefined;
    const definition = this.bundle.names[entry[2]] ?? "";
    let result: BuiltinKind | BuiltinUnavailable;
    try {
      const schema = idx.resolver.resolve(definition);
      const c = compileBuiltinKind({ apiVersion, kind, namespaced: entry[3] === 1, kubernetesVersion: release, definition }, schema);
      result = typeof c === "string" ? new BuiltinUnavailable(apiVersion, kind, c) : c;
    } catch (e) {
      if (!(e instanceof RecursiveDefinitionError || e instanceof UnresolvedReferenceError)) throw e;
      result = new BuiltinUnavailable(apiVersion, kind, e.message);
    }
    idx.compiled.set(key, result);
    return result;
  }

  private releaseIndex(release: string): ReleaseIndex {
    const cached = this.index.get(release);
    if (cached) return cached;
    const r = this.bundle.versions[release];
    if (!r) {
      throw new CrdkitError(
        "unknown-kubernetes-version",
        `unsupported Kubernetes version "${release}": built-in schemas are available for ${this.releases.join(", ")}`,
      );
    }
    const kinds = new Map<string, [string, string, number, number]>();
    for (const k of r.kinds) kinds.set(`${k[0]}\u0000${k[1]}`, k);
    const defs = new Map<string, number>();
    for (const [n, b] of r.defs) defs.set(this.bundle.names[n] ?? "", b);
    const patched = new Map<string, JSONSchemaProps>();
    const resolver = new DefinitionResolver((name) => {
      let p = patched.get(name);
      if (p) return p;
      const b = defs.get(name);
      const body = b === undefined ? undefined : this.bundle.bodies[b];
      if (!body) return undefined;
      p = patchDefinition(name, body as JSONSchemaProps);
      patched.set(name, p);
      return p;
    });
    const idx: ReleaseIndex = { release: r, kinds, defs, resolver, compiled: new Map() };
    this.index.set(release, idx);
    return idx;
  }
}
