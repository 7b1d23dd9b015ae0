package main

import (
	"context"
	"fmt"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	crdregistry "k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

// decodeInternalCRD decodes a v1 CRD body the way the API server's codec does: v1 defaulting, then
// conversion to the internal type.
func decodeInternalCRD(data []byte) (*apiextensionsinternal.CustomResourceDefinition, error) {
	dec := apiserver.Codecs.UniversalDecoder(apiextensionsinternal.SchemeGroupVersion)
	obj, gvk, err := dec.Decode(data, nil, nil)
	if err != nil {
		// the 400 text of handlers.transformDecodeError for a CRD request
		if gvk != nil && len(gvk.Kind) > 0 {
			return nil, fmt.Errorf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, "CustomResourceDefinition", err)
		}
		return nil, fmt.Errorf("the object provided is unrecognized (must be of type %s): %v (%s)", "CustomResourceDefinition", err, summarizeData(data, 30))
	}
	crd, ok := obj.(*apiextensionsinternal.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("decoded %T, expected a CustomResourceDefinition", obj)
	}
	return crd, nil
}

// decodeV1CRD decodes a v1 CRD body with v1 defaulting applied.
func decodeV1CRD(data []byte) (*apiextensionsv1.CustomResourceDefinition, error) {
	dec := apiserver.Codecs.UniversalDecoder(apiextensionsv1.SchemeGroupVersion)
	obj, _, err := dec.Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok {
		return nil, fmt.Errorf("decoded %T, expected a CustomResourceDefinition", obj)
	}
	return crd, nil
}

func crdContext() context.Context {
	return genericapirequest.WithNamespace(context.Background(), "")
}

// crdCreate follows rest.BeforeCreate for the CRD strategy: PrepareForCreate, ValidateCreate
// (strategy.Validate = ValidateCustomResourceDefinition, then ObjectMeta accessor validation), WarningsOnCreate.
func crdCreate(data []byte) *ordered {
	res := obj()
	crd, err := decodeInternalCRD(data)
	if err != nil {
		res.set("decodeError", err.Error())
		return res
	}
	st := crdregistry.NewStrategy(apiserver.Scheme)
	ctx := crdContext()
	st.PrepareForCreate(ctx, crd)
	errs := rest.ValidateCreate(ctx, crd, st)
	var warnings []string
	if len(errs) == 0 {
		warnings = st.WarningsOnCreate(ctx, crd)
	}
	res.set("errors", renderErrors(errs))
	res.set("warnings", nonNilStrings(warnings))
	res.set("nonStructuralSchema", nonStructuralCondition(data))
	return res
}

// crdUpdate follows rest.BeforeUpdate for the CRD strategy over the stored old CRD.
func crdUpdate(data, oldData []byte) *ordered {
	res := obj()
	oldCRD, err := decodeInternalCRD(oldData)
	if err != nil {
		res.set("decodeError", "old CRD: "+err.Error())
		return res
	}
	crd, err := decodeInternalCRD(data)
	if err != nil {
		res.set("decodeError", err.Error())
		return res
	}
	st := crdregistry.NewStrategy(apiserver.Scheme)
	ctx := crdContext()
	crd.Generation = oldCRD.Generation
	st.PrepareForUpdate(ctx, crd, oldCRD)
	if len(crd.UID) == 0 {
		crd.UID = oldCRD.UID
	}
	if !oldCRD.CreationTimestamp.IsZero() {
		crd.CreationTimestamp = oldCRD.CreationTimestamp
	}
	errs := rest.ValidateUpdate(ctx, crd, oldCRD, st)
	var warnings []string
	if len(errs) == 0 {
		warnings = st.WarningsOnUpdate(ctx, crd, oldCRD)
	}
	res.set("errors", renderErrors(errs))
	res.set("warnings", nonNilStrings(warnings))
	res.set("nonStructuralSchema", nonStructuralCondition(data))
	return res
}

// nonStructuralCondition reproduces the NonStructuralSchema controller's calculateCondition (unexported)
// with the exported schema.NewStructural / schema.ValidateStructural it calls. Returns null when the
// condition would be absent, else {reason, message}.
func nonStructuralCondition(data []byte) interface{} {
	in, err := decodeV1CRD(data)
	if err != nil {
		return nil
	}
	allErrs := field.ErrorList{}
	if in.Spec.PreserveUnknownFields {
		allErrs = append(allErrs, field.Invalid(field.NewPath("spec", "preserveUnknownFields"), in.Spec.PreserveUnknownFields, fmt.Sprint("must be false")))
	}
	for i, v := range in.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		internalSchema := &apiextensionsinternal.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(v.Schema, internalSchema, nil); err != nil {
			continue
		}
		s, err := structuralschema.NewStructural(internalSchema.OpenAPIV3Schema)
		if err != nil {
			return obj().set("reason", "StructuralError").set("message", fmt.Sprintf("failed to check validation schema for version %s: %v", v.Name, err))
		}
		pth := field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
		allErrs = append(allErrs, structuralschema.ValidateStructural(pth, s)...)
	}
	if len(allErrs) == 0 {
		return nil
	}
	return obj().set("reason", "Violations").set("message", allErrs.ToAggregate().Error())
}

func renderErrors(errs field.ErrorList) []interface{} {
	out := []interface{}{}
	for _, e := range errs {
		out = append(out, obj().
			set("type", string(e.Type)).
			set("field", e.Field).
			set("detail", e.Detail).
			set("message", e.Error()))
	}
	return out
}

func nonNilStrings(s []string) []interface{} {
	out := []interface{}{}
	for _, x := range s {
		out = append(out, x)
	}
	return out
}
