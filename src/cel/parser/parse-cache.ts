/**
 * A cache of parse results by source text and parser options. Parsing depends on nothing else, and a
 * parse result is never modified after parsing (checker, validators, cost estimator and planner only
 * read the AST), so environments that compile the same expression many times — Kubernetes compiles the
 * rules of every schema node in an environment of its own, and the same rule text recurs across the
 * versions and fields of a CRD — can share one parse.
 * @module
 */
import type { Macro } from "./macros.js";
import { type ParseOptions, type ParseResult, parse } from "./parser.js";

const macroIds = new WeakMap<Macro, number>();
let nextMacroId = 0;

function macroId(m: Macro): number {
  let id = macroIds.get(m);
  if (id === undefined) {
    id = nextMacroId++;
    macroIds.set(m, id);
  }
  return id;
}

/** A bounded map from (parser options, source) to the parse result. */
export class ParseCache {
  private readonly results = new Map<string, ParseResult>();
  private readonly optionKeys = new WeakMap<ParseOptions, string>();

  /** @param maxEntries entries kept; the cache starts over when it is full. */
  constructor(private readonly maxEntries = 10000) {}

  /** `parse(source, options)`, or the result of an earlier call with equal options and the same source. */
  parse(source: string, options: ParseOptions = {}): ParseResult {
    const key = `${this.optionsKey(options)}\u0000${source}`;
    const hit = this.results.get(key);
    if (hit !== undefined) return hit;
    const r = parse(source, options);
    if (this.results.size >= this.maxEntries) this.results.clear();
    this.results.set(key, r);
    return r;
  }

  /** How many results are kept. */
  get size(): number {
    return this.results.size;
  }

  private optionsKey(o: ParseOptions): string {
    let k = this.optionKeys.get(o);
    if (k === undefined) {
      const macros = o.macros === undefined ? "default" : o.macros.map(macroId).join(",");
      k = JSON.stringify([
        o.description ?? null,
        o.maxRecursionDepth ?? null,
        o.expressionSizeCodePointLimit ?? null,
        o.enableOptionalSyntax ?? null,
        o.enableIdentEscapeSyntax ?? null,
        macros,
      ]);
      this.optionKeys.set(o, k);
    }
    return k;
  }
}
