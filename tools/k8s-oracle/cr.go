package main

import (
	"context"
	"fmt"
	"sort"
	"sync"

	apiextensionshelpers "k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
)

// crdServing holds what getOrCreateServingInfoFor builds for one CRD (the parts the write path uses).
type crdServing struct {
	crd               *apiextensionsv1.CustomResourceDefinition
	structuralSchemas map[string]*structuralschema.Structural
	strategies        map[string]rest.RESTUpdateStrategy
	createStrategies  map[string]rest.RESTCreateStrategy
	statusStrategies  map[string]rest.RESTUpdateStrategy
	hasStatus         map[string]bool
	typer             runtime.ObjectTyper
}

type unstructuredCreator struct{}

func (c unstructuredCreator) New(kind schema.GroupVersionKind) (runtime.Object, error) {
	ret := &unstructured.Unstructured{}
	ret.SetGroupVersionKind(kind)
	return ret, nil
}

// buildServing follows getOrCreateServingInfoFor: structural schemas (deep copy + PruneDefaults),
// schema validators from the internal version schema, status validator from properties[status],
// scale spec, and customresource.NewStrategy per served/stored version.
func buildServing(crd *apiextensionsv1.CustomResourceDefinition) (*crdServing, error) {
	s := &crdServing{
		crd:               crd,
		structuralSchemas: map[string]*structuralschema.Structural{},
		strategies:        map[string]rest.RESTUpdateStrategy{},
		createStrategies:  map[string]rest.RESTCreateStrategy{},
		statusStrategies:  map[string]rest.RESTUpdateStrategy{},
		hasStatus:         map[string]bool{},
	}
	for _, v := range crd.Spec.Versions {
		val, err := apiextensionshelpers.GetSchemaForVersion(crd, v.Name)
		if err != nil {
			return nil, err
		}
		if val == nil {
			continue
		}
		internalValidation := &apiextensionsinternal.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internalValidation, nil); err != nil {
			return nil, err
		}
		ss, err := structuralschema.NewStructural(internalValidation.OpenAPIV3Schema)
		if !crd.Spec.PreserveUnknownFields && err != nil {
			return nil, fmt.Errorf("the server could not properly serve the CR schema: %v", err)
		}
		if !crd.Spec.PreserveUnknownFields {
			ss = ss.DeepCopy()
			if err := structuraldefaulting.PruneDefaults(ss); err != nil {
				return nil, fmt.Errorf("the server could not properly serve the CR schema: %v", err)
			}
		}
		s.structuralSchemas[v.Name] = ss
	}
	parameterScheme := runtime.NewScheme()
	for _, v := range crd.Spec.Versions {
		if !v.Storage && !v.Served {
			continue
		}
		kind := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Status.AcceptedNames.Kind}
		typer := apiserver.UnstructuredObjectTyper{Delegate: parameterScheme, UnstructuredTyper: crdserverscheme.NewUnstructuredObjectTyper()}
		s.typer = typer
		validationSchema, err := apiextensionshelpers.GetSchemaForVersion(crd, v.Name)
		if err != nil {
			return nil, err
		}
		var internalSchemaProps *apiextensionsinternal.JSONSchemaProps
		var internalValidationSchema *apiextensionsinternal.CustomResourceValidation
		if validationSchema != nil {
			internalValidationSchema = &apiextensionsinternal.CustomResourceValidation{}
			if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(validationSchema, internalValidationSchema, nil); err != nil {
				return nil, err
			}
			internalSchemaProps = internalValidationSchema.OpenAPIV3Schema
		}
		validator, _, err := apiservervalidation.NewSchemaValidator(internalSchemaProps)
		if err != nil {
			return nil, err
		}
		var statusSpec *apiextensionsinternal.CustomResourceSubresourceStatus
		var statusValidator apiservervalidation.SchemaValidator
		subresources, err := apiextensionshelpers.GetSubresourcesForVersion(crd, v.Name)
		if err != nil {
			return nil, err
		}
		if subresources != nil && subresources.Status != nil {
			statusSpec = &apiextensionsinternal.CustomResourceSubresourceStatus{}
			if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceStatus_To_apiextensions_CustomResourceSubresourceStatus(subresources.Status, statusSpec, nil); err != nil {
				return nil, err
			}
			if internalValidationSchema != nil && internalValidationSchema.OpenAPIV3Schema != nil && internalValidationSchema.OpenAPIV3Schema.Properties != nil {
				if statusSchema, ok := internalValidationSchema.OpenAPIV3Schema.Properties["status"]; ok {
					statusValidator, _, err = apiservervalidation.NewSchemaValidator(&statusSchema)
					if err != nil {
						return nil, err
					}
				}
			}
		}
		var scaleSpec *apiextensionsinternal.CustomResourceSubresourceScale
		if subresources != nil && subresources.Scale != nil {
			scaleSpec = &apiextensionsinternal.CustomResourceSubresourceScale{}
			if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(subresources.Scale, scaleSpec, nil); err != nil {
				return nil, err
			}
		}
		st := customresource.NewStrategy(typer, crd.Spec.Scope == apiextensionsv1.NamespaceScoped, kind, validator, statusValidator, s.structuralSchemas[v.Name], statusSpec, scaleSpec, v.SelectableFields)
		s.strategies[v.Name] = st
		s.createStrategies[v.Name] = st
		s.statusStrategies[v.Name] = customresource.NewStatusStrategy(st)
		s.hasStatus[v.Name] = statusSpec != nil
	}
	return s, nil
}

// warningRecorder collects warnings like the apiserver's recorder: identical texts are kept once.
type warningRecorder struct {
	mu   sync.Mutex
	seen map[string]bool
	list []string
}

func (r *warningRecorder) AddWarning(agent, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if r.seen[text] {
		return
	}
	r.seen[text] = true
	r.list = append(r.list, text)
}

// decodeRequest runs the request decoder of the CR handler: the JSON (strict) serializer wrapped by
// the schema-coercing decoder, inside a versioning codec that defaults with the structural schema.
// Returns the object, its gvk, the unknown-field paths seen, and a decode error.
func (s *crdServing) decodeRequest(data []byte, version string, strict bool, storage bool) (runtime.Object, *schema.GroupVersionKind, []string, error) {
	kind := schema.GroupVersionKind{Group: s.crd.Spec.Group, Version: version, Kind: s.crd.Status.AcceptedNames.Kind}
	typer := apiserver.UnstructuredObjectTyper{Delegate: runtime.NewScheme(), UnstructuredTyper: crdserverscheme.NewUnstructuredObjectTyper()}
	ser := json.NewSerializerWithOptions(json.DefaultMetaFactory, unstructuredCreator{}, typer, json.SerializerOptions{Strict: strict})
	var unknown []string
	d := coercingDecoder{delegate: ser, lastUnknown: &unknown, validator: schemaCoercer{
		structuralSchemas:       s.structuralSchemas,
		structuralSchemaGK:      kind.GroupKind(),
		preserveUnknownFields:   s.crd.Spec.PreserveUnknownFields,
		returnUnknownFieldPaths: strict,
		dropInvalidMetadata:     storage,
		repairGeneration:        storage,
	}}
	codec := versioning.NewCodec(nil, d, runtime.UnsafeObjectConvertor(apiserver.Scheme), apiserver.Scheme, apiserver.Scheme,
		structuralDefaulter{delegate: runtime.NewScheme(), structuralSchemas: s.structuralSchemas, structuralSchemaGK: kind.GroupKind()},
		nil, kind.GroupVersion(), "unstructuredNegotiatedSerializer")
	original := &unstructured.Unstructured{}
	original.SetGroupVersionKind(kind)
	obj, gvk, err := codec.Decode(data, &kind, original)
	return obj, gvk, unknown, err
}

// transformDecodeError reproduces handlers.transformDecodeError (unexported).
func transformDecodeError(typer runtime.ObjectTyper, baseErr error, into runtime.Object, gvk *schema.GroupVersionKind, body []byte) error {
	objGVKs, _, err := typer.ObjectKinds(into)
	if err != nil {
		return apierrors.NewBadRequest(err.Error())
	}
	objGVK := objGVKs[0]
	if gvk != nil && len(gvk.Kind) > 0 {
		return apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, objGVK.Kind, baseErr))
	}
	summary := summarizeData(body, 30)
	return apierrors.NewBadRequest(fmt.Sprintf("the object provided is unrecognized (must be of type %s): %v (%s)", objGVK.Kind, baseErr, summary))
}

func summarizeData(data []byte, maxLength int) string {
	switch {
	case len(data) == 0:
		return "<empty>"
	case data[0] == '{':
		if len(data) > maxLength {
			return string(data[:maxLength]) + " ..."
		}
		return string(data)
	default:
		if len(data) > maxLength {
			return fmt.Sprintf("%x ...", data[:maxLength])
		}
		return fmt.Sprintf("%x", data)
	}
}

// requestDecode is the decode step of handlers.CreateResource / UpdateResource: Strict and Warn use the
// strict serializer; in Warn mode strict errors become warnings, otherwise a 400.
func (s *crdServing) requestDecode(body []byte, version, mode string, rec *warningRecorder) (*unstructured.Unstructured, []string, error) {
	strict := mode == metav1.FieldValidationWarn || mode == metav1.FieldValidationStrict
	obj, gvk, unknown, err := s.decodeRequest(body, version, strict, false)
	kind := schema.GroupVersionKind{Group: s.crd.Spec.Group, Version: version, Kind: s.crd.Status.AcceptedNames.Kind}
	if err != nil {
		strictError, isStrictError := runtime.AsStrictDecodingError(err)
		switch {
		case isStrictError && obj != nil && mode == metav1.FieldValidationWarn:
			for _, e := range strictError.Errors() {
				rec.AddWarning("", e.Error())
			}
		default:
			original := &unstructured.Unstructured{}
			original.SetGroupVersionKind(kind)
			return nil, unknown, transformDecodeError(s.typer, err, original, gvk, body)
		}
	}
	if gvk.GroupVersion() != kind.GroupVersion() {
		return nil, unknown, apierrors.NewBadRequest(fmt.Sprintf("the API version in the data (%s) does not match the expected API version (%v)", gvk.GroupVersion().String(), kind.GroupVersion().String()))
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, unknown, fmt.Errorf("decoded %T", obj)
	}
	return u, unknown, nil
}

// storageDecode decodes an old object as the storage codec would (drop invalid metadata, repair generation, default).
func (s *crdServing) storageDecode(body []byte, version string) (*unstructured.Unstructured, error) {
	obj, _, _, err := s.decodeRequest(body, version, false, true)
	if err != nil {
		return nil, err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("decoded %T", obj)
	}
	return u, nil
}

func sortedCopy(in []string) []interface{} {
	c := append([]string{}, in...)
	sort.Strings(c)
	return nonNilStrings(c)
}

func requestNamespace(s *crdServing, u *unstructured.Unstructured, explicit string) string {
	if s.crd.Spec.Scope != apiextensionsv1.NamespaceScoped {
		return ""
	}
	if explicit != "" {
		return explicit
	}
	if u != nil && u.GetNamespace() != "" {
		return u.GetNamespace()
	}
	return "default"
}

// crWrite runs a create, update or status update.
func crWrite(s *crdServing, c CaseInput, version string) *ordered {
	res := obj()
	mode := c.FieldValidation
	rec := &warningRecorder{}
	var old *unstructured.Unstructured
	if c.Operation == "update" || c.Operation == "status" {
		ob := withResourceVersion(body(c.OldObject, c.OldObjectJSON), nil)
		if ob == nil {
			res.set("setupError", "update cases need oldObject")
			return res
		}
		o, err := s.storageDecode(ob, version)
		if err != nil {
			res.set("setupError", "old object: "+err.Error())
			return res
		}
		old = o
		res.set("oldObject", old.Object)
	}
	newBody := body(c.Object, c.ObjectJSON)
	if old != nil {
		newBody = withResourceVersion(newBody, body(c.OldObject, c.OldObjectJSON))
	}
	u, unknown, err := s.requestDecode(newBody, version, mode, rec)
	res.set("unknownFields", sortedCopy(unknown))
	if err != nil {
		res.set("code", statusCode(err))
		res.set("decodeError", err.Error())
		res.set("errors", []interface{}{})
		res.set("warnings", nonNilStrings(rec.list))
		res.set("object", nil)
		return res
	}
	ctx := warning.WithWarningRecorder(context.Background(), rec)
	// the request URL: for updates it names the stored object
	ns := requestNamespace(s, u, c.Namespace)
	if old != nil {
		ns = requestNamespace(s, old, c.Namespace)
	}
	ctx = genericapirequest.WithNamespace(ctx, ns)
	kind := schema.GroupVersionKind{Group: s.crd.Spec.Group, Version: version, Kind: s.crd.Status.AcceptedNames.Kind}

	var vErr error
	switch c.Operation {
	case "create":
		vErr = beforeCreate(s.createStrategies[version], ctx, u, kind, dedupOwnerReferences)
	case "update":
		vErr = checkURL(u, old, ns)
		if vErr == nil {
			dedupOwnerReferences(ctx, u)
			vErr = beforeUpdate(s.strategies[version], ctx, u, old, kind)
		}
	case "status":
		if !s.hasStatus[version] {
			res.set("setupError", "the CRD has no status subresource for version "+version+" (404)")
			return res
		}
		vErr = checkURL(u, old, ns)
		if vErr == nil {
			dedupOwnerReferences(ctx, u)
			vErr = beforeUpdate(s.statusStrategies[version], ctx, u, old, kind)
		}
	}
	if vErr != nil {
		res.set("code", statusCode(vErr))
		if ve, ok := vErr.(*validationError); ok {
			res.set("errors", renderErrors(ve.errs))
			res.set("statusMessage", ve.status.Error())
		} else {
			// a 400 (namespace / name checks): reported like the decode errors
			res.set("errors", []interface{}{})
			if statusCode(vErr) == 400 {
				res.set("decodeError", vErr.Error())
			} else {
				res.set("statusMessage", vErr.Error())
			}
		}
		res.set("warnings", nonNilStrings(rec.list))
		res.set("object", nil)
		if _, ok := vErr.(*validationError); ok {
			// the object as it was validated (decoded, defaulted, prepared); Kubernetes stores nothing
			res.set("validatedObject", u.DeepCopy().Object)
		}
		return res
	}
	res.set("code", map[bool]int{true: 201, false: 200}[c.Operation == "create"])
	res.set("errors", []interface{}{})
	res.set("warnings", nonNilStrings(rec.list))
	stored := u.DeepCopy().Object
	res.set("object", stored)
	return res
}

func statusCode(err error) int {
	if st, ok := err.(apierrors.APIStatus); ok {
		return int(st.Status().Code)
	}
	if ve, ok := err.(*validationError); ok {
		return int(ve.status.ErrStatus.Code)
	}
	return 500
}

// checkURL follows the update handler for a PUT to the stored object's URL: the namespace check
// (rest.EnsureObjectNamespaceMatchesRequestNamespace) and handlers.checkName (unexported, reproduced).
func checkURL(u, old *unstructured.Unstructured, ns string) error {
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(ns, u); err != nil {
		return err
	}
	if u.GetName() != old.GetName() {
		return apierrors.NewBadRequest(fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", u.GetName(), old.GetName()))
	}
	if len(ns) > 0 && len(u.GetNamespace()) > 0 && u.GetNamespace() != ns {
		return apierrors.NewBadRequest(fmt.Sprintf("the namespace of the object (%s) does not match the namespace on the request (%s)", u.GetNamespace(), ns))
	}
	return nil
}
