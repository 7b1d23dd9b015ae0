package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

// CaseInput is one case as written in test/cases/<area>/<file>.yaml (or sent in batch mode as JSON).
// File-level fields are defaults for the entries of `cases`.
type CaseInput struct {
	Name            string          `json:"name,omitempty"`
	Description     string          `json:"description,omitempty"`
	Operation       string          `json:"operation,omitempty"`
	CRD             json.RawMessage `json:"crd,omitempty"`
	OldCRD          json.RawMessage `json:"oldCrd,omitempty"`
	Object          json.RawMessage `json:"object,omitempty"`
	ObjectJSON      *string         `json:"objectJson,omitempty"`
	OldObject       json.RawMessage `json:"oldObject,omitempty"`
	OldObjectJSON   *string         `json:"oldObjectJson,omitempty"`
	FieldValidation string          `json:"fieldValidation,omitempty"`
	Version         string          `json:"version,omitempty"`
	Namespace       string          `json:"namespace,omitempty"`
	// Text is the input of a decode-yaml case (a manifest document as kubectl reads it).
	Text *string `json:"text,omitempty"`
}

// CaseFile is a case file: either a single case (no `cases`) or shared defaults plus `cases`.
type CaseFile struct {
	CaseInput
	Cases []CaseInput `json:"cases,omitempty"`
}

func loadCaseFile(path string) ([]CaseInput, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var f CaseFile
	dec := json.NewDecoder(strings.NewReader(string(j)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(f.Cases) == 0 {
		c := f.CaseInput
		if c.Name == "" {
			c.Name = "main"
		}
		return []CaseInput{c}, nil
	}
	out := make([]CaseInput, 0, len(f.Cases))
	seen := map[string]bool{}
	for i, c := range f.Cases {
		m := mergeCase(f.CaseInput, c)
		if m.Name == "" {
			m.Name = fmt.Sprintf("case%d", i)
		}
		if seen[m.Name] {
			return nil, fmt.Errorf("%s: duplicate case name %q", path, m.Name)
		}
		seen[m.Name] = true
		out = append(out, m)
	}
	return out, nil
}

func mergeCase(d, c CaseInput) CaseInput {
	if c.Operation == "" {
		c.Operation = d.Operation
	}
	if len(c.CRD) == 0 {
		c.CRD = d.CRD
	}
	if len(c.OldCRD) == 0 {
		c.OldCRD = d.OldCRD
	}
	if len(c.Object) == 0 && c.ObjectJSON == nil {
		c.Object, c.ObjectJSON = d.Object, d.ObjectJSON
	}
	if len(c.OldObject) == 0 && c.OldObjectJSON == nil {
		c.OldObject, c.OldObjectJSON = d.OldObject, d.OldObjectJSON
	}
	if c.FieldValidation == "" {
		c.FieldValidation = d.FieldValidation
	}
	if c.Version == "" {
		c.Version = d.Version
	}
	if c.Namespace == "" {
		c.Namespace = d.Namespace
	}
	if c.Text == nil {
		c.Text = d.Text
	}
	return c
}

// body returns the request body bytes: objectJson verbatim, else the YAML object converted to JSON
// (as kubectl does).
func body(raw json.RawMessage, rawJSON *string) []byte {
	if rawJSON != nil {
		return []byte(*rawJSON)
	}
	if len(raw) == 0 {
		return nil
	}
	return []byte(raw)
}
