/**
 * `defaulting.SurroundingObjectFunc` (surroundingobject.go): places a value at a fixed path inside an
 * otherwise empty object (`[{"foo": x}]` for `.index().child("foo")`), and reads it back after the
 * object has been mutated (pruned, coerced). Used to treat a `default` as part of a whole object.
 */
import { type JsonObject, type JsonValue, isObject, setKey } from "../value/json-value.js";

type Step = { readonly key: string } | { readonly index: true };

/** Result of reading the focus back: found or not, or Go's accessor error text. */
export type AccessResult = { found: true; value: JsonValue } | { found: false; error?: string };

/** An immutable surrounding-object builder (the root requires the focus to be an object). */
export class SurroundingObject {
  private constructor(
    private readonly steps: readonly Step[],
    private readonly typeMeta?: { apiVersion: string; kind: string },
  ) {}

  /** `NewRootObjectFunc()`. */
  static root(): SurroundingObject {
    return new SurroundingObject([]);
  }

  /** `.WithTypeMeta(...)`: sets `apiVersion`/`kind` on the built object when absent. */
  withTypeMeta(apiVersion: string, kind: string): SurroundingObject {
    return new SurroundingObject(this.steps, { apiVersion, kind });
  }

  /** `.Child(k)`: x ↦ f({k: x}). */
  child(key: string): SurroundingObject {
    return new SurroundingObject([...this.steps, { key }], this.typeMeta);
  }

  /** `.Index()`: x ↦ f([x]). */
  index(): SurroundingObject {
    return new SurroundingObject([...this.steps, { index: true }], this.typeMeta);
  }

  /** Builds the surrounding object (the focus is not copied), or Go's error text. */
  wrap(focus: JsonValue): { obj: JsonObject } | { error: string } {
    let cur = focus;
    for (let i = this.steps.length - 1; i >= 0; i--) {
      const s = this.steps[i]!;
      if ("index" in s) cur = [cur];
      else {
        const o: JsonObject = {};
        setKey(o, s.key, cur);
        cur = o;
      }
    }
    if (!isObject(cur)) return { error: "object root default value must be of object type" };
    if (this.typeMeta) {
      if (!Object.hasOwn(cur, "kind")) cur.kind = this.typeMeta.kind;
      if (!Object.hasOwn(cur, "apiVersion")) cur.apiVersion = this.typeMeta.apiVersion;
    }
    return { obj: cur };
  }

  /** The accessor: the value at the path in `obj` (errors compose as Go's nested accessors do). */
  access(obj: JsonObject): AccessResult {
    let cur: JsonValue = obj;
    for (let i = 0; i < this.steps.length; i++) {
      const s = this.steps[i]!;
      let bad: string | undefined;
      if ("index" in s) {
        if (!Array.isArray(cur)) bad = "[] must be of array type";
        else if (cur.length === 0) return { found: false };
        else cur = cur[0]!;
      } else if (!isObject(cur)) bad = `.${s.key} must be of object type`;
      else if (!Object.hasOwn(cur, s.key)) return { found: false };
      else cur = cur[s.key]!;
      if (bad !== undefined) {
        // outer accessors prefix the error with their own step, innermost first
        let msg = bad;
        for (let j = i + 1; j < this.steps.length; j++) {
          const o = this.steps[j]!;
          msg = ("index" in o ? "[]" : `.${o.key}`) + msg;
        }
        return { found: false, error: msg };
      }
    }
    return { found: true, value: cur };
  }
}
