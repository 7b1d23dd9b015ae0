/**
 * The CronTab CRD of the Kubernetes documentation and its custom resources, as request bodies of the
 * server benches (bench/serve/etcd-vs-k8s.bench.ts, ab-cpu.bench.ts, phase-profile.ts).
 */

/** The CRD (`crontabs.stable.example.com`, namespaced, one version). */
export const CRONTAB_CRD = JSON.stringify({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "crontabs.stable.example.com" },
  spec: {
    group: "stable.example.com",
    scope: "Namespaced",
    names: { plural: "crontabs", singular: "crontab", kind: "CronTab", shortNames: ["ct"] },
    versions: [
      {
        name: "v1",
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: "object",
            properties: {
              spec: { type: "object", properties: { cronSpec: { type: "string" }, image: { type: "string" }, replicas: { type: "integer" } } },
            },
          },
        },
      },
    ],
  },
});

/**
 * CronTab `${prefix}-${i}` in namespace "default", which crdkit's NamespaceLifecycle admission knows (the
 * standalone real server has none).
 */
export const cronTab = (prefix: string, i: number): string =>
  JSON.stringify({
    apiVersion: "stable.example.com/v1",
    kind: "CronTab",
    metadata: { name: `${prefix}-${i}`, namespace: "default" },
    spec: { cronSpec: "* * * * */5", image: "my-awesome-cron-image", replicas: 1 },
  });
