/**
 * Test helper: converts our AST into the plain protobuf-shaped objects that
 * `@bufbuild/cel-spec`'s `toDebugString` understands (cel-go debug format).
 */
import type { Constant, Expr } from "../ast.js";

type Obj = Record<string, unknown>;

function constant(c: Constant): Obj {
  switch (c.kind) {
    case "null":
      return { constantKind: { case: "nullValue", value: 0 } };
    case "bool":
      return { constantKind: { case: "boolValue", value: c.value } };
    case "int":
      return { constantKind: { case: "int64Value", value: c.value } };
    case "uint":
      return { constantKind: { case: "uint64Value", value: c.value } };
    case "double":
      return { constantKind: { case: "doubleValue", value: c.value } };
    case "string":
      return { constantKind: { case: "stringValue", value: c.value } };
    case "bytes":
      return { constantKind: { case: "bytesValue", value: c.value } };
  }
}

/** Our Expr → protobuf-like `cel.expr.Expr` object. */
export function toProtoLike(e: Expr): Obj {
  const wrap = (kase: string, value: unknown): Obj => ({ $typeName: "cel.expr.Expr", id: BigInt(e.id), exprKind: { case: kase, value } });
  switch (e.kind) {
    case "const":
      return wrap("constExpr", constant(e.value));
    case "ident":
      return wrap("identExpr", { name: e.name });
    case "select":
      return wrap("selectExpr", { operand: toProtoLike(e.operand), field: e.field, testOnly: e.testOnly });
    case "call":
      return wrap("callExpr", {
        target: e.target ? toProtoLike(e.target) : undefined,
        function: e.function,
        args: e.args.map(toProtoLike),
      });
    case "list":
      return wrap("listExpr", { elements: e.elements.map(toProtoLike), optionalIndices: e.optionalIndices });
    case "map":
      return wrap("structExpr", {
        messageName: "",
        entries: e.entries.map((en) => ({
          $typeName: "cel.expr.Expr.CreateStruct.Entry",
          id: BigInt(en.id),
          keyKind: { case: "mapKey", value: toProtoLike(en.key) },
          value: toProtoLike(en.value),
          optionalEntry: en.optional,
        })),
      });
    case "struct":
      return wrap("structExpr", {
        messageName: e.messageName,
        entries: e.fields.map((f) => ({
          $typeName: "cel.expr.Expr.CreateStruct.Entry",
          id: BigInt(f.id),
          keyKind: { case: "fieldKey", value: f.field },
          value: toProtoLike(f.value),
          optionalEntry: f.optional,
        })),
      });
    case "comprehension":
      return wrap("comprehensionExpr", {
        iterVar: e.iterVar,
        iterVar2: e.iterVar2 ?? "",
        iterRange: toProtoLike(e.iterRange),
        accuVar: e.accuVar,
        accuInit: toProtoLike(e.accuInit),
        loopCondition: toProtoLike(e.loopCondition),
        loopStep: toProtoLike(e.loopStep),
        result: toProtoLike(e.result),
      });
  }
}
