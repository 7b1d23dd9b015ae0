package main

import (
	"sigs.k8s.io/yaml"
)

// decodeYAML converts a YAML document to JSON as kubectl does for every manifest document
// (sigs.k8s.io/yaml YAMLToJSON over go-yaml v2): the JSON text, or the error text. When the lenient
// conversion succeeds, strictError is what YAMLToJSONStrict (duplicate keys) reports, if anything.
func decodeYAML(text []byte) *ordered {
	r := obj()
	j, err := yaml.YAMLToJSON(text)
	if err != nil {
		return r.set("error", err.Error())
	}
	r.set("json", string(j))
	if _, err := yaml.YAMLToJSONStrict(text); err != nil {
		r.set("strictError", err.Error())
	}
	return r
}
