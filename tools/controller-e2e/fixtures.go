package main

// `controller-e2e --protobuf-fixtures`: the request bodies a client-go clientset sends as protobuf (its default for
// CustomResourceDefinitions and DeleteOptions), each beside the JSON the same client would send: what crdkit's
// protobuf decoder must turn the bytes into (test/server/protobuf-crd.test.ts).

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset/scheme"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/types"
)

func j(text string) *apiextensionsv1.JSON { return &apiextensionsv1.JSON{Raw: []byte(text)} }

// richCRD sets every field of the CRD's messages at least once, with pointers to zero values where Go keeps them.
func richCRD() *apiextensionsv1.CustomResourceDefinition {
	when := metav1.NewTime(time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC))
	leaf := apiextensionsv1.JSONSchemaProps{Type: "string", MinLength: int64p(0), Pattern: "^a+$", Format: "byte"}
	props := apiextensionsv1.JSONSchemaProps{
		ID: "urn:x", Schema: "http://json-schema.org/schema#", Ref: ptr(""), Description: "all \"fields\" <here>", Type: "object", Title: "T",
		Default: j(`{"a":1,"b":[1.5,"x",null,true],"c":{}}`),
		Maximum: float64p(10.5), ExclusiveMaximum: true, Minimum: float64p(-3), ExclusiveMinimum: false,
		MaxLength: int64p(0), MaxItems: int64p(7), MinItems: int64p(1), UniqueItems: true, MultipleOf: float64p(0.25),
		Enum:          []apiextensionsv1.JSON{{Raw: []byte(`1`)}, {Raw: []byte(`"a"`)}, {Raw: []byte(`1e+21`)}, {Raw: []byte(`{"k":[]}`)}},
		MaxProperties: int64p(9), MinProperties: int64p(0), Required: []string{"a", "b"},
		Items:                &apiextensionsv1.JSONSchemaPropsOrArray{Schema: &leaf},
		AllOf:                []apiextensionsv1.JSONSchemaProps{{Maximum: float64p(1e21)}, {Minimum: float64p(1e-7)}},
		OneOf:                []apiextensionsv1.JSONSchemaProps{{Required: []string{"x"}}},
		AnyOf:                []apiextensionsv1.JSONSchemaProps{{}, {Nullable: true}},
		Not:                  &apiextensionsv1.JSONSchemaProps{Type: "integer", Maximum: float64p(3)},
		Properties:           map[string]apiextensionsv1.JSONSchemaProps{"b": leaf, "a": {Type: "integer", Default: j(`5`), Example: j(`-7`)}, "": {}},
		AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: false},
		PatternProperties:    map[string]apiextensionsv1.JSONSchemaProps{"^x-": {Type: "string"}},
		Dependencies: apiextensionsv1.JSONSchemaDependencies{
			"a": {Property: []string{"b", "c"}},
			"b": {Schema: &apiextensionsv1.JSONSchemaProps{Required: []string{"a"}}},
		},
		AdditionalItems:        &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &apiextensionsv1.JSONSchemaProps{Type: "string"}},
		Definitions:            apiextensionsv1.JSONSchemaDefinitions{"d": {Type: "boolean"}},
		ExternalDocs:           &apiextensionsv1.ExternalDocumentation{Description: "docs", URL: "https://example.com/"},
		Example:                j(`{"z":"\u003c"}`),
		Nullable:               false,
		XPreserveUnknownFields: ptr(false), XEmbeddedResource: true, XIntOrString: true,
		XListMapKeys: []string{"name"}, XListType: ptr("map"), XMapType: ptr(""),
		XValidations: apiextensionsv1.ValidationRules{
			{Rule: "self.a > 0", Message: "m", MessageExpression: "'x'", Reason: ptr(apiextensionsv1.FieldValueForbidden), FieldPath: ".a", OptionalOldSelf: ptr(false)},
			{Rule: ""},
		},
	}
	arrayItems := apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{JSONSchemas: []apiextensionsv1.JSONSchemaProps{{Type: "string"}, {Type: "integer"}}}}
	props.Properties["tuple"] = arrayItems
	props.Properties["open"] = apiextensionsv1.JSONSchemaProps{Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{Allows: true, Schema: &leaf}}
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{
			Name: "riches.rich.example.com", GenerateName: "rich-", Namespace: "", UID: "u-1", ResourceVersion: "42", Generation: 3,
			CreationTimestamp: when, DeletionGracePeriodSeconds: int64p(0),
			Labels: map[string]string{"b": "2", "a": "1", "": "empty"}, Annotations: map[string]string{"note": "<&>"},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Namespace", Name: "n", UID: "u-2", Controller: ptr(false), BlockOwnerDeletion: ptr(true)}},
			Finalizers:      []string{"a/b", "customresourcecleanup.apiextensions.k8s.io"},
			ManagedFields: []metav1.ManagedFieldsEntry{
				{Manager: "m", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "apiextensions.k8s.io/v1", Time: &when, FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:group":{}}}`)}},
				{Manager: "s", Operation: metav1.ManagedFieldsOperationApply, Subresource: "status"},
			},
		},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "rich.example.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "riches", Singular: "rich", ShortNames: []string{"rc"}, Kind: "Rich", ListKind: "RichList", Categories: []string{"all"}},
			Scope: apiextensionsv1.ClusterScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{
				{
					Name: "v1", Served: true, Storage: true, Deprecated: true, DeprecationWarning: ptr(""),
					Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &props},
					Subresources: &apiextensionsv1.CustomResourceSubresources{
						Status: &apiextensionsv1.CustomResourceSubresourceStatus{},
						Scale:  &apiextensionsv1.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.r", StatusReplicasPath: ".status.r", LabelSelectorPath: ptr("")},
					},
					AdditionalPrinterColumns: []apiextensionsv1.CustomResourceColumnDefinition{{Name: "A", Type: "integer", Format: "int32", Description: "d", Priority: 1, JSONPath: ".spec.a"}, {Name: "B", Type: "string", JSONPath: ".b", Priority: -2}},
					SelectableFields:         []apiextensionsv1.SelectableField{{JSONPath: ".spec.a"}},
				},
				{Name: "v2", Served: false, Storage: false},
			},
			Conversion: &apiextensionsv1.CustomResourceConversion{
				Strategy: apiextensionsv1.WebhookConverter,
				Webhook: &apiextensionsv1.WebhookConversion{
					ClientConfig:             &apiextensionsv1.WebhookClientConfig{URL: ptr("https://h/x"), CABundle: []byte{0, 1, 2, 250}, Service: &apiextensionsv1.ServiceReference{Namespace: "ns", Name: "svc", Path: ptr("/c"), Port: ptr(int32(8443))}},
					ConversionReviewVersions: []string{"v1", "v1beta1"},
				},
			},
			PreserveUnknownFields: true,
		},
		Status: apiextensionsv1.CustomResourceDefinitionStatus{
			Conditions: []apiextensionsv1.CustomResourceDefinitionCondition{
				{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue, LastTransitionTime: when, Reason: "R", Message: "M", ObservedGeneration: 2},
				{Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionFalse},
			},
			AcceptedNames:      apiextensionsv1.CustomResourceDefinitionNames{Plural: "riches", Kind: "Rich"},
			StoredVersions:     []string{"v1"},
			ObservedGeneration: 4,
		},
	}
}

func printFixtures() {
	pb := protobuf.NewSerializer(scheme.Scheme, scheme.Scheme)
	jsonInfo, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	encode := func(s runtime.Serializer, obj runtime.Object) []byte {
		b, err := runtime.Encode(scheme.Codecs.EncoderForVersion(s, apiextensionsv1.SchemeGroupVersion), obj)
		if err != nil {
			panic(err)
		}
		return b
	}
	bg := metav1.DeletePropagationForeground
	objects := []struct {
		name string
		obj  runtime.Object
	}{
		{"widget CRD (controller-e2e)", widgetCRD()},
		{"every field of a CRD", richCRD()},
		{"an empty CRD", &apiextensionsv1.CustomResourceDefinition{}},
		{"DeleteOptions (client-go's delete with options)", &metav1.DeleteOptions{GracePeriodSeconds: int64p(0), Preconditions: &metav1.Preconditions{UID: ptr(types.UID("u")), ResourceVersion: ptr("")}, OrphanDependents: ptr(false), PropagationPolicy: &bg, DryRun: []string{"All"}}},
		{"empty DeleteOptions", &metav1.DeleteOptions{}},
	}
	out := []map[string]string{}
	for _, o := range objects {
		out = append(out, map[string]string{
			"name":     o.name,
			"protobuf": base64.StdEncoding.EncodeToString(encode(pb, o.obj)),
			"json":     string(encode(jsonInfo.Serializer, o.obj)),
		})
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
}
