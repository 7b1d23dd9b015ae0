/**
 * cel-go's literal validators (`ValidateDurationLiterals`, `ValidateTimestampLiterals`,
 * `ValidateRegexLiterals`): calls of `duration` / `timestamp` / `matches` whose first argument is
 * a literal are checked at compile time; a failure reports `invalid <fn> argument` at the literal.
 * @module
 */
import type { CallExpr, Expr } from "../../ast.js";
import type { FunctionRegistry } from "../../interpreter/functions.js";
import { plan } from "../../interpreter/planner.js";
import { compileRegex } from "../../stdlib-impl/regex.js";
import { CelError, CelSpecial } from "../../values/values.js";
import type { ValidationContext } from "./validator.js";

type ArgCheck = (call: CallExpr, arg: Expr) => boolean;

function validateCalls(ctx: ValidationContext, fnName: string, calls: readonly CallExpr[], check: ArgCheck): void {
  for (let i = 0; i < calls.length; i++) {
    const e = calls[i] as CallExpr;
    const arg = e.args[0];
    if (arg === undefined || arg.kind !== "const") continue;
    if (!check(e, arg)) ctx.report(arg.id, `invalid ${fnName} argument`);
  }
}

/** The implementations literal calls are evaluated with, or a function giving them when first needed. */
export type LiteralFunctions = FunctionRegistry | (() => FunctionRegistry);

function registryOf(f: LiteralFunctions): FunctionRegistry {
  return typeof f === "function" ? f() : f;
}

/**
 * Evaluates the call on its own (cel-go `evalCall`); false when it yields an error. The call is the function
 * `fnName` the checker resolved (cel-go writes it into the call: `.duration('1s')` is `duration('1s')`).
 */
function evalCallOk(functions: FunctionRegistry, fnName: string): ArgCheck {
  return (call) => {
    const bare: CallExpr = { kind: "call", id: call.id, function: fnName, args: call.args };
    const v = plan(bare, { functions }).eval().value;
    return !(v instanceof CelError) && !(v instanceof CelSpecial);
  };
}

/** `duration('...')` literals must parse. */
export function validateDurationLiterals(ctx: ValidationContext, functions: LiteralFunctions): void {
  const calls = ctx.callsNamed("duration");
  if (calls.length > 0) validateCalls(ctx, "duration", calls, evalCallOk(registryOf(functions), "duration"));
}

/** `timestamp('...')` / `timestamp(<int>)` literals must be valid. */
export function validateTimestampLiterals(ctx: ValidationContext, functions: LiteralFunctions): void {
  const calls = ctx.callsNamed("timestamp");
  if (calls.length > 0) validateCalls(ctx, "timestamp", calls, evalCallOk(registryOf(functions), "timestamp"));
}

/**
 * The first argument of `matches` calls, when a literal, must be a string that compiles as RE2.
 * (As in cel-go this is the pattern for `s.matches(re)` but the subject for `matches(s, re)`.)
 */
export function validateRegexLiterals(ctx: ValidationContext): void {
  const calls = ctx.callsNamed("matches");
  if (calls.length === 0) return;
  validateCalls(ctx, "matches", calls, (_call, arg) => {
    if (arg.kind !== "const" || arg.value.kind !== "string") return false;
    return !(compileRegex(arg.value.value) instanceof CelError);
  });
}
