/**
 * The object types of a DeclType tree as an on-demand type source: Kubernetes declares every object
 * node of `self`'s schema as a CEL type (`MaybeAssignTypeName` names `<root>`, `<root>.<field>`,
 * `<root>.@idx`, `<root>.@elem`); building all of them for every schema node with rules costs time
 * proportional to the subtree, while a check only looks up the types of the fields its expressions
 * select. Here a type's fields are built when the checker first asks for that type.
 */
import { type CheckedType as CelType, listType, mapType, type ObjectTypeSource, StringType, structType } from "../cel/index.js";
import { celTypeOf, type DeclType } from "./decl-type.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The CEL type of `t` whose object types are named from `name` as {@link assignTypeNames} would name them. */
export function namedCelType(t: DeclType, name: string): CelType {
  switch (t.kind) {
    case "object":
      return structType(name);
    case "list":
      return listType(namedCelType(t.elem!, `${name}.@idx`));
    case "map":
      return mapType(StringType, namedCelType(t.elem!, `${name}.@elem`));
    default:
      return celTypeOf(t);
  }
}

/** The DeclType named `name` under `root` (named `rootName`), when it is an object type. */
function objectAt(root: DeclType, rootName: string, name: string): DeclType | undefined {
  if (name === rootName) return root.kind === "object" ? root : undefined;
  if (!name.startsWith(rootName) || name.charCodeAt(rootName.length) !== 46 /* . */) return undefined;
  let cur: DeclType | undefined = root;
  for (const seg of name.slice(rootName.length + 1).split(".")) {
    if (cur === undefined) return undefined;
    if (seg === "@idx") cur = cur.kind === "list" ? cur.elem : undefined;
    else if (seg === "@elem") cur = cur.kind === "map" ? cur.elem : undefined;
    else cur = cur.kind === "object" ? cur.fields?.get(seg)?.type : undefined;
  }
  return cur?.kind === "object" ? cur : undefined;
}

/**
 * The object types under `root` named from `rootName` (the same declarations as
 * `objectTypeDecls` after `assignTypeNames(root, rootName)`, without renaming the shared DeclType tree).
 */
export function declTypeSource(root: DeclType, rootName: string): ObjectTypeSource {
  return {
    prefixes: [rootName],
    fields(name: string): ReadonlyMap<string, CelType> | undefined {
      const t = objectAt(root, rootName, name);
      if (t === undefined) return undefined;
      const fields = new Map<string, CelType>();
      for (const [f, field] of t.fields ?? []) {
        const ft = namedCelType(field.type, `${name}.${f}`);
        fields.set(f, ft);
        // Kubernetes ≥ 1.31 also resolves the unescaped name of reserved words (`self.namespace`);
        // (as a key of a plain object `__proto__` never took effect)
        if (f !== field.property && field.property !== "__proto__" && IDENTIFIER.test(field.property)) fields.set(field.property, ft);
      }
      return fields;
    },
  };
}
