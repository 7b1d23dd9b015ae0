/** Renders the worker's verdict into the result tabs. */
import type { Diagnostic, PlaygroundResult } from "crdkit/browser";
import { prettyJson } from "./pretty-json.js";

const STATUS_TEXT: Record<number, string> = { 200: "OK", 201: "Created", 400: "Bad Request", 404: "Not Found", 422: "Unprocessable Entity" };

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

function byId(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (!e) throw new Error(`missing #${id}`);
  return e;
}

function messageItem(d: Diagnostic): HTMLLIElement {
  return el(
    "li",
    { class: `msg ${d.severity}`, "data-pane": d.pane, "data-line": String(d.line), "data-column": String(d.column), title: "show in the editor" },
    el("span", { class: "pos" }, `${d.line}:${d.column}`),
    " ",
    el("span", { class: "text" }, d.message),
  );
}

function list(id: string, items: HTMLElement[], empty: string): void {
  const ul = byId(id);
  ul.replaceChildren(...(items.length > 0 ? items : [el("li", { class: "none" }, empty)]));
}

/** Renders a verdict; `storedJson` is the stored object as Go's encoding/json writes it. */
export function renderResult(r: PlaygroundResult, storedJson: string | undefined, elapsedMs: number): void {
  const req = r.request;
  const verdict = byId("verdict-status");
  if (!r.crd.ok) {
    verdict.className = "status bad";
    verdict.textContent = r.crd.errors.length > 0 ? "The CustomResourceDefinition is invalid" : "Paste a CustomResourceDefinition";
  } else if (!req) {
    verdict.className = "status none";
    verdict.textContent = r.diagnostics.some((d) => d.pane !== "crd") ? "The object cannot be decoded" : "Type an object";
  } else {
    const ok = req.status < 300;
    verdict.className = `status ${ok ? "good" : "bad"}`;
    verdict.textContent = `${req.operation === "update" ? "PUT (update)" : "POST (create)"} → ${req.status} ${STATUS_TEXT[req.status] ?? ""}`;
  }
  byId("timing").textContent = `${elapsedMs.toFixed(1)} ms in the worker`;
  list("object-messages", r.diagnostics.filter((d) => d.pane !== "crd").map(messageItem), "no errors");
  list("object-warnings", (req?.warnings ?? []).map((w) => el("li", { class: "msg warning" }, el("span", { class: "text" }, w))), "no warnings");
  list("crd-messages", r.crd.errors.map(messageItem), r.crd.ok ? `${r.crd.kind}.${r.crd.group}: valid (served: ${r.crd.servedVersions.join(", ")})` : "no CRD");
  list("crd-warnings", r.crd.warnings.map((w) => el("li", { class: "msg warning" }, el("span", { class: "text" }, w))), "no warnings");
  byId("failure").textContent = req?.failure ?? "";

  const stored = byId("stored");
  const storedNote = byId("stored-note");
  if (storedJson !== undefined) {
    stored.textContent = prettyJson(storedJson);
    storedNote.textContent = req && req.status < 300 ? "As it would be stored (pruned, defaulted):" : `Not stored (${req?.status}); the object after pruning and defaulting:`;
  } else {
    stored.textContent = "";
    storedNote.textContent = "No stored object: the request failed before storage.";
  }

  const rows = r.rules.map((t) =>
    el(
      "tr",
      { class: t.outcome === true ? "pass" : "fail" },
      el("td", {}, t.path),
      el("td", {}, el("code", {}, t.rule)),
      el("td", { class: "outcome" }, t.outcome === true ? "pass" : t.outcome === false ? "fail" : `error: ${t.error ?? ""}`),
      el("td", { class: "num" }, String(t.cost)),
      el("td", { class: "num" }, String(t.estimatedMaxCost)),
    ),
  );
  byId("rules-body").replaceChildren(...(rows.length > 0 ? rows : [el("tr", {}, el("td", { colspan: "5", class: "none" }, "no x-kubernetes-validations rule was evaluated"))]));
  const total = r.rules.reduce((s, t) => s + t.cost, 0);
  byId("rules-total").textContent = r.rules.length > 0 ? `${r.rules.length} evaluations, total runtime cost ${total} (budget 10000000 per object)` : "";

  const cel = byId("cel-result");
  const x = r.expression;
  if (!x) {
    cel.className = "cel none";
    cel.textContent = "Evaluated against the stored object once the CRD is valid and the object is of its kind.";
  } else if (x.ok) {
    cel.className = "cel good";
    cel.replaceChildren(
      el("div", { class: "cel-value" }, x.value),
      el("div", { class: "cel-meta" }, `type ${x.type} · cost ${x.cost} · estimated max cost ${x.estimatedMaxCost}`),
    );
  } else {
    cel.className = "cel bad";
    cel.replaceChildren(el("pre", { class: "cel-error" }, x.error), ...(x.cost !== undefined ? [el("div", { class: "cel-meta" }, `cost ${x.cost}`)] : []));
  }
}
