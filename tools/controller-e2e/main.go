// controller-e2e: a controller written with controller-runtime (and client-go underneath: informers with
// their list/watch, the dynamic RESTMapper's discovery, typed apiextensions clients, scale, server-side apply)
// run against an API server, the way an operator's author runs one against envtest. It installs a CRD, starts a
// manager whose reconciler keeps a finalizer and the status of each Widget, drives the objects through
// create, update, scale, apply, patch, invalid writes, conflicts, a watch and deletion, and prints one JSON line
// per observation: {"step": …, "observed": …}. The observations hold no UIDs, resourceVersions or times, so the
// lines of two servers compare as text (test/interop/controller-runtime.test.ts: crdkit serve against the
// answers recorded from the real apiextensions-apiserver, `npm run golden:controller`). A step that waits for
// the controller fails the run after --wait; the run exits 1 with {"step":"error",…} on any unexpected failure.
//
//	controller-e2e --server URL [--token T] [--insecure] [--wait 30s]
//	controller-e2e --protobuf-fixtures
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/retry"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
)

const (
	group     = "e2e.example.com"
	namespace = "default"
	finalizer = "e2e.example.com/cleanup"
)

var (
	widgetGVK  = schema.GroupVersionKind{Group: group, Version: "v1", Kind: "Widget"}
	widgetGVR  = schema.GroupVersionResource{Group: group, Version: "v1", Resource: "widgets"}
	waitLimit  time.Duration
	stepsCount int
)

// observe prints one observation line.
func observe(step string, observed any) {
	stepsCount++
	b, err := json.Marshal(map[string]any{"step": step, "observed": observed})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
}

// fail ends the run: an unexpected failure (not an observation to compare).
func fail(step string, err error) {
	b, _ := json.Marshal(map[string]any{"step": "error", "observed": fmt.Sprintf("%s: %v", step, err)})
	fmt.Println(string(b))
	os.Exit(1)
}

// statusOf is what a client sees of a failed request: the reason, the code and the message.
func statusOf(err error) string {
	if err == nil {
		return "ok"
	}
	var s apierrors.APIStatus
	if errors.As(err, &s) {
		st := s.Status()
		return fmt.Sprintf("%d %s: %s", st.Code, st.Reason, st.Message)
	}
	return "error: " + err.Error()
}

func int64p(v int64) *int64       { return &v }
func float64p(v float64) *float64 { return &v }

func widgetCRD() *apiextensionsv1.CustomResourceDefinition {
	spec := apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"replicas": {Type: "integer", Minimum: float64p(0), Maximum: float64p(10), Default: &apiextensionsv1.JSON{Raw: []byte("1")}},
			"color":    {Type: "string", Enum: []apiextensionsv1.JSON{{Raw: []byte(`"red"`)}, {Raw: []byte(`"green"`)}, {Raw: []byte(`"blue"`)}}, Default: &apiextensionsv1.JSON{Raw: []byte(`"red"`)}},
			"note":     {Type: "string", MaxLength: int64p(20)},
		},
		XValidations: apiextensionsv1.ValidationRules{{Rule: "self.replicas <= 5 || self.color != 'red'", Message: "more than 5 red replicas"}},
	}
	status := apiextensionsv1.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiextensionsv1.JSONSchemaProps{
			"replicas":           {Type: "integer"},
			"observedGeneration": {Type: "integer"},
			"selector":           {Type: "string"},
		},
	}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: group,
			Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList", ShortNames: []string{"wg"}},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type:       "object",
					Properties: map[string]apiextensionsv1.JSONSchemaProps{"spec": spec, "status": status},
				}},
				Subresources: &apiextensionsv1.CustomResourceSubresources{
					Status: &apiextensionsv1.CustomResourceSubresourceStatus{},
					Scale:  &apiextensionsv1.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas", LabelSelectorPath: ptr(".status.selector")},
				},
				AdditionalPrinterColumns: []apiextensionsv1.CustomResourceColumnDefinition{{Name: "Replicas", Type: "integer", JSONPath: ".spec.replicas"}},
			}},
		},
	}
}

func ptr[T any](v T) *T { return &v }

func newWidget(name string, spec map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{"spec": spec}}
	u.SetGroupVersionKind(widgetGVK)
	u.SetNamespace(namespace)
	u.SetName(name)
	return u
}

// reconciler keeps a finalizer on every Widget, mirrors spec.replicas into its status, and lets a deleted
// Widget go by removing the finalizer.
type reconciler struct{ c client.Client }

func (r *reconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(widgetGVK)
	if err := r.c.Get(ctx, req.NamespacedName, u); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !u.GetDeletionTimestamp().IsZero() {
		if controllerutil.RemoveFinalizer(u, finalizer) {
			return ctrl.Result{}, r.c.Update(ctx, u)
		}
		return ctrl.Result{}, nil
	}
	if controllerutil.AddFinalizer(u, finalizer) {
		return ctrl.Result{}, r.c.Update(ctx, u)
	}
	replicas, _, _ := unstructured.NestedInt64(u.Object, "spec", "replicas")
	observed, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	if observed == u.GetGeneration() {
		return ctrl.Result{}, nil
	}
	_ = unstructured.SetNestedField(u.Object, replicas, "status", "replicas")
	_ = unstructured.SetNestedField(u.Object, u.GetGeneration(), "status", "observedGeneration")
	_ = unstructured.SetNestedField(u.Object, "app="+u.GetName(), "status", "selector")
	return ctrl.Result{}, r.c.Status().Update(ctx, u)
}

// waitFor polls cond (every 20 ms) until it holds or the run's wait limit passes.
func waitFor(ctx context.Context, step string, cond func(context.Context) (bool, error)) {
	if err := wait.PollUntilContextTimeout(ctx, 20*time.Millisecond, waitLimit, true, cond); err != nil {
		fail(step, err)
	}
}

// shape is the part of a Widget the observations compare: no UIDs, resourceVersions, times.
func shape(u *unstructured.Unstructured) map[string]any {
	managers := []string{}
	for _, m := range u.GetManagedFields() {
		fields := ""
		if m.FieldsV1 != nil {
			fields = string(m.FieldsV1.Raw)
		}
		managers = append(managers, fmt.Sprintf("%s/%s/%s %s %s", m.Manager, m.Operation, m.Subresource, m.APIVersion, fields))
	}
	sort.Strings(managers)
	return map[string]any{
		"name": u.GetName(), "generation": u.GetGeneration(), "finalizers": u.GetFinalizers(), "labels": u.GetLabels(),
		"spec": u.Object["spec"], "status": u.Object["status"], "managers": managers,
	}
}

func main() {
	server := flag.String("server", "", "the API server's URL")
	token := flag.String("token", "", "a bearer token")
	insecure := flag.Bool("insecure", false, "skip TLS verification")
	flag.DurationVar(&waitLimit, "wait", 30*time.Second, "how long a step waits for the controller")
	fixtures := flag.Bool("protobuf-fixtures", false, "print protobuf request bodies beside their JSON (fixtures.go) and exit")
	flag.Parse()
	if *fixtures {
		printFixtures()
		return
	}
	if *server == "" {
		fail("flags", errors.New("--server is required"))
	}
	log.SetLogger(zap.New(zap.WriteTo(os.Stderr)))
	cfg := &rest.Config{Host: *server, BearerToken: *token, TLSClientConfig: rest.TLSClientConfig{Insecure: *insecure}, QPS: 200, Burst: 400}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	// 1. The CRD, with the typed apiextensions client; Established seen through a watch.
	ext := apiextensionsclient.NewForConfigOrDie(cfg)
	crds := ext.ApiextensionsV1().CustomResourceDefinitions()
	created, err := crds.Create(ctx, widgetCRD(), metav1.CreateOptions{})
	if err != nil {
		fail("create CRD", err)
	}
	observe("create CRD", map[string]any{"name": created.Name, "conditions": len(created.Status.Conditions)})
	w, err := crds.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + created.Name, ResourceVersion: created.ResourceVersion})
	if err != nil {
		fail("watch CRD", err)
	}
	established := false
	for !established {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				fail("watch CRD", errors.New("the watch ended before Established"))
			}
			if crd, isCRD := ev.Object.(*apiextensionsv1.CustomResourceDefinition); isCRD {
				for _, c := range crd.Status.Conditions {
					if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
						established = true
						conds := []string{}
						for _, c := range crd.Status.Conditions {
							conds = append(conds, fmt.Sprintf("%s=%s (%s: %s)", c.Type, c.Status, c.Reason, c.Message))
						}
						observe("CRD established (watch)", map[string]any{"event": string(ev.Type), "conditions": conds, "acceptedNames": crd.Status.AcceptedNames, "storedVersions": crd.Status.StoredVersions})
					}
				}
			}
		case <-time.After(waitLimit):
			fail("watch CRD", errors.New("no Established condition"))
		}
	}
	w.Stop()

	// 2. The manager and its controller (informers list and watch Widgets through the dynamic RESTMapper).
	scheme := runtime.NewScheme()
	if err := autoscalingv1.AddToScheme(scheme); err != nil {
		fail("scheme", err)
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0"})
	if err != nil {
		fail("new manager", err)
	}
	forType := &unstructured.Unstructured{}
	forType.SetGroupVersionKind(widgetGVK)
	if err := ctrl.NewControllerManagedBy(mgr).Named("widget").For(forType).Complete(&reconciler{c: mgr.GetClient()}); err != nil {
		fail("new controller", err)
	}
	mgrDone := make(chan error, 1)
	mctx, stopManager := context.WithCancel(ctx)
	go func() { mgrDone <- mgr.Start(mctx) }()
	if !mgr.GetCache().WaitForCacheSync(ctx) {
		fail("cache sync", errors.New("the cache did not sync"))
	}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		fail("client", err)
	}
	cached := mgr.GetClient()
	key := types.NamespacedName{Namespace: namespace, Name: "w1"}
	get := func(ctx context.Context, cl client.Reader, k types.NamespacedName) (*unstructured.Unstructured, error) {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(widgetGVK)
		return u, cl.Get(ctx, k, u)
	}
	// waitGeneration waits until the cache shows the controller's status for the object's generation.
	// (labels: the cache must also show these labels, written meanwhile)
	waitGeneration := func(step string, k types.NamespacedName, generation int64, labels ...string) *unstructured.Unstructured {
		var last *unstructured.Unstructured
		waitFor(ctx, step, func(ctx context.Context) (bool, error) {
			u, err := get(ctx, cached, k)
			if err != nil {
				return false, nil
			}
			last = u
			for _, l := range labels {
				if _, ok := u.GetLabels()[l]; !ok {
					return false, nil
				}
			}
			observed, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
			return u.GetGeneration() == generation && observed == generation, nil
		})
		return last
	}

	// 3. Create: defaults applied, the controller adds its finalizer and writes the status.
	err = c.Create(ctx, newWidget("w1", map[string]any{"replicas": int64(2)}))
	observe("create w1", statusOf(err))
	u := waitGeneration("w1 reconciled", key, 1) // neither the finalizer's update nor the status write changes the generation
	observe("w1 reconciled (cache)", shape(u))

	// 4. Invalid writes: the CEL rule, a maximum, an enum, a field manager's conflict.
	observe("create red 7 (CEL rule)", statusOf(c.Create(ctx, newWidget("bad1", map[string]any{"replicas": int64(7)}))))
	observe("create 11 (maximum)", statusOf(c.Create(ctx, newWidget("bad2", map[string]any{"replicas": int64(11), "color": "blue"}))))
	observe("create purple (enum), long note", statusOf(c.Create(ctx, newWidget("bad3", map[string]any{"color": "purple", "note": strings.Repeat("x", 21)}))))
	observe("create unknown field (strict)", statusOf(c.Create(ctx, newWidget("bad4", map[string]any{"size": int64(1)}), client.FieldValidation("Strict"))))
	stale, _ := get(ctx, c, key)
	stale.SetResourceVersion("1")
	_ = unstructured.SetNestedField(stale.Object, int64(3), "spec", "replicas")
	observe("update with a stale resourceVersion", statusOf(c.Update(ctx, stale)))

	// 5. Update the spec: a new generation, reconciled.
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		u, err := get(ctx, c, key)
		if err != nil {
			return err
		}
		_ = unstructured.SetNestedField(u.Object, int64(3), "spec", "replicas")
		return c.Update(ctx, u)
	})
	observe("update w1 replicas 3", statusOf(err))
	observe("w1 reconciled again (cache)", shape(waitGeneration("w1 generation 2", key, 2)))

	// 6. The scale subresource: read as an unstructured Scale, written as controller-runtime writes a typed one
	// (its unstructured client sends the Scale without apiVersion and kind).
	scaleU := &unstructured.Unstructured{}
	scaleU.SetGroupVersionKind(autoscalingv1.SchemeGroupVersion.WithKind("Scale"))
	err = c.SubResource("scale").Get(ctx, newWidget("w1", nil), scaleU)
	specReplicas, _, _ := unstructured.NestedInt64(scaleU.Object, "spec", "replicas")
	statusReplicas, _, _ := unstructured.NestedInt64(scaleU.Object, "status", "replicas")
	selector, _, _ := unstructured.NestedString(scaleU.Object, "status", "selector")
	observe("get scale", map[string]any{"err": statusOf(err), "spec": specReplicas, "status": statusReplicas, "selector": selector, "kind": scaleU.GetKind(), "apiVersion": scaleU.GetAPIVersion()})
	scale := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: namespace}, Spec: autoscalingv1.ScaleSpec{Replicas: 4}}
	err = c.SubResource("scale").Update(ctx, newWidget("w1", nil), client.WithSubResourceBody(scale))
	observe("update scale to 4", map[string]any{"err": statusOf(err), "spec": scale.Spec.Replicas})
	observe("w1 after scale (cache)", shape(waitGeneration("w1 scaled", key, 3)))
	scale.Spec.Replicas = 11
	scale.ResourceVersion = ""
	observe("scale to 11", statusOf(c.SubResource("scale").Update(ctx, newWidget("w1", nil), client.WithSubResourceBody(scale))))

	// 7. Server-side apply by another manager, then a conflict with it, then a merge patch of a label.
	applied := newWidget("w1", map[string]any{"replicas": int64(1), "color": "blue"})
	err = c.Apply(ctx, client.ApplyConfigurationFromUnstructured(applied), client.FieldOwner("e2e-apply"), client.ForceOwnership)
	observe("apply replicas 1 blue (force)", statusOf(err))
	conflicting := newWidget("w1", map[string]any{"replicas": int64(2)})
	observe("apply replicas 2 as another manager", statusOf(c.Apply(ctx, client.ApplyConfigurationFromUnstructured(conflicting), client.FieldOwner("e2e-other"))))
	patch := client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"labels":{"tier":"front"}}}`))
	observe("merge patch a label", statusOf(c.Patch(ctx, newWidget("w1", nil), patch)))
	observe("strategic merge patch", statusOf(c.Patch(ctx, newWidget("w1", nil), client.RawPatch(types.StrategicMergePatchType, []byte(`{"spec":{"replicas":2}}`)))))
	observe("w1 after apply and patch (cache)", shape(waitGeneration("w1 applied", key, 4, "tier")))

	// 8. Lists: the cache with a label selector, the server in pages of one.
	for _, n := range []string{"w2", "w3"} {
		if err := c.Create(ctx, newWidget(n, map[string]any{"color": "green"})); err != nil {
			fail("create "+n, err)
		}
	}
	list := &unstructured.UnstructuredList{}
	list.SetGroupVersionKind(widgetGVK.GroupVersion().WithKind("WidgetList"))
	waitFor(ctx, "cache lists 3", func(ctx context.Context) (bool, error) {
		return cached.List(ctx, list, client.InNamespace(namespace)) == nil && len(list.Items) == 3, nil
	})
	err = cached.List(ctx, list, client.InNamespace(namespace), client.MatchingLabels{"tier": "front"})
	names := []string{}
	for _, i := range list.Items {
		names = append(names, i.GetName())
	}
	observe("cache list tier=front", map[string]any{"err": statusOf(err), "names": names})
	pages := []string{}
	cont := ""
	for {
		page := &unstructured.UnstructuredList{}
		page.SetGroupVersionKind(widgetGVK.GroupVersion().WithKind("WidgetList"))
		if err := c.List(ctx, page, client.InNamespace(namespace), client.Limit(1), client.Continue(cont)); err != nil {
			fail("paged list", err)
		}
		for _, i := range page.Items {
			pages = append(pages, fmt.Sprintf("%s (remaining %v)", i.GetName(), page.GetRemainingItemCount() != nil))
		}
		if cont = page.GetContinue(); cont == "" {
			break
		}
	}
	observe("list in pages of 1", pages)

	// 9. A dynamic client's watch of one object through its life.
	dyn := dynamic.NewForConfigOrDie(cfg)
	widgets := dyn.Resource(widgetGVR).Namespace(namespace)
	wl, err := widgets.List(ctx, metav1.ListOptions{Limit: 1})
	if err != nil {
		fail("list for watch", err)
	}
	ww, err := widgets.Watch(ctx, metav1.ListOptions{ResourceVersion: wl.GetResourceVersion(), FieldSelector: "metadata.name=w4"})
	if err != nil {
		fail("watch w4", err)
	}
	if err := c.Create(ctx, newWidget("w4", map[string]any{"replicas": int64(5)})); err != nil {
		fail("create w4", err)
	}
	_ = waitGeneration("w4 reconciled", types.NamespacedName{Namespace: namespace, Name: "w4"}, 1)
	if err := c.Delete(ctx, newWidget("w4", nil)); err != nil {
		fail("delete w4", err)
	}
	events := []string{}
	for done := false; !done; {
		select {
		case ev, ok := <-ww.ResultChan():
			if !ok {
				fail("watch w4", errors.New("the watch ended early"))
			}
			o, _ := ev.Object.(*unstructured.Unstructured)
			desc := string(ev.Type)
			if o != nil {
				gen, _, _ := unstructured.NestedInt64(o.Object, "status", "observedGeneration")
				desc = fmt.Sprintf("%s finalizers=%v observedGeneration=%d deleting=%v", ev.Type, o.GetFinalizers(), gen, o.GetDeletionTimestamp() != nil)
			}
			events = append(events, desc)
			done = ev.Type == watch.Deleted
		case <-time.After(waitLimit):
			fail("watch w4", fmt.Errorf("no DELETED event; saw %v", events))
		}
	}
	ww.Stop()
	observe("watch w4 from create to delete", events)

	// 10. Deletion of the rest through the finalizer, and the CRD.
	for _, n := range []string{"w1", "w2", "w3"} {
		if err := c.Delete(ctx, newWidget(n, nil)); err != nil {
			fail("delete "+n, err)
		}
	}
	waitFor(ctx, "widgets gone", func(ctx context.Context) (bool, error) {
		l, err := widgets.List(ctx, metav1.ListOptions{})
		return err == nil && len(l.Items) == 0, nil
	})
	_, err = get(ctx, c, key)
	observe("get w1 after delete", statusOf(err))
	stopManager()
	if err := <-mgrDone; err != nil {
		fail("manager", err)
	}
	observe("delete CRD", statusOf(crds.Delete(ctx, created.Name, metav1.DeleteOptions{})))
	waitFor(ctx, "CRD gone", func(ctx context.Context) (bool, error) {
		_, err := crds.Get(ctx, created.Name, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	_, err = widgets.List(ctx, metav1.ListOptions{})
	observe("list widgets after the CRD is gone", statusOf(err))
	observe("done", stepsCount)
}
