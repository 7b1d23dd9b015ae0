/**
 * Wraps a store so that damage found while serving (SQLite reporting a corrupt file, or I/O errors) is
 * remembered: the failing call and every later write throw {@link StoreFaultError}, and
 * {@link storeFault} reports it (the server's `/readyz`). Works for synchronous and promise-returning
 * stores alike.
 */
import { isDamageCode, StoreFaultError } from "./store-faults.js";

const WRITES = new Set(["create", "createThen", "update", "delete", "deletePrefix"]);
const FAULT = Symbol("storeFault");

/** The damage a guarded store found, or undefined (also for stores that are not guarded). */
export function storeFault(store: object): string | undefined {
  const f = (store as { [FAULT]?: () => string | undefined })[FAULT];
  return typeof f === "function" ? f() : undefined;
}

/** `store` with damage detection; `what` names the database in messages. */
export function guardStore<S extends object>(store: S, what: string): S {
  let fault: string | undefined;
  const refuse = () =>
    new StoreFaultError(`the database ${what} is damaged (${fault}); writes are refused: stop the server and restore the database`);
  const failed = (e: unknown): never => {
    if (e instanceof Error && isDamageCode((e as { code?: unknown }).code)) {
      fault ??= e.message;
      throw refuse();
    }
    throw e;
  };
  return new Proxy(store, {
    get(target, prop, receiver) {
      if (prop === FAULT) return () => fault;
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== "function" || prop === "constructor") return v;
      return (...args: unknown[]) => {
        if (fault !== undefined && typeof prop === "string" && WRITES.has(prop)) throw refuse();
        try {
          const out = (v as (...a: unknown[]) => unknown).apply(target, args);
          return out instanceof Promise ? out.catch(failed) : out;
        } catch (e) {
          return failed(e);
        }
      };
    },
  });
}
