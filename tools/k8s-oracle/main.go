// Command k8s-oracle runs crdkit's test cases through the real k8s.io/apiextensions-apiserver packages
// and writes golden JSON files (see README.md).
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

const modulePath = "k8s.io/apiextensions-apiserver"

func oracleInfo() *ordered {
	version := "unknown"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == modulePath {
				version = d.Version
			}
		}
	}
	kube := "unknown"
	if strings.HasPrefix(version, "v0.") {
		parts := strings.SplitN(strings.TrimPrefix(version, "v0."), ".", 2)
		kube = "1." + parts[0]
	}
	return obj().set("module", modulePath).set("version", version).set("kubernetes", kube)
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: k8s-oracle golden <casesDir> <goldenDir> | batch | version")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "version":
		os.Stdout.Write(renderTagged(oracleInfo()))
	case "golden":
		if len(os.Args) != 4 {
			fmt.Fprintln(os.Stderr, "usage: k8s-oracle golden <casesDir> <goldenDir>")
			os.Exit(2)
		}
		if err := runGolden(os.Args[2], os.Args[3]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "batch":
		if err := runBatch(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	case "corpus":
		if len(os.Args) != 4 {
			fmt.Fprintln(os.Stderr, "usage: k8s-oracle corpus <projectDir> <out.json>")
			os.Exit(2)
		}
		if err := runCorpus(os.Args[2], os.Args[3]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, "unknown mode", os.Args[1])
		os.Exit(2)
	}
}

// runGolden turns every test/cases/<area>/<file>.yaml into test/golden/<area>/<file>.json.
func runGolden(casesDir, goldenDir string) error {
	var files []string
	err := filepath.Walk(casesDir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	total := 0
	for _, f := range files {
		rel, _ := filepath.Rel(casesDir, f)
		base := strings.TrimSuffix(strings.TrimSuffix(rel, ".yaml"), ".yml")
		cases, err := loadCaseFile(f)
		if err != nil {
			return err
		}
		var records []interface{}
		var crds []interface{}
		crdIndex := map[string]int{}
		intern := func(r *ordered, key string) {
			v := lookup(r, key)
			if v == nil {
				return
			}
			k := string(renderCompact(v))
			i, ok := crdIndex[k]
			if !ok {
				i = len(crds)
				crdIndex[k] = i
				crds = append(crds, v)
			}
			r.set(key, i)
		}
		for _, c := range cases {
			r := stableCase(filepath.ToSlash(base)+"#"+c.Name, c)
			intern(r, "crd")
			intern(r, "oldCrd")
			records = append(records, r)
		}
		total += len(records)
		src, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		out := obj().
			set("oracle", oracleInfo()).
			set("source", filepath.ToSlash(filepath.Join("test/cases", rel))).
			set("sourceSha256", sha(src)).
			set("crds", crds).
			set("cases", records)
		dst := filepath.Join(goldenDir, base+".json")
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, renderTagged(out), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "k8s-oracle: %d cases in %d files\n", total, len(files))
	return nil
}

// runBatch reads one JSON case per line (with an "id") and writes one JSON record per line.
func runBatch(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	w := bufio.NewWriter(out)
	defer w.Flush()
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var wrapper struct {
			ID string `json:"id"`
			CaseInput
		}
		if err := json.Unmarshal([]byte(line), &wrapper); err != nil {
			w.Write(renderCompact(obj().set("id", "").set("result", obj().set("setupError", "bad case JSON: "+err.Error()))))
			w.WriteString("\n")
			continue
		}
		w.Write(renderCompact(stableCase(wrapper.ID, wrapper.CaseInput)))
		w.WriteString("\n")
		w.Flush()
	}
	return sc.Err()
}

func toValue(raw []byte) interface{} {
	if len(raw) == 0 {
		return nil
	}
	var v interface{}
	if err := utiljson.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	return v
}

// runCase runs one case and returns its golden record (inputs as sent, then the result).
func runCase(id string, c CaseInput) (record *ordered) {
	if c.FieldValidation == "" {
		c.FieldValidation = metav1.FieldValidationWarn
	}
	record = obj().set("id", id).set("operation", c.Operation)
	if c.Description != "" {
		record.set("description", c.Description)
	}
	defer func() {
		if r := recover(); r != nil {
			record.set("result", obj().set("setupError", fmt.Sprintf("oracle panic: %v", r)))
		}
	}()
	switch c.Operation {
	case "decode-yaml":
		text := ""
		if c.Text != nil {
			text = *c.Text
		}
		record.set("text", text)
		record.set("result", decodeYAML([]byte(text)))
	case "crd-create":
		record.set("crd", toValue(c.CRD))
		record.set("result", crdCreate(c.CRD))
	case "crd-update":
		// like any update, the request carries the stored resourceVersion
		c.OldCRD = withResourceVersion(c.OldCRD, nil)
		c.CRD = withResourceVersion(c.CRD, c.OldCRD)
		record.set("crd", toValue(c.CRD))
		record.set("oldCrd", toValue(c.OldCRD))
		record.set("result", crdUpdate(c.CRD, c.OldCRD))
	case "create", "update", "status":
		record.set("fieldValidation", c.FieldValidation)
		record.set("crd", toValue(c.CRD))
		b := body(c.Object, c.ObjectJSON)
		if c.Operation != "create" {
			b = withResourceVersion(b, body(c.OldObject, c.OldObjectJSON))
		}
		s, crdResult := servingFor(c.CRD)
		version := c.Version
		if version == "" {
			version = versionOf(b, s)
		}
		record.set("version", version)
		if c.Namespace != "" {
			record.set("namespace", c.Namespace)
		}
		record.set("body", string(b))
		if c.Operation != "create" {
			record.set("oldBody", string(withResourceVersion(body(c.OldObject, c.OldObjectJSON), nil)))
		}
		if s == nil {
			record.set("result", obj().set("crdResult", crdResult))
			return record
		}
		if !servesVersion(s, version) {
			record.set("result", obj().set("setupError", fmt.Sprintf("version %q is not served by the CRD: the API server answers 404 Not Found", version)))
			return record
		}
		record.set("result", crWrite(s, c, version))
	default:
		record.set("result", obj().set("setupError", fmt.Sprintf("unknown operation %q", c.Operation)))
	}
	return record
}

var servingCache = map[[32]byte]*crdServing{}

// minStabilityRuns is how often stableCase reruns a case with at most one error and one warning
// (the corpus run sets it to 0: single errors have no order).
var minStabilityRuns = 5

// orderStabilityRuns is how often stableCase reruns a case with several errors or warnings. Go starts a
// small map's iteration at a random one of its 8 slots, so two keys swap in only 1 run of 8: 12 runs missed
// the swap about one time in five ((7/8)^12), and such goldens flipped between "unordered" and one order
// from one regeneration to the next; 48 runs miss it about once in 600 ((7/8)^48).
const orderStabilityRuns = 48

// noServingCache forces servingFor to rebuild (used by stableCase).
var noServingCache bool
var servingErrCache = map[[32]byte]*ordered{}

// servingFor validates the CRD like a create and, when valid, builds its serving info (as an
// established CRD whose accepted names are its spec names).
func servingFor(crdData []byte) (*crdServing, *ordered) {
	key := sha256.Sum256(crdData)
	if noServingCache {
		delete(servingCache, key)
		delete(servingErrCache, key)
	}
	if s, ok := servingCache[key]; ok {
		return s, nil
	}
	if r, ok := servingErrCache[key]; ok {
		return nil, r
	}
	r := crdCreate(crdData)
	if errs, _ := lookup(r, "errors").([]interface{}); len(errs) > 0 || lookup(r, "decodeError") != nil {
		servingErrCache[key] = r
		return nil, r
	}
	crd, err := decodeV1CRD(crdData)
	if err != nil {
		r.set("decodeError", err.Error())
		servingErrCache[key] = r
		return nil, r
	}
	crd.Status.AcceptedNames = crd.Spec.Names
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			crd.Status.StoredVersions = []string{v.Name}
		}
	}
	crd.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{
		{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue},
		{Type: apiextensionsv1.NamesAccepted, Status: apiextensionsv1.ConditionTrue},
	}
	s, err := buildServing(crd)
	if err != nil {
		r.set("servingError", err.Error())
		servingErrCache[key] = r
		return nil, r
	}
	servingCache[key] = s
	return s, nil
}

func lookup(o *ordered, k string) interface{} {
	for i, kk := range o.keys {
		if kk == k {
			return o.vals[i]
		}
	}
	return nil
}

// versionOf picks the request version: the body's apiVersion version when its group is the CRD's,
// else the storage version.
func versionOf(b []byte, s *crdServing) string {
	var head struct {
		APIVersion string `json:"apiVersion"`
	}
	_ = json.Unmarshal(b, &head)
	if s == nil {
		if i := strings.LastIndex(head.APIVersion, "/"); i >= 0 {
			return head.APIVersion[i+1:]
		}
		return head.APIVersion
	}
	if i := strings.LastIndex(head.APIVersion, "/"); i >= 0 && head.APIVersion[:i] == s.crd.Spec.Group {
		// kubectl sends the request to the body's version (unserved versions are rejected in runCase)
		return head.APIVersion[i+1:]
	}
	for _, ver := range s.crd.Spec.Versions {
		if ver.Storage {
			return ver.Name
		}
	}
	return ""
}

// withResourceVersion models a client that sends the current resourceVersion (as kubectl does): when the
// body's metadata has no resourceVersion, the old object's is used ("1" when that has none either).
// Bodies that are not JSON objects with an object metadata are returned unchanged.
func withResourceVersion(b, old []byte) []byte {
	v, ok := toValue(b).(map[string]interface{})
	if !ok {
		return b
	}
	md, ok := v["metadata"].(map[string]interface{})
	if !ok {
		return b
	}
	if _, has := md["resourceVersion"]; has {
		return b
	}
	rv := interface{}("1")
	if o, ok := toValue(old).(map[string]interface{}); ok {
		if om, ok := o["metadata"].(map[string]interface{}); ok {
			if r, ok := om["resourceVersion"]; ok {
				rv = r
			}
		}
	}
	md["resourceVersion"] = rv
	return renderCompact(v)
}

// stableCase runs a case several times: Kubernetes iterates Go maps in places (schema properties), so
// the order of some error lists is not deterministic. Such records get "errorOrder": "unordered" (the
// harness then compares errors as a multiset); a result whose content itself varies is flagged
// "unstable".
func stableCase(id string, c CaseInput) *ordered {
	first := runCase(id, c)
	if c.Operation == "decode-yaml" {
		return first
	}
	firstRes, _ := lookup(first, "result").(*ordered)
	if firstRes == nil {
		return first
	}
	key := func(r *ordered, sorted bool) string {
		var parts []string
		for _, k := range []string{"errors", "warnings"} {
			v, _ := lookup(r, k).([]interface{})
			var items []string
			for _, x := range v {
				items = append(items, string(renderCompact(x)))
			}
			if sorted {
				sort.Strings(items)
			}
			parts = append(parts, strings.Join(items, "\n"))
		}
		return strings.Join(parts, "\n--\n")
	}
	exact, set := key(firstRes, false), key(firstRes, true)
	unordered := false
	runs := minStabilityRuns
	if v, _ := lookup(firstRes, "errors").([]interface{}); len(v) > 1 {
		runs = orderStabilityRuns
	} else if v, _ := lookup(firstRes, "warnings").([]interface{}); len(v) > 1 {
		runs = orderStabilityRuns
	}
	for i := 0; i < runs; i++ {
		// validators fix some iteration orders when they are built: rebuild them for every run
		noServingCache = true
		rec := runCase(id, c)
		noServingCache = false
		r, _ := lookup(rec, "result").(*ordered)
		if r == nil {
			continue
		}
		if key(r, true) != set {
			first.set("unstable", true)
			return first
		}
		if key(r, false) != exact {
			unordered = true
		}
	}
	if unordered {
		first.set("errorOrder", "unordered")
		// a canonical order keeps regenerated goldens stable (the 422 text embeds the varying order)
		if lookup(firstRes, "statusMessage") != nil {
			firstRes.set("statusMessage", "(error order varies between runs; see errors)")
		}
		for _, k := range []string{"errors", "warnings"} {
			v, _ := lookup(firstRes, k).([]interface{})
			sort.SliceStable(v, func(i, j int) bool {
				return string(renderCompact(v[i])) < string(renderCompact(v[j]))
			})
		}
	}
	return first
}

func servesVersion(s *crdServing, version string) bool {
	for _, v := range s.crd.Spec.Versions {
		if v.Name == version {
			return v.Served
		}
	}
	return false
}
