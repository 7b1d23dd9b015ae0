/**
 * The printer columns of a custom resource's `/scale` subresource (apiextensions' ScaleREST table
 * convertor): Name, Desired (`spec.replicas`), Available (`status.replicas`), Age. The convertor reads the columns from
 * the Scale as `runtime.DefaultUnstructuredConverter` writes it, which honours the Go struct's tags: `spec.replicas`
 * is `omitempty` (0 is left out: the cell is null), `status.replicas` is not (0 stays 0).
 */
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { DEFAULT_COLUMNS, type PrinterColumn, TableConvertor } from "./table.js";

function replicas(part: "spec" | "status"): (scale: JsonObject) => JsonValue {
  return (scale) => {
    const p = scale[part];
    const n = isObject(p) ? p["replicas"] : undefined;
    const replicas = typeof n === "number" ? n : 0;
    return part === "spec" && replicas === 0 ? null : replicas;
  };
}

const SCALE_COLUMNS: PrinterColumn[] = [
  { name: "Desired", type: "integer", format: "", description: "Number of desired replicas", priority: 0, jsonPath: "", compute: replicas("spec") },
  { name: "Available", type: "integer", format: "", description: "Number of actual replicas", priority: 0, jsonPath: "", compute: replicas("status") },
  ...DEFAULT_COLUMNS,
];

let convertor: TableConvertor | undefined;

/** The table convertor of Scale objects (built once). */
export function scaleTableConvertor(): TableConvertor {
  convertor ??= new TableConvertor(SCALE_COLUMNS);
  return convertor;
}
