/** The generated CRDs the serve benches install one by one, each of its own group, and the check that one is served. */

/** CRD number `i`: `things<i>.bench<i>.example.com`, one served version with a small schema. */
export function installCrd(i: number): Record<string, unknown> {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: { name: `things${i}.bench${i}.example.com` },
    spec: {
      group: `bench${i}.example.com`,
      scope: "Namespaced",
      names: { plural: `things${i}`, kind: `Thing${i}` },
      versions: [
        {
          name: "v1",
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: "object", properties: { spec: { type: "object", properties: { size: { type: "integer", minimum: 0 }, name: { type: "string", maxLength: 64 } } } } } },
        },
      ],
    },
  };
}

/** Whether a CRD's JSON (a GET's answer) has the condition Established=True; false for anything else. */
export function established(text: string): boolean {
  try {
    const conds = (JSON.parse(text) as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions ?? [];
    return conds.some((c) => c.type === "Established" && c.status === "True");
  } catch {
    return false;
  }
}
