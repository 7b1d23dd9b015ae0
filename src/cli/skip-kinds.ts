/**
 * `--skip KIND[,KIND]`: kinds left out of validation, written as `Kind` or `apiVersion/Kind`
 * (`Deployment`, `apps/v1/Deployment`, `v1/ConfigMap`), the forms kubeconform's `-skip` accepts.
 */
export class SkipKinds {
  private readonly set = new Set<string>();

  /** Adds a comma-separated list (repeatable flag). Empty entries are ignored. */
  add(list: string): void {
    for (const k of list.split(",")) {
      const t = k.trim();
      if (t !== "") this.set.add(t);
    }
  }

  get size(): number {
    return this.set.size;
  }

  /** The entry that matches the object's apiVersion and kind, if any. */
  match(apiVersion: string, kind: string): string | undefined {
    if (this.set.has(kind)) return kind;
    const gvk = `${apiVersion}/${kind}`;
    return this.set.has(gvk) ? gvk : undefined;
  }
}
