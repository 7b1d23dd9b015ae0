/** The three CodeMirror 6 YAML editors and the translation of crdkit's positions into their markers. */
import { yaml } from "@codemirror/lang-yaml";
import { type Diagnostic as CmDiagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import type { Text } from "@codemirror/state";
import { basicSetup, EditorView } from "codemirror";
import type { Diagnostic, Pane } from "crdkit/browser";

export type Editors = Record<Pane, EditorView>;

/** Creates an editor in `parent`; `onChange` runs after each document change. */
export function createEditor(parent: HTMLElement, text: string, label: string, onChange: () => void): EditorView {
  return new EditorView({
    doc: text,
    parent,
    extensions: [
      basicSetup,
      yaml(),
      lintGutter(),
      EditorView.contentAttributes.of({ "aria-label": label }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) onChange();
      }),
    ],
  });
}

/** Replaces an editor's whole text. */
export function setText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

/** The document range a message at 1-based line/column points at: from there to the end of the token. */
export function rangeAt(doc: Text, line: number, column: number): { from: number; to: number } {
  const l = doc.line(Math.min(Math.max(line, 1), doc.lines));
  const from = l.from + Math.min(Math.max(column - 1, 0), l.length);
  const rest = doc.sliceString(from, l.to);
  const m = /^\S+/.exec(rest);
  return { from, to: m ? from + m[0].length : l.to };
}

/** Shows crdkit's diagnostics as lint markers (underline + gutter) in each pane. */
export function showDiagnostics(editors: Editors, diagnostics: readonly Diagnostic[]): void {
  for (const pane of Object.keys(editors) as Pane[]) {
    const view = editors[pane];
    const marks: CmDiagnostic[] = diagnostics
      .filter((d) => d.pane === pane)
      .map((d) => ({ ...rangeAt(view.state.doc, d.line, d.column), severity: d.severity, message: d.message, source: "crdkit" }));
    view.dispatch(setDiagnostics(view.state, marks));
  }
}

/** Moves the cursor of a pane to a message's position. */
export function reveal(view: EditorView, line: number, column: number): void {
  const { from } = rangeAt(view.state.doc, line, column);
  view.dispatch({ selection: { anchor: from }, scrollIntoView: true });
  view.focus();
}
