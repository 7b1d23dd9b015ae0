/**
 * Node's HTTP/2 client binds every request's start to an `AsyncResource` (`ClientHttp2Session.request`), so
 * every etcd call through grpc-js runs `AsyncResource.prototype.bind` once. In Node 20 that method gives the
 * bound function its deprecated `asyncResource` accessor (DEP0172) through two `util.deprecate` wrappers, each
 * of which sets a fresh function as another fresh function's prototype: ~13 µs per call measured here, and the
 * prototype maps are allocated in V8's old space. `crdkit serve` owns its process, so it replaces the method
 * with the same one without the wrappers: the bound function, its `length`, its `asyncResource` getter and
 * setter and the one DEP0172 warning on first use are as Node's. Replaced only where Node's own method makes
 * its accessor with `util.deprecate` (a Node without it is left alone), once.
 */
import { AsyncResource } from "node:async_hooks";

const DEP0172 = "The asyncResource property on bound functions is deprecated";

/** Node's `util.deprecate` wrapper has the wrapped function as its prototype; a plain getter has Function.prototype. */
function bindIsDeprecateWrapped(): boolean {
  const bound = new AsyncResource("crdkit-probe").bind(() => {});
  const getter = Object.getOwnPropertyDescriptor(bound, "asyncResource")?.get;
  return getter !== undefined && Object.getPrototypeOf(getter) !== Function.prototype;
}

let installed = false;

/** Replaces `AsyncResource.prototype.bind` (see above); true when it did (now or before). */
export function installCheapAsyncBind(): boolean {
  if (installed) return true;
  if (!bindIsDeprecateWrapped()) return false;
  const nodeBind = AsyncResource.prototype.bind;
  let warned = false;
  const warn = () => {
    if (warned || process.noDeprecation) return;
    warned = true;
    process.emitWarning(DEP0172, "DeprecationWarning", "DEP0172");
  };
  AsyncResource.prototype.bind = function bind<Func extends (...args: never[]) => unknown>(this: AsyncResource, fn: Func, thisArg?: unknown) {
    // Node's own method for anything unusual (its argument error, ERR_INVALID_ARG_TYPE).
    if (typeof fn !== "function") return Reflect.apply(nodeBind, this, [fn, thisArg]);
    let self: AsyncResource = this;
    let bound: Func;
    if (thisArg === undefined) {
      const resource = this;
      bound = function (this: unknown, ...args: unknown[]) {
        return Reflect.apply(resource.runInAsyncScope, resource, [fn, this, ...args]);
      } as unknown as Func;
    } else bound = Function.prototype.bind.call(this.runInAsyncScope, this, fn, thisArg) as Func;
    Object.defineProperties(bound, {
      length: { __proto__: null, configurable: true, enumerable: false, value: fn.length, writable: false },
      asyncResource: {
        __proto__: null,
        configurable: true,
        enumerable: true,
        get() {
          warn();
          return self;
        },
        set(v: AsyncResource) {
          warn();
          self = v;
        },
      },
    } as PropertyDescriptorMap);
    return bound as Func & { asyncResource: AsyncResource };
  } as typeof AsyncResource.prototype.bind;
  installed = true;
  return true;
}
