/**
 * When the page is served by `crdkit serve` (at `/ui/`), the CRDs of that server can be loaded into the
 * CRD pane. Read once, at load; elsewhere (a static copy of the page) the list stays hidden.
 */

/** Lists the server's CRDs into the `server-crd` select; `onPick` receives the chosen CRD as JSON text. */
export async function loadServerCrds(onPick: (crdText: string) => void): Promise<void> {
  if (location.protocol !== "http:" && location.protocol !== "https:") return;
  if (!/\/ui\/(index\.html)?$/.test(location.pathname)) return;
  let items: Record<string, unknown>[];
  try {
    const res = await fetch(new URL("../apis/apiextensions.k8s.io/v1/customresourcedefinitions", location.href), { headers: { Accept: "application/json" } });
    if (!res.ok) return;
    const list = (await res.json()) as { items?: Record<string, unknown>[] };
    items = Array.isArray(list.items) ? list.items : [];
  } catch {
    return;
  }
  const select = document.getElementById("server-crd") as HTMLSelectElement;
  const label = document.getElementById("server-crds") as HTMLElement;
  select.replaceChildren(new Option(items.length > 0 ? `${items.length} on this server…` : "none on this server", ""));
  items.forEach((crd, i) => {
    const md = crd["metadata"] as { name?: string } | undefined;
    select.append(new Option(md?.name ?? `#${i}`, String(i)));
  });
  label.hidden = false;
  select.addEventListener("change", () => {
    const crd = items[Number(select.value)];
    if (select.value === "" || !crd) return;
    // what a client would send to create it: no server-set metadata or status
    const { status: _status, ...rest } = crd;
    const md = { ...(crd["metadata"] as Record<string, unknown>) };
    for (const k of ["uid", "resourceVersion", "generation", "creationTimestamp", "managedFields"]) delete md[k];
    // Items of a typed list carry no apiVersion/kind (as the API server encodes them): add them back.
    onPick(JSON.stringify({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition", ...rest, metadata: md }, null, 2));
  });
}
