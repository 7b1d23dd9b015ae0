/**
 * CEL values of Kubernetes' library types (apiserver `pkg/cel`: Quantity, URL, IP, CIDR, Semver, Format).
 */
import { CelOpaque, CelType, type CelValue } from "../../cel/index.js";
import { type Addr, addrString, type Prefix, prefixString } from "../../go/netip.js";
import { compareQuantity, type Quantity } from "../lib/quantity.js";
import type { GoURL } from "../../go/url.js";
import type { Semver } from "./semver.js";

export const QUANTITY_TYPE = "kubernetes.Quantity";
export const URL_TYPE = "kubernetes.URL";
export const IP_TYPE = "net.IP";
export const CIDR_TYPE = "net.CIDR";
export const SEMVER_TYPE = "kubernetes.Semver";
export const FORMAT_TYPE = "kubernetes.NamedFormat";

const QT = new CelType(QUANTITY_TYPE);
const UT = new CelType(URL_TYPE);
const IT = new CelType(IP_TYPE);
const CT = new CelType(CIDR_TYPE);
const ST = new CelType(SEMVER_TYPE);
const FT = new CelType(FORMAT_TYPE);

/**
 * The library types a rule may name as a value (`type(ip(self.a)) == net.IP`): those Kubernetes registers
 * with its type provider. `kubernetes.Quantity`, `URL`, `Semver` and `NamedFormat` are object types its
 * provider does not resolve (the checker rejects them as identifiers).
 */
/** Kubernetes' regex library functions whose constant pattern is compiled with the program (`cel.OptimizeRegex`). */
export const KUBE_REGEX_FUNCTIONS: ReadonlySet<string> = new Set(["find", "findAll"]);

export const KUBE_TYPE_VALUES: ReadonlyMap<string, CelType> = new Map([
  [IP_TYPE, IT],
  [CIDR_TYPE, CT],
]);

/** `kubernetes.Quantity`. */
export class QuantityValue extends CelOpaque {
  readonly celType = QT;
  constructor(readonly q: Quantity) {
    super();
  }
  equals(o: CelValue): boolean {
    return o instanceof QuantityValue && compareQuantity(this.q, o.q) === 0;
  }
}

/** `kubernetes.URL`. */
export class URLValue extends CelOpaque {
  readonly celType = UT;
  constructor(
    readonly url: GoURL,
    readonly raw: string,
  ) {
    super();
  }
  equals(o: CelValue): boolean {
    return o instanceof URLValue && o.raw === this.raw;
  }
}

/** `net.IP`. */
export class IPValue extends CelOpaque {
  readonly celType = IT;
  constructor(readonly addr: Addr) {
    super();
  }
  equals(o: CelValue): boolean {
    return o instanceof IPValue && addrString(o.addr) === addrString(this.addr);
  }
}

/** `net.CIDR`. */
export class CIDRValue extends CelOpaque {
  readonly celType = CT;
  constructor(readonly prefix: Prefix) {
    super();
  }
  equals(o: CelValue): boolean {
    return o instanceof CIDRValue && prefixString(o.prefix) === prefixString(this.prefix);
  }
}

/** `kubernetes.Semver`. */
export class SemverValue extends CelOpaque {
  readonly celType = ST;
  constructor(readonly v: Semver) {
    super();
  }
  equals(o: CelValue): boolean {
    return o instanceof SemverValue && o.v.text === this.v.text;
  }
}

/** `kubernetes.NamedFormat`. */
export class FormatValue extends CelOpaque {
  readonly celType = FT;
  constructor(
    readonly name: string,
    readonly validate: (s: string) => string[],
    readonly maxRegexSize: number,
  ) {
    super();
  }
  equals(o: CelValue): boolean {
    return o instanceof FormatValue && o.name === this.name;
  }
}
