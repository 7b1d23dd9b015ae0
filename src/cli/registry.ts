/** The CRDs known to a `crdkit validate` run, looked up by group and kind. */
import type { CompiledCrdImpl } from "../pipeline/compile.js";

export class CrdRegistry {
  private readonly byGroupKind = new Map<string, CompiledCrdImpl>();

  add(c: CompiledCrdImpl): void {
    this.byGroupKind.set(`${c.group}/${c.kind}`, c);
  }

  get size(): number {
    return this.byGroupKind.size;
  }

  /** The CRD for an object's apiVersion and kind, if its group defines the kind. */
  lookup(apiVersion: string, kind: string): CompiledCrdImpl | undefined {
    const slash = apiVersion.indexOf("/");
    if (slash < 0) return undefined;
    return this.byGroupKind.get(`${apiVersion.slice(0, slash)}/${kind}`);
  }
}
