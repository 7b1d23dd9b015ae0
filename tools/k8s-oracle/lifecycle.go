package main

import (
	"context"
	"fmt"
	"strings"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/endpoints/handlers"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/warning"
)

// validationError carries the field errors of a 422 next to its Status.
type validationError struct {
	errs   field.ErrorList
	status *apierrors.StatusError
}

func (v *validationError) Error() string { return v.status.Error() }

// generatedNameSuffix replaces the 5 random characters of names.SimpleNameGenerator (documented).
const generatedNameSuffix = "abcde"

// beforeCreate follows the create handler (WipeObjectMetaSystemFields, namespace check), the generic
// store (generateName) and rest.BeforeCreate (namespace, PrepareForCreate, rest.ValidateCreate,
// WarningsOnCreate, Canonicalize), keeping the field errors.
func beforeCreate(st rest.RESTCreateStrategy, ctx context.Context, u *unstructured.Unstructured, kind schema.GroupVersionKind, dedup func(context.Context, *unstructured.Unstructured)) error {
	objectMeta, err := meta.Accessor(u)
	if err != nil {
		return err
	}
	rest.WipeObjectMetaSystemFields(objectMeta)
	ns, _ := genericapirequest.NamespaceFrom(ctx)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(ns, objectMeta); err != nil {
		return err
	}
	dedup(ctx, u)
	if len(objectMeta.GetGenerateName()) > 0 && len(objectMeta.GetName()) == 0 {
		base := objectMeta.GetGenerateName()
		if len(base) > 58 {
			base = base[:58]
		}
		objectMeta.SetName(base + generatedNameSuffix)
	}
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(ns, st.NamespaceScoped()), objectMeta); err != nil {
		return err
	}
	st.PrepareForCreate(ctx, u)
	errs := rest.ValidateCreate(ctx, u, st)
	if len(errs) != 0 {
		return &validationError{errs: errs, status: apierrors.NewInvalid(kind.GroupKind(), objectMeta.GetName(), errs)}
	}
	for _, w := range st.WarningsOnCreate(ctx, u) {
		warning.AddWarning(ctx, "", w)
	}
	st.Canonicalize(u)
	return nil
}

// beforeUpdate follows rest.BeforeUpdate, keeping the field errors.
func beforeUpdate(st rest.RESTUpdateStrategy, ctx context.Context, u, old *unstructured.Unstructured, kind schema.GroupVersionKind) error {
	objectMeta, err := meta.Accessor(u)
	if err != nil {
		return err
	}
	ns, _ := genericapirequest.NamespaceFrom(ctx)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(ns, objectMeta); err != nil {
		return err
	}
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope(ns, st.NamespaceScoped()), objectMeta); err != nil {
		return err
	}
	oldMeta, err := meta.Accessor(old)
	if err != nil {
		return err
	}
	objectMeta.SetGeneration(oldMeta.GetGeneration())
	st.PrepareForUpdate(ctx, u, old)
	if len(objectMeta.GetUID()) == 0 {
		objectMeta.SetUID(oldMeta.GetUID())
	}
	if oldCreationTime := oldMeta.GetCreationTimestamp(); !oldCreationTime.IsZero() {
		objectMeta.SetCreationTimestamp(oldMeta.GetCreationTimestamp())
	}
	if !oldMeta.GetDeletionTimestamp().IsZero() {
		objectMeta.SetDeletionTimestamp(oldMeta.GetDeletionTimestamp())
	}
	if oldMeta.GetDeletionGracePeriodSeconds() != nil && objectMeta.GetDeletionGracePeriodSeconds() == nil {
		objectMeta.SetDeletionGracePeriodSeconds(oldMeta.GetDeletionGracePeriodSeconds())
	}
	errs := rest.ValidateUpdate(ctx, u, old, st)
	if len(errs) > 0 {
		return &validationError{errs: errs, status: apierrors.NewInvalid(kind.GroupKind(), objectMeta.GetName(), errs)}
	}
	for _, w := range st.WarningsOnUpdate(ctx, u, old) {
		warning.AddWarning(ctx, "", w)
	}
	st.Canonicalize(u)
	return nil
}

// dedupOwnerReferences reproduces the handlers' (unexported) dedupOwnerReferencesAndAddWarning for a
// create or update request before mutating admission.
func dedupOwnerReferences(ctx context.Context, u *unstructured.Unstructured) {
	refs := u.GetOwnerReferences()
	var result []metav1.OwnerReference
	var duplicates []string
	seen := map[types.UID]struct{}{}
	for _, ref := range refs {
		_, ok := seen[ref.UID]
		has := false
		if ok {
			for _, r := range result {
				if apiequality.Semantic.DeepEqual(r, ref) {
					has = true
					break
				}
			}
		}
		if !ok || !has {
			seen[ref.UID] = struct{}{}
			result = append(result, ref)
		} else {
			duplicates = append(duplicates, string(ref.UID))
		}
	}
	if len(duplicates) > 0 {
		warning.AddWarning(ctx, "", fmt.Sprintf(handlers.DuplicateOwnerReferencesWarningFormat, strings.Join(duplicates, ", ")))
		u.SetOwnerReferences(result)
	}
}
