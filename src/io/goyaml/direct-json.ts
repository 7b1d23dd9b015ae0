/**
 * The common case of go-yaml v2's `Unmarshal` into `interface{}` followed by sigs.k8s.io/yaml's JSON
 * conversion, in one pass over the parser's events with no event list, Go value tree or second walk: each
 * scalar is resolved by go-yaml's rules ({@link resolveScalar}) and converted by sigs.k8s.io/yaml's
 * ({@link scalarJson}, {@link jsonMapKey}) as it arrives, collections are built in place.
 *
 * It gives up (returns `undefined`) wherever the result could differ from the full path
 * (compose → goToJson) or needs its bookkeeping: aliases, merge keys, keys JSON cannot hold or that are not
 * scalars, a JSON key met twice in one mapping (duplicate keys, keys colliding after conversion), floats
 * encoding/json refuses, values go-yaml refuses, syntax errors, and nesting deeper than encoding/json's
 * limit. The caller then decodes the text again on the full path, which reports all of those exactly.
 */
import { type JsonObject, type JsonValue, setKey } from "../../value/json-value.js";
import { plainIsString } from "../go-yaml-resolve.js";
import { JSON_MAX_DEPTH } from "../json-decode.js";
import { resolveScalar } from "./compose.js";
import { EV, Parser } from "./parser.js";
import { jsonMapKey, scalarJson } from "./to-json.js";

/** What {@link decodeDirect} made of a text. */
export interface DirectDecoded {
  /** The JSON value of the first document; `undefined` when the text holds none. */
  value: JsonValue | undefined;
  /** Offset of the document's root node. */
  rootOffset: number;
}

/** The first document of `text` as JSON, or `undefined` when the full path must decide. Never throws for bad input. */
export function decodeDirect(text: string): DirectDecoded | undefined {
  try {
    return decode(text);
  } catch {
    // a syntax error, or a value go-yaml refuses: the full path reports it with its position
    return undefined;
  }
}

function decode(text: string): DirectDecoded | undefined {
  const p = new Parser(text);
  p.next(); // stream start
  const start = p.next();
  if (start.type !== EV.DocumentStart) return { value: undefined, rootOffset: 0 };
  // open collections: the JS value, whether it is a mapping, and the mapping's pending key
  const open: (JsonObject | JsonValue[])[] = [];
  const isMap: boolean[] = [];
  const keys: (string | undefined)[] = [];
  let top: JsonObject | JsonValue[] | undefined;
  let topIsMap = false;
  let key: string | undefined;
  let root: JsonValue | undefined;
  let rootOffset = -1;
  for (;;) {
    const e = p.next();
    if (rootOffset < 0) rootOffset = e.start.index;
    let v: JsonValue;
    switch (e.type) {
      case EV.Scalar: {
        if (e.tag === undefined && (!e.implicit || plainIsString(e.value!))) {
          // quoted and block scalars without a tag are strings, as keys and as values, and so are most plain ones
          if (topIsMap && key === undefined) {
            if (e.value === "<<" || Object.hasOwn(top as JsonObject, e.value!)) return undefined;
            key = e.value!;
            continue;
          }
          v = e.value!;
          break;
        }
        const s = resolveScalar(e);
        if (topIsMap && key === undefined) {
          if (e.value === "<<") return undefined; // a merge key (or "<<" written in quotes: same JSON, rare)
          const k = jsonMapKey(s);
          if (k === undefined || Object.hasOwn(top as JsonObject, k)) return undefined;
          key = k;
          continue;
        }
        if (s.t === "float" && !Number.isFinite(s.v)) return undefined; // encoding/json refuses it
        v = scalarJson(s);
        break;
      }
      case EV.SequenceStart:
      case EV.MappingStart:
        if (topIsMap && key === undefined) return undefined; // a collection as a map key
        if (open.length + (top === undefined ? 1 : 2) > JSON_MAX_DEPTH) return undefined; // the full path says where
        if (top !== undefined) {
          open.push(top);
          isMap.push(topIsMap);
          keys.push(key);
        }
        topIsMap = e.type === EV.MappingStart;
        top = topIsMap ? {} : [];
        key = undefined;
        continue;
      case EV.SequenceEnd:
      case EV.MappingEnd:
        v = top!;
        if (open.length === 0) {
          top = undefined;
          break;
        }
        top = open.pop()!;
        topIsMap = isMap.pop()!;
        key = keys.pop();
        break;
      default:
        return undefined; // an alias
    }
    if (top === undefined) {
      root = v;
      break;
    }
    if (topIsMap) {
      setKey(top as JsonObject, key!, v);
      key = undefined;
    } else (top as JsonValue[]).push(v);
  }
  p.next(); // document end: go-yaml reads it, which may still find a syntax error
  return { value: root, rootOffset };
}
