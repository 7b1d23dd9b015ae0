/**
 * apimachinery's `field.Path`: `spec.containers[2].ports[http]`. A nil path renders as `<nil>`.
 * Paths are immutable linked lists; the rendering is computed once and cached.
 */
export class FieldPath {
  private cached: string | undefined;
  private constructor(
    readonly parent: FieldPath | null,
    readonly segment: string,
    readonly kind: "root" | "child" | "index" | "key",
  ) {}

  /** `field.NewPath(name, more...)`. */
  static of(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(null, name, "root");
    // indexed: a for-of allocates an iterator in V8's lower tiers (and most calls have no `more`)
    for (let i = 0; i < more.length; i++) p = p.child(more[i]!);
    return p;
  }

  /** A child field; the name is printed literally (it may itself contain dots). */
  child(name: string, ...more: string[]): FieldPath {
    let p = new FieldPath(this, name, "child");
    for (let i = 0; i < more.length; i++) p = p.child(more[i]!);
    return p;
  }

  /** An array index `[i]`. */
  index(i: number): FieldPath {
    return new FieldPath(this, String(i), "index");
  }

  /** A map key `[key]` (no quoting, as Kubernetes prints it). */
  key(k: string): FieldPath {
    return new FieldPath(this, k, "key");
  }

  /** The root element of this path. */
  root(): FieldPath {
    let p: FieldPath = this;
    while (p.parent) p = p.parent;
    return p;
  }

  toString(): string {
    if (this.cached !== undefined) return this.cached;
    let s: string;
    if (this.kind === "root") s = this.segment;
    else {
      const prefix = this.parent ? this.parent.toString() : "";
      if (this.kind === "child") s = prefix === "" ? this.segment : `${prefix}.${this.segment}`;
      else s = `${prefix}[${this.segment}]`;
    }
    this.cached = s;
    return s;
  }
}

/** Extends a possibly-nil path (`fldPath.Child(x)` where fldPath may be nil in Go). */
export function childOf(p: FieldPath | null, name: string): FieldPath {
  return p ? p.child(name) : FieldPath.of(name);
}

/** Renders a possibly-nil path as Go does (`<nil>`). */
export function pathString(p: FieldPath | null | undefined): string {
  return p ? p.toString() : "<nil>";
}
