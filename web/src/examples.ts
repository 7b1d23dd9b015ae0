/** The examples offered by the playground: CRD, object, old object and a CEL expression each. */

export interface Example {
  id: string;
  title: string;
  crd: string;
  object: string;
  old: string;
  expression: string;
}

const CRONTAB_CRD = `# The CronTab CRD of the Kubernetes documentation
# ("Extend the Kubernetes API with CustomResourceDefinitions").
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec:
                type: string
                pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
                default: "5 0 * * *"
              image:
                type: string
              replicas:
                type: integer
                minimum: 1
                maximum: 10
                default: 1
`;

const CRONTAB = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "every minute"
  image: my-awesome-cron-image
  replicas: 15
`;

const TRANSITION_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: databases.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: databases, singular: database, kind: Database}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.replicas >= oldSelf.replicas"
              message: "replicas cannot be scaled down"
            properties:
              engine:
                type: string
                x-kubernetes-validations:
                - rule: "self == oldSelf"
                  message: "engine is immutable"
              replicas:
                type: integer
                minimum: 1
`;

const TRANSITION_OLD = `apiVersion: example.com/v1
kind: Database
metadata:
  name: orders
  namespace: default
spec:
  engine: postgres
  replicas: 3
`;

const TRANSITION_NEW = `apiVersion: example.com/v1
kind: Database
metadata:
  name: orders
  namespace: default
spec:
  engine: mysql
  replicas: 2
`;

const RATCHET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: webapps.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: webapps, singular: webapp, kind: WebApp}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              # tightened after objects were stored: old values that break it
              # are accepted as long as they are not changed (ratcheting)
              host:
                type: string
                maxLength: 10
              port:
                type: integer
                maximum: 1024
`;

const RATCHET_OLD = `apiVersion: example.com/v1
kind: WebApp
metadata:
  name: shop
  namespace: default
spec:
  host: shop.example.com
  port: 80
`;

const RATCHET_NEW = `apiVersion: example.com/v1
kind: WebApp
metadata:
  name: shop
  namespace: default
spec:
  host: shop.example.com   # unchanged: ratcheted
  port: 8080               # changed: validated
`;

const COST_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: policies.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: policies, singular: policy, kind: Policy}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              # no maxItems / maxLength: the estimated cost is unbounded
              names:
                type: array
                items:
                  type: string
                x-kubernetes-validations:
                - rule: "self.all(x, self.all(y, x == y || x != y))"
`;

const COST_OBJECT = `apiVersion: example.com/v1
kind: Policy
metadata:
  name: p
spec:
  names: [a, b, c]
`;

export const EXAMPLES: readonly Example[] = [
  { id: "crontab", title: "CronTab (Kubernetes docs)", crd: CRONTAB_CRD, object: CRONTAB, old: "", expression: "self.spec.replicas <= 10 && self.spec.cronSpec.matches('^[0-9*/ ]+$')" },
  { id: "transition", title: "Transition rules (oldSelf)", crd: TRANSITION_CRD, object: TRANSITION_NEW, old: TRANSITION_OLD, expression: "self.spec.replicas - oldSelf.spec.replicas" },
  { id: "ratcheting", title: "Ratcheting (unchanged invalid values)", crd: RATCHET_CRD, object: RATCHET_NEW, old: RATCHET_OLD, expression: "size(self.spec.host)" },
  { id: "cost", title: "CEL cost limit exceeded", crd: COST_CRD, object: COST_OBJECT, old: "", expression: "self.spec.names.all(x, self.spec.names.all(y, x == y || x != y))" },
];
