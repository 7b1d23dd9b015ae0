/**
 * The printer columns of a custom resource's `/scale` subresource (apiextensions' ScaleREST table
 * convertor): Name, Desired (`spec.replicas`), Available (`status.replicas`), Age.
 */
import { isObject, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { DEFAULT_COLUMNS, type PrinterColumn, TableConvertor } from "./table.js";

function replicas(part: "spec" | "status"): (scale: JsonObject) => JsonValue {
  return (scale) => {
    const p = scale[part];
    const n = isObject(p) ? p["replicas"] : undefined;
    return typeof n === "number" ? n : 0;
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
