/**
 * The built-in schema provider on the shipped bundle: lookups per release, and objects of built-in kinds
 * through the CRD pipeline with the published schemas (messages as Kubernetes / kubectl-validate print them).
 */
import * as assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadBuiltinSchemas } from "../cli/builtin-loader.js";
import { CrdkitError } from "../errors/crdkit-error.js";
import { errorString } from "../errors/field-error.js";
import { decodeDocuments } from "../io/decode.js";
import type { JsonObject } from "../value/json-value.js";
import { BuiltinKind } from "./builtin-kind.js";
import { BuiltinUnavailable } from "./builtin-schemas.js";

const builtins = loadBuiltinSchemas();

function kindOf(apiVersion: string, kind: string, release?: string): BuiltinKind {
  const k = builtins.lookup(apiVersion, kind, release);
  assert.ok(k instanceof BuiltinKind, `${apiVersion} ${kind} is a built-in kind`);
  return k;
}

function create(yaml: string, release?: string) {
  const doc = decodeDocuments(yaml)[0]!;
  const obj = doc.value as JsonObject;
  const r = kindOf(obj["apiVersion"] as string, obj["kind"] as string, release).create(obj, {
    fieldValidation: "Strict",
    strictDecodingErrors: doc.strictErrors,
  });
  return { ...r, texts: r.errors.map(errorString) };
}

describe("BuiltinSchemas lookups", () => {
  it("has releases 1.27 … 1.37, the newest by default", () => {
    assert.deepEqual(builtins.releases, ["1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "1.37"]);
    assert.equal(builtins.newest, "1.37");
    assert.match(builtins.moduleVersion("1.37") ?? "", /^v1\.37\.\d+$/);
  });
  it("knows the common kinds in every release, with their scope", () => {
    for (const release of builtins.releases) {
      for (const [av, k, namespaced] of [
        ["v1", "ConfigMap", true],
        ["v1", "Namespace", false],
        ["apps/v1", "Deployment", true],
        ["networking.k8s.io/v1", "Ingress", true],
        ["rbac.authorization.k8s.io/v1", "ClusterRole", false],
        ["batch/v1", "CronJob", true],
      ] as const) {
        assert.equal(kindOf(av, k, release).namespaced, namespaced, `${release} ${av} ${k}`);
      }
    }
  });
  it("follows the release: ServiceCIDR is networking.k8s.io/v1 from 1.33", () => {
    assert.equal(builtins.lookup("networking.k8s.io/v1", "ServiceCIDR", "1.32"), undefined);
    assert.ok(builtins.lookup("networking.k8s.io/v1", "ServiceCIDR", "1.33") instanceof BuiltinKind);
  });
  it("has no list kinds, no lower-case kinds and no CRD groups", () => {
    assert.equal(builtins.lookup("apps/v1", "DeploymentList"), undefined);
    assert.equal(builtins.lookup("v1", "configmap"), undefined);
    assert.equal(builtins.lookup("cert-manager.io/v1", "Certificate"), undefined);
  });
  it("reports the recursive CustomResourceDefinition schema as unavailable", () => {
    const k = builtins.lookup("apiextensions.k8s.io/v1", "CustomResourceDefinition");
    assert.ok(k instanceof BuiltinUnavailable);
    assert.equal(k.reason, "schema of io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps is recursive");
  });
  it("refuses a release it does not have", () => {
    assert.throws(
      () => builtins.lookup("v1", "Pod", "1.26"),
      (e: unknown) => e instanceof CrdkitError && e.code === "unknown-kubernetes-version" && /1\.27, 1\.28/.test(e.message),
    );
  });
});

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, ports: [{containerPort: 80}]}]
`;

describe("built-in kinds through the pipeline", () => {
  it("a valid Deployment is defaulted from the schema's defaults", () => {
    const r = create(DEPLOYMENT);
    assert.deepEqual(r.texts, []);
    const spec = (r.object!["spec"] as JsonObject)["template"] as JsonObject;
    const c = ((spec["spec"] as JsonObject)["containers"] as JsonObject[])[0]!;
    assert.deepEqual(c["ports"], [{ containerPort: 80, protocol: "TCP" }]);
    assert.equal((r.object!["metadata"] as JsonObject)["namespace"], "default");
  });
  it("unknown fields fail the request in Strict mode with the API server's text", () => {
    const r = create(DEPLOYMENT.replace("image: nginx,", "image: nginx, imagePullPolcy: Always,"));
    assert.equal(
      r.decodeError,
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolcy"',
    );
    assert.deepEqual(r.unknownFields, ["spec.template.spec.containers[0].imagePullPolcy"]);
  });
  it("core kinds: validated as kubectl-validate does, apiVersion v1 kept on the stored object", () => {
    const r = create("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  - not a map\n");
    assert.deepEqual(r.texts, ['data: Invalid value: "array": data in body must be of type object: "array"']);
    assert.equal(r.object!["apiVersion"], "v1");
  });
  it("types, required fields, int-or-string and quantities", () => {
    assert.deepEqual(create(DEPLOYMENT.replace("spec:\n  selector", 'spec:\n  replicas: "3"\n  selector')).texts, [
      'spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
    ]);
    assert.deepEqual(create("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports: [{port: 80, targetPort: true}]\n").texts, [
      'spec.ports[0].targetPort: Invalid value: "boolean": spec.ports[0].targetPort in body must be of type integer,string: "boolean"',
    ]);
    // required fields: the schemas' defaults ({} for structs, "" for strings) are applied first
    assert.deepEqual(create("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n").texts, ["spec.containers: Required value"]);
    const ingress = "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i}\nspec: {rules: [{http: {paths: [{path: /, backend: {service: {name: x}}}]}}]}\n";
    assert.deepEqual(create(ingress).texts, ["spec.rules[0].http.paths[0].pathType: Required value"]);
    assert.deepEqual(create("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b}\nsubjects: [{kind: User}]\n").texts, []);
    assert.deepEqual(
      create("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: b, resources: {requests: {cpu: true}}}]\n").texts,
      [
        '<nil>: Invalid value: "": "spec.containers[0].resources.requests.cpu" must validate one and only one schema (oneOf). Found none valid',
        'spec.containers[0].resources.requests.cpu: Invalid value: "boolean": spec.containers[0].resources.requests.cpu in body must be of type string: "boolean"',
      ],
    );
  });
  it("list-map keys, with the schema's defaults applied first", () => {
    const pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: a, image: b, ports: [{containerPort: 88, protocol: TCP}, {containerPort: 88}]}]\n";
    assert.deepEqual(create(pod).texts, ['spec.containers[0].ports[1]: Duplicate value: {"containerPort":88,"protocol":"TCP"}']);
  });
  it("byte strings may be empty (kubectl-validate's AllowEmptyByteFormat), must be base64 otherwise", () => {
    assert.deepEqual(create('apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: ""}\n').texts, []);
    assert.deepEqual(create('apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {b: "not base64!"}\n').texts, [
      '<nil>: Invalid value: "": "data.b" must validate at least one schema (anyOf)',
      'data.b: Invalid value: "not base64!": data.b in body must be of type byte: "not base64!"',
      '<nil>: Invalid value: "": "data.b" must validate all the schemas (allOf). None validated',
    ]);
  });
  it("null for types with custom null handling (Time, Quantity) is accepted", () => {
    const r = create("apiVersion: v1\nkind: Pod\nmetadata: {name: p, creationTimestamp: null}\nspec:\n  containers: [{name: a, image: b, resources: {limits: {cpu: null}}}]\n");
    assert.deepEqual(r.texts, []);
  });
  it("RawExtension content is kept, as the API server keeps it (crdkit's PreserveFreeFormObjects)", () => {
    const r = create("apiVersion: apps/v1\nkind: ControllerRevision\nmetadata: {name: r}\nrevision: 1\ndata: {spec: {a: 1}}\n");
    assert.deepEqual([r.decodeError, r.texts], [undefined, []]);
    assert.deepEqual(r.object!["data"], { spec: { a: 1 } });
  });
  it("metadata: names and labels as for every object", () => {
    assert.deepEqual(create("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x.com^2}\n").texts, [
      `metadata.name: Invalid value: "x.com^2": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    ]);
  });
  it("cluster-scoped kinds lose a namespace, as on the API server", () => {
    const r = create("apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: r, namespace: foo}\n");
    assert.deepEqual(r.texts, []);
    assert.equal((r.object!["metadata"] as JsonObject)["namespace"], undefined);
  });
  it("the hand-written Go validation is not run (selector/template labels mismatch passes)", () => {
    assert.deepEqual(create(DEPLOYMENT.replace("labels: {app: web}", "labels: {app: other}")).texts, []);
  });
});
