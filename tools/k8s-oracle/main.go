package main

import (
	_ "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	_ "k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	_ "k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	_ "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	_ "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	_ "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	_ "k8s.io/apiextensions-apiserver/pkg/apiserver"
)

func main() {}
