/**
 * `meta.k8s.io/v1` Table responses (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`), with the
 * custom-resource table convertor's cell rules (apiextensions `tableconvertor`).
 */
import { goJsonMarshal } from "../../go/json.js";
import { isObject, kindOf, toNumber, type JsonObject, type JsonValue } from "../../value/json-value.js";
import { humanAge } from "./human-duration.js";
import { compileJsonPath, evalJsonPath, type CompiledPath } from "./jsonpath.js";

/** One printer column (as in `additionalPrinterColumns`). */
export interface PrinterColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
  jsonPath: string;
  /** Print the raw value of a date column (the CRD table's `Created At`; Go's zero time when unset). */
  rawDate?: boolean;
  /** A cell computed from the object instead of `jsonPath` (the CRD table's built-in columns). */
  compute?: (obj: JsonObject) => JsonValue;
}

const NAME_DESCRIPTION =
  "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";

/** `metav1.ObjectMeta.creationTimestamp`'s description (the Age / Created At columns). */
export const CREATION_TIMESTAMP_DESCRIPTION =
  "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/** The default column set when a version defines none. */
export const DEFAULT_COLUMNS: PrinterColumn[] = [
  { name: "Age", type: "date", format: "", description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, jsonPath: ".metadata.creationTimestamp" },
];

/** `includeObject` query parameter. */
export type IncludeObject = "None" | "Metadata" | "Object";

/** A compiled table convertor for one resource version. */
export class TableConvertor {
  private readonly paths: (CompiledPath | undefined)[];
  constructor(private readonly columns: readonly PrinterColumn[]) {
    this.paths = columns.map((c) => compileJsonPath(c.jsonPath));
  }

  columnDefinitions(): JsonObject[] {
    return [
      { name: "Name", type: "string", format: "name", description: NAME_DESCRIPTION, priority: 0 },
      ...this.columns.map((c) => ({
        name: c.name,
        type: c.type,
        format: c.format,
        description: c.description,
        priority: c.priority,
      })),
    ];
  }

  /** One row for `obj`. */
  row(obj: JsonObject, include: IncludeObject, now: number, apiVersion = "meta.k8s.io/v1"): JsonObject {
    const meta = isObject(obj["metadata"]) ? obj["metadata"] : {};
    const cells: JsonValue[] = [typeof meta["name"] === "string" ? meta["name"] : ""];
    this.columns.forEach((c, i) => {
      if (c.compute) {
        cells.push(c.compute(obj));
        return;
      }
      const p = this.paths[i];
      const got = p ? evalJsonPath(p, obj) : [];
      // A typed kind's date column prints Go's zero time for an unset timestamp (see cell).
      cells.push(got.length === 0 ? (c.rawDate ? ZERO_TIME : null) : cell(c, got[0]!, now));
    });
    const row: JsonObject = { cells };
    if (include === "Object") row["object"] = obj;
    else if (include === "Metadata") row["object"] = partialObjectMetadata(obj, apiVersion);
    // TableRow.Object is a RawExtension: with includeObject=None it is encoded as null.
    else row["object"] = null;
    return row;
  }

  /** A Table of `objects` (a list, a single get or one watch event). */
  table(objects: readonly JsonObject[], resourceVersion: string | undefined, include: IncludeObject, noHeaders = false, apiVersion = "meta.k8s.io/v1"): JsonObject {
    const now = Date.now();
    const meta: JsonObject = {};
    if (resourceVersion !== undefined) meta["resourceVersion"] = resourceVersion;
    return {
      kind: "Table",
      apiVersion,
      metadata: meta,
      columnDefinitions: noHeaders ? null : this.columnDefinitions(),
      rows: objects.map((o) => this.row(o, include, now, apiVersion)),
    };
  }
}

/** The metadata-only view of an object (`meta.AsPartialObjectMetadata`): kubectl's NAMESPACE and labels, metadata informers. */
export function partialObjectMetadata(obj: JsonObject, apiVersion = "meta.k8s.io/v1"): JsonObject {
  const meta = isObject(obj["metadata"]) ? { ...obj["metadata"] } : {};
  return { kind: "PartialObjectMetadata", apiVersion, metadata: meta };
}

/** `time.Time{}` in RFC 3339. */
const ZERO_TIME = "0001-01-01T00:00:00Z";

/** client-go jsonpath text printing of a value (strings raw, others as JSON / Go %v). */
function printText(v: JsonValue): string {
  if (typeof v === "string") return v;
  // text/template's printableValue of a nil value.
  if (v === null) return "<no value>";
  return goJsonMarshal(v);
}

function cell(c: PrinterColumn, v: JsonValue, now: number): JsonValue {
  switch (c.type) {
    case "string":
      return printText(v);
    case "integer": {
      const k = kindOf(v);
      if (k === "integer") return v;
      if (k === "number") return Math.trunc(toNumber(v as number));
      return null;
    }
    case "number": {
      const k = kindOf(v);
      return k === "integer" || k === "number" ? toNumber(v as number) : null;
    }
    case "boolean":
      return typeof v === "boolean" ? v : null;
    case "date":
      // A typed kind prints CreationTimestamp.Time in RFC 3339: the zero time when unset (an empty object, as
      // the initial-events-end bookmark of a Table watch).
      if (c.rawDate) return typeof v === "string" ? v : ZERO_TIME;
      if (typeof v !== "string") return null;
      return humanAge(v, now);
    default:
      return printText(v);
  }
}
