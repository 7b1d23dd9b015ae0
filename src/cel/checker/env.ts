/**
 * The declarations a check runs against (cel-go `checker.Env`): container, global variables,
 * functions, type provider, and a stack of local scopes for comprehension variables.
 * @module
 */
import { wellKnownMessage } from "../types/well-known.js";
import type { Expr } from "../ast.js";
import type { FunctionDecl } from "../decls/decl.js";
import type { TypeProvider } from "../types/provider.js";
import { type CelType, typeTypeWithParam } from "../types/types.js";

/** A resolved identifier: its declared name and type, and whether a local shadows it. */
export interface IdentResolution {
  readonly name: string;
  readonly type: CelType;
  readonly requiresDisambiguation: boolean;
}

/** Immutable declaration set shared by all checks of one environment. */
export interface CheckerDecls {
  /** Namespace for name resolution (`''` for none). */
  readonly container: string;
  readonly variables: ReadonlyMap<string, CelType>;
  readonly functions: ReadonlyMap<string, FunctionDecl>;
  readonly provider: TypeProvider;
  /** Overload ids excluded from resolution. */
  readonly disabledOverloads: ReadonlySet<string>;
  /** Opaque types that cel-go declares as object types its provider cannot resolve (see `EnvOptions`). */
  readonly unresolvedObjectTypes?: ReadonlySet<string>;
}

/** cel-go `Container.ResolveCandidateNames` (without aliases). */
export function resolveCandidateNames(container: string, name: string): string[] {
  if (name.charCodeAt(0) === 46 /* . */) return [name.slice(1)];
  if (container === "") return [name];
  const out = [`${container}.${name}`];
  let next = container;
  for (let i = next.lastIndexOf("."); i >= 0; i = next.lastIndexOf(".")) {
    next = next.slice(0, i);
    out.push(`${next}.${name}`);
  }
  out.push(name);
  return out;
}

const variablePrefixes = new WeakMap<ReadonlyMap<string, CelType>, ReadonlySet<string>>();

/** First segments of dotted variable names (`a` for `a.b.c`), cached per variable map. */
function prefixesOf(vars: ReadonlyMap<string, CelType>): ReadonlySet<string> {
  let s = variablePrefixes.get(vars);
  if (s === undefined) {
    const out = new Set<string>();
    for (const n of vars.keys()) {
      const dot = n.indexOf(".");
      if (dot > 0) out.add(n.slice(0, dot));
    }
    s = out;
    variablePrefixes.set(vars, s);
  }
  return s;
}

const namespacedSuffixes = new WeakMap<ReadonlyMap<string, unknown>, ReadonlySet<string>>();

/** Last segments of dotted function names (`contains` for `sets.contains`), cached per function map. */
function suffixesOf(functions: ReadonlyMap<string, unknown>): ReadonlySet<string> {
  let s = namespacedSuffixes.get(functions);
  if (s === undefined) {
    const out = new Set<string>();
    for (const n of functions.keys()) {
      const dot = n.lastIndexOf(".");
      if (dot >= 0) out.add(n.slice(dot + 1));
    }
    s = out;
    namespacedSuffixes.set(functions, s);
  }
  return s;
}

/** A declared variable as an identifier resolves to it: its type and the reference naming it (shared). */
export interface VariableRef {
  readonly type: CelType;
  readonly reference: { readonly name: string };
}

const variableRefs = new WeakMap<ReadonlyMap<string, CelType>, Map<string, VariableRef>>();

/** Per-check scoped environment. */
export class CheckerEnv {
  /** Local variables, innermost last (a later one shadows an earlier one of the same name). */
  private readonly localNames: string[] = [];
  private readonly localTypes: CelType[] = [];
  /** Where each open scope's locals start. */
  private readonly scopeStarts: number[] = [];
  constructor(readonly decls: CheckerDecls) {}

  enterScope(): void {
    this.scopeStarts.push(this.localCount);
  }

  exitScope(): void {
    const start = this.scopeStarts.pop();
    if (start === undefined) return;
    // the arrays keep their slots (overwritten by later locals): no resize per scope
    this.localCount = start;
  }

  addLocal(name: string, type: CelType): void {
    if (this.scopeStarts.length === 0) return;
    const i = this.localCount++;
    this.localNames[i] = name;
    this.localTypes[i] = type;
  }

  /** How many entries of {@link localNames} / {@link localTypes} are live locals. */
  private localCount = 0;

  private lookupLocal(name: string): CelType | undefined {
    const names = this.localNames;
    for (let i = this.localCount - 1; i >= 0; i--) if (names[i] === name) return this.localTypes[i];
    return undefined;
  }

  private lookupGlobal(candidate: string): CelType | undefined {
    const v = this.decls.variables.get(candidate);
    if (v !== undefined) return v;
    const t = this.identType(candidate);
    if (t !== undefined) return typeTypeWithParam(t);
    const s = this.decls.provider.findStructType(candidate);
    return s === undefined ? undefined : typeTypeWithParam(s);
  }

  /**
   * The type a type name stands for as an identifier: not the object types cel-go's provider cannot
   * resolve (`kubernetes.Quantity` is `undeclared reference to 'kubernetes'` in Kubernetes).
   */
  private identType(name: string): CelType | undefined {
    const t = this.decls.provider.findIdentType(name);
    return t === undefined || this.decls.unresolvedObjectTypes?.has(name) !== true ? t : undefined;
  }

  /**
   * {@link resolveSimpleIdent} of a declared variable in the empty container that no local shadows,
   * as one object per variable map and name (no allocation per identifier); undefined in every
   * other case (then resolveSimpleIdent answers).
   */
  simpleVariable(name: string): VariableRef | undefined {
    const decls = this.decls;
    if (decls.container !== "" || name.charCodeAt(0) === 46 /* . */) return undefined;
    // lookupLocal in place (no small helper call on this hot path)
    const names = this.localNames;
    for (let i = this.localCount - 1; i >= 0; i--) if (names[i] === name) return undefined;
    let memo = this.variableMemo;
    if (memo === undefined) {
      memo = variableRefs.get(decls.variables);
      if (memo === undefined) {
        memo = new Map();
        variableRefs.set(decls.variables, memo);
      }
      this.variableMemo = memo;
    }
    const hit = memo.get(name);
    if (hit !== undefined) return hit;
    const type = decls.variables.get(name);
    if (type === undefined) return undefined;
    const ref: VariableRef = { type, reference: { name } };
    memo.set(name, ref);
    return ref;
  }
  private variableMemo: Map<string, VariableRef> | undefined;

  /** cel-go `resolveSimpleIdent`. */
  resolveSimpleIdent(name: string): IdentResolution | undefined {
    const local = this.lookupLocal(name);
    if (local !== undefined && name.charCodeAt(0) !== 46 /* . */) {
      return { name, type: local, requiresDisambiguation: false };
    }
    if (this.decls.container === "" && name.charCodeAt(0) !== 46 /* . */) {
      const t = this.lookupGlobal(name);
      return t === undefined ? undefined : { name, type: t, requiresDisambiguation: local !== undefined };
    }
    for (const c of resolveCandidateNames(this.decls.container, name)) {
      const t = this.lookupGlobal(c);
      if (t !== undefined) return { name: c, type: t, requiresDisambiguation: local !== undefined };
    }
    return undefined;
  }

  /**
   * Whether {@link resolveQualifiedIdent} may find a name for the select chain `e` (false when its
   * root is not an identifier, or when the root segment rules out every declared name), so the
   * checker can skip building the qualifier list.
   */
  mayResolveQualified(e: Expr): boolean {
    let cur: Expr = e;
    while (cur.kind === "select") {
      if (cur.testOnly) return false;
      cur = cur.operand;
    }
    if (cur.kind !== "ident") return false;
    const first = cur.name;
    if (first.charCodeAt(0) === 46 /* . */) return true;
    // lookupLocal in place (no small helper call on this hot path)
    const names = this.localNames;
    for (let i = this.localCount - 1; i >= 0; i--) if (names[i] === first) return false;
    const provider = this.decls.provider;
    return !(
      this.decls.container === "" &&
      provider.hasQualifiedPrefix !== undefined &&
      !provider.hasQualifiedPrefix(first) &&
      !prefixesOf(this.decls.variables).has(first)
    );
  }

  /**
   * Whether some declared function has a dotted name ending in `.name` (only then can a receiver
   * call `a.b.name(...)` be a namespaced global call).
   */
  hasNamespacedFunction(name: string): boolean {
    this.suffixes ??= suffixesOf(this.decls.functions);
    return this.suffixes.has(name);
  }
  private suffixes: ReadonlySet<string> | undefined;

  /** cel-go `resolveQualifiedIdent`. */
  resolveQualifiedIdent(qualifiers: readonly string[]): IdentResolution | undefined {
    if (qualifiers.length === 1) return this.resolveSimpleIdent(qualifiers[0] as string);
    const first = qualifiers[0] as string;
    const local = this.lookupLocal(first);
    if (local !== undefined && first.charCodeAt(0) !== 46 /* . */) return undefined;
    const provider = this.decls.provider;
    if (
      this.decls.container === "" &&
      first.charCodeAt(0) !== 46 /* . */ &&
      provider.hasQualifiedPrefix !== undefined &&
      !provider.hasQualifiedPrefix(first) &&
      !prefixesOf(this.decls.variables).has(first)
    ) {
      return undefined; // no declared name can match `first.…`
    }
    const varName = qualifiers.join(".");
    if (this.decls.container === "" && varName.charCodeAt(0) !== 46 /* . */) {
      const t = this.lookupGlobal(varName);
      return t === undefined ? undefined : { name: varName, type: t, requiresDisambiguation: local !== undefined };
    }
    for (const c of resolveCandidateNames(this.decls.container, varName)) {
      const t = this.lookupGlobal(c);
      if (t !== undefined) return { name: c, type: t, requiresDisambiguation: local !== undefined };
    }
    return undefined;
  }

  /** cel-go `resolveTypeIdent`: a type name for message construction. */
  resolveTypeIdent(name: string): IdentResolution | undefined {
    for (const c of resolveCandidateNames(this.decls.container, name)) {
      const t = this.identType(c);
      if (t !== undefined) return { name: c, type: typeTypeWithParam(t), requiresDisambiguation: false };
      const s = this.decls.provider.findStructType(c);
      if (s !== undefined) return { name: c, type: typeTypeWithParam(s), requiresDisambiguation: false };
      // cel-go's default registry describes the protobuf well-known messages
      const w = wellKnownMessage(c);
      if (w !== undefined) return { name: c, type: typeTypeWithParam(w.type), requiresDisambiguation: false };
    }
    return undefined;
  }

  /** cel-go `lookupFunction`. */
  lookupFunction(name: string): FunctionDecl | undefined {
    if (this.decls.container === "" && name.charCodeAt(0) !== 46 /* . */) return this.decls.functions.get(name);
    for (const c of resolveCandidateNames(this.decls.container, name)) {
      const f = this.decls.functions.get(c);
      if (f !== undefined) return f;
    }
    return undefined;
  }
}
