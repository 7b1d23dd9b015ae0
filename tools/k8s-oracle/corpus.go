package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// corpusDoc is one YAML document of a corpus file, converted to JSON as kubectl would.
type corpusDoc struct {
	file  string
	index int
	json  []byte
	head  struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
}

func readDocs(root, rel string) ([]corpusDoc, error) {
	f, err := os.Open(filepath.Join(root, rel))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := utilyaml.NewYAMLReader(bufio.NewReader(f))
	var out []corpusDoc
	for i := 0; ; i++ {
		doc, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return out, nil
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		j, err := yaml.YAMLToJSON(doc)
		if err != nil || len(j) == 0 || j[0] != '{' {
			continue
		}
		d := corpusDoc{file: rel, index: i, json: j}
		_ = json.Unmarshal(j, &d.head)
		out = append(out, d)
	}
	return out, nil
}

func listYAML(root, sub string) []string {
	var out []string
	_ = filepath.Walk(filepath.Join(root, sub), func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return nil
		}
		if strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// runCorpus checks every CRD of a corpus project (crd-create) and creates every example custom
// resource of that project (fieldValidation Strict, like kubectl). Bodies and stored objects are
// recorded as sha256 of their Go json.Marshal text to keep the golden small.
func runCorpus(projectDir, out string) error {
	type crdInfo struct {
		group, kind string
		json        []byte
	}
	crdsByGK := map[string]crdInfo{}
	var crdRecords []interface{}
	for _, rel := range append(listYAML(projectDir, "crds"), listYAML(projectDir, "testcases")...) {
		docs, err := readDocs(projectDir, rel)
		if err != nil {
			return err
		}
		for _, d := range docs {
			if d.head.Kind != "CustomResourceDefinition" {
				continue
			}
			var spec struct {
				Metadata struct {
					Name string `json:"name"`
				} `json:"metadata"`
				Spec struct {
					Group string `json:"group"`
					Names struct {
						Kind string `json:"kind"`
					} `json:"names"`
				} `json:"spec"`
			}
			_ = json.Unmarshal(d.json, &spec)
			res := safeCRDCreate(d.json)
			crdRecords = append(crdRecords, obj().
				set("file", d.file).set("doc", d.index).set("name", spec.Metadata.Name).
				set("bodySha256", sha(d.json)).set("result", res))
			gk := spec.Spec.Group + "/" + spec.Spec.Names.Kind
			if _, dup := crdsByGK[gk]; !dup {
				crdsByGK[gk] = crdInfo{group: spec.Spec.Group, kind: spec.Spec.Names.Kind, json: d.json}
			}
		}
	}
	var exRecords []interface{}
	files := append(listYAML(projectDir, "examples"), listYAML(projectDir, "invalid-examples")...)
	for _, sub := range []string{"testcases", "cel-tests"} {
		files = append(files, listYAML(projectDir, sub)...)
	}
	for _, rel := range files {
		docs, err := readDocs(projectDir, rel)
		if err != nil {
			return err
		}
		for _, d := range docs {
			group := ""
			if i := strings.LastIndex(d.head.APIVersion, "/"); i >= 0 {
				group = d.head.APIVersion[:i]
			}
			info, ok := crdsByGK[group+"/"+d.head.Kind]
			if !ok {
				continue
			}
			c := CaseInput{Operation: "create", CRD: info.json, FieldValidation: "Strict"}
			jb := d.json
			c.ObjectJSON = new(string)
			*c.ObjectJSON = string(jb)
			minStabilityRuns = 0
			rec := stableCase(fmt.Sprintf("%s#%d", d.file, d.index), c)
			r, _ := lookup(rec, "result").(*ordered)
			summary := obj().set("file", d.file).set("doc", d.index).set("crd", lookupCRDName(info.json)).
				set("version", lookup(rec, "version")).set("bodySha256", sha(jb))
			if o := lookup(rec, "errorOrder"); o != nil {
				summary.set("errorOrder", o)
			}
			if r != nil {
				for _, k := range []string{"crdResult", "setupError", "code", "decodeError", "errors", "warnings", "unknownFields"} {
					if v := lookup(r, k); v != nil {
						summary.set(k, v)
					}
				}
				if o := lookup(r, "object"); o != nil {
					b, _ := json.Marshal(o)
					summary.set("objectSha256", sha(b))
				}
				if o := lookup(r, "validatedObject"); o != nil {
					b, _ := json.Marshal(o)
					summary.set("validatedObjectSha256", sha(b))
				}
			}
			exRecords = append(exRecords, summary)
		}
	}
	res := obj().
		set("oracle", oracleInfo()).
		set("project", filepath.Base(projectDir)).
		set("crds", crdRecords).
		set("examples", exRecords)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	return os.WriteFile(out, renderTagged(res), 0o644)
}

func lookupCRDName(j []byte) string {
	var m struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(j, &m)
	return m.Metadata.Name
}

func safeCRDCreate(j []byte) (r *ordered) {
	defer func() {
		if p := recover(); p != nil {
			r = obj().set("setupError", fmt.Sprintf("oracle panic: %v", p))
		}
	}()
	return crdCreate(j)
}
