/**
 * The crdkit playground: three YAML editors (CRD, object, old object), the API server's verdict live as
 * you type (computed by crdkit's engine in a Web Worker), the stored object, CEL rule results with their
 * costs and a CEL tab. The state lives in the URL hash; nothing is sent anywhere.
 */
import type { Pane } from "crdkit/browser";
import { createEditor, type Editors, reveal, setText, showDiagnostics } from "./editors.js";
import { EXAMPLES } from "./examples.js";
import { renderResult } from "./render.js";
import { decodeState, encodeState, type ShareState } from "./share-state.js";
import { loadServerCrds } from "./server-crds.js";
import type { WorkerReply, WorkerRequest } from "./worker.js";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

const exampleSelect = $<HTMLSelectElement>("example");
const fvSelect = $<HTMLSelectElement>("field-validation");
const exprInput = $<HTMLTextAreaElement>("cel-expr");
const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });

let seq = 0;
let inFlight = false;
let pending = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let tab = "verdict";
let hashWritten: Promise<void> = Promise.resolve();

/** Runs the verdict after a pause in typing; the page is busy (`data-busy`) until it is shown. */
function schedule(delay = 120): void {
  document.body.dataset["busy"] = "true";
  clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    run();
  }, delay);
}

const first = EXAMPLES[0]!;
const editors: Editors = {
  crd: createEditor($("ed-crd"), first.crd, "CustomResourceDefinition", () => schedule()),
  object: createEditor($("ed-object"), first.object, "Object", () => schedule()),
  old: createEditor($("ed-old"), first.old, "Old object", () => schedule()),
};
exprInput.value = first.expression;

function state(): ShareState {
  return {
    crd: editors.crd.state.doc.toString(),
    object: editors.object.state.doc.toString(),
    old: editors.old.state.doc.toString(),
    expression: exprInput.value,
    fieldValidation: fvSelect.value as ShareState["fieldValidation"],
    tab,
  };
}

/** Sends the panes to the worker; at most one request is in flight, the latest text wins. */
function run(): void {
  if (inFlight) {
    pending = true;
    return;
  }
  inFlight = true;
  document.body.dataset["busy"] = "true";
  const s = state();
  const msg: WorkerRequest = {
    seq: ++seq,
    input: { crd: s.crd, object: s.object, oldObject: s.old, fieldValidation: s.fieldValidation, expression: s.expression },
  };
  worker.postMessage(msg);
  hashWritten = encodeState(s).then((h) => history.replaceState(null, "", `#${h}`));
}

worker.onmessage = (ev: MessageEvent<WorkerReply>) => {
  inFlight = false;
  const r = ev.data;
  if (r.crash !== undefined) {
    $("verdict-status").className = "status bad";
    $("verdict-status").textContent = `crdkit failed: ${r.crash}`;
  } else if (r.result) {
    renderResult(r.result, r.storedJson, r.elapsedMs);
    showDiagnostics(editors, r.result.diagnostics);
  }
  if (pending) {
    pending = false;
    run();
    return;
  }
  void hashWritten.then(() => {
    if (inFlight || pending || timer !== undefined) return;
    document.body.dataset["busy"] = "false";
    document.body.dataset["seq"] = String(r.seq);
  });
};

worker.onerror = (ev: ErrorEvent) => {
  inFlight = false;
  $("verdict-status").className = "status bad";
  $("verdict-status").textContent = `the validation worker failed to start or crashed: ${ev.message || "see the browser console"} (serve the page over http, e.g. crdkit serve → /ui/)`;
};

function selectTab(name: string): void {
  tab = name;
  for (const b of document.querySelectorAll<HTMLButtonElement>("[data-tab]")) b.setAttribute("aria-selected", String(b.dataset["tab"] === name));
  for (const p of document.querySelectorAll<HTMLElement>(".tab")) p.hidden = p.id !== `tab-${name}`;
}

function load(s: Partial<ShareState>): void {
  if (s.crd !== undefined) setText(editors.crd, s.crd);
  if (s.object !== undefined) setText(editors.object, s.object);
  if (s.old !== undefined) setText(editors.old, s.old);
  if (s.expression !== undefined) exprInput.value = s.expression;
  if (s.fieldValidation) fvSelect.value = s.fieldValidation;
  if (s.tab) selectTab(s.tab);
}

for (const e of EXAMPLES) exampleSelect.append(new Option(e.title, e.id));
exampleSelect.addEventListener("change", () => {
  const e = EXAMPLES.find((x) => x.id === exampleSelect.value);
  if (e) load({ crd: e.crd, object: e.object, old: e.old, expression: e.expression });
  schedule(0);
});
fvSelect.addEventListener("change", () => schedule(0));
exprInput.addEventListener("input", () => schedule());
for (const b of document.querySelectorAll<HTMLButtonElement>("[data-tab]")) {
  b.addEventListener("click", () => {
    selectTab(b.dataset["tab"] ?? "verdict");
    schedule(0);
  });
}
document.addEventListener("click", (ev) => {
  const li = (ev.target as HTMLElement).closest<HTMLElement>("li.msg[data-pane]");
  if (!li) return;
  const pane = li.dataset["pane"] as Pane;
  reveal(editors[pane], Number(li.dataset["line"]), Number(li.dataset["column"]));
});
$("share").addEventListener("click", () => {
  void navigator.clipboard?.writeText(location.href).catch(() => {});
  $("share").textContent = "Link copied";
  setTimeout(() => ($("share").textContent = "Copy link"), 1500);
});

void (async () => {
  const saved = await decodeState(location.hash);
  if (saved) {
    exampleSelect.value = "";
    load(saved);
  }
  selectTab(saved?.tab ?? "verdict");
  await loadServerCrds((crd) => {
    setText(editors.crd, crd);
    schedule(0);
  });
  schedule(0);
})();
