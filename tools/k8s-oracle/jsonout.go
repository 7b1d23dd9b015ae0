package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// writeTagged renders a decoded unstructured value (map[string]interface{}, []interface{}, int64,
// float64, string, bool, nil) as indented JSON with sorted keys, keeping Go's int64/float64
// distinction: every float64 is written with a '.' or an exponent (1.0, 1e+21), every int64 without.
// The TypeScript harness parses these files with a parser that maps the two back to crdkit's values.
func writeTagged(buf *bytes.Buffer, v interface{}, indent string) {
	switch x := v.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		if x {
			buf.WriteString("true")
		} else {
			buf.WriteString("false")
		}
	case string:
		buf.Write(marshalString(x))
	case int64:
		buf.WriteString(strconv.FormatInt(x, 10))
	case int:
		buf.WriteString(strconv.Itoa(x))
	case int32:
		buf.WriteString(strconv.FormatInt(int64(x), 10))
	case float64:
		buf.WriteString(taggedFloat(x))
	case json.Number:
		buf.WriteString(string(x))
	case []interface{}:
		if len(x) == 0 {
			buf.WriteString("[]")
			return
		}
		buf.WriteString("[\n")
		for i, e := range x {
			buf.WriteString(indent + "  ")
			writeTagged(buf, e, indent+"  ")
			if i < len(x)-1 {
				buf.WriteString(",")
			}
			buf.WriteString("\n")
		}
		buf.WriteString(indent + "]")
	case []string:
		arr := make([]interface{}, len(x))
		for i, s := range x {
			arr[i] = s
		}
		writeTagged(buf, arr, indent)
	case map[string]interface{}:
		if len(x) == 0 {
			buf.WriteString("{}")
			return
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		buf.WriteString("{\n")
		for i, k := range keys {
			kb := marshalString(k)
			buf.WriteString(indent + "  ")
			buf.Write(kb)
			buf.WriteString(": ")
			writeTagged(buf, x[k], indent+"  ")
			if i < len(keys)-1 {
				buf.WriteString(",")
			}
			buf.WriteString("\n")
		}
		buf.WriteString(indent + "}")
	case *ordered:
		if len(x.keys) == 0 {
			buf.WriteString("{}")
			return
		}
		buf.WriteString("{\n")
		for i, k := range x.keys {
			kb := marshalString(k)
			buf.WriteString(indent + "  ")
			buf.Write(kb)
			buf.WriteString(": ")
			writeTagged(buf, x.vals[i], indent+"  ")
			if i < len(x.keys)-1 {
				buf.WriteString(",")
			}
			buf.WriteString("\n")
		}
		buf.WriteString(indent + "}")
	default:
		// Go structs and other typed values: plain json.Marshal, re-decoded as unstructured.
		b, err := json.Marshal(x)
		if err != nil {
			b, _ = json.Marshal(fmt.Sprintf("%v", x))
		}
		var u interface{}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&u); err != nil {
			buf.Write(b)
			return
		}
		writeTagged(buf, u, indent)
	}
}

func taggedFloat(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		b, _ := json.Marshal(fmt.Sprintf("%v", f))
		return string(b)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	s := string(b)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// ordered is a JSON object whose keys are written in insertion order (for result records).
type ordered struct {
	keys []string
	vals []interface{}
}

func obj() *ordered { return &ordered{} }

func (o *ordered) set(k string, v interface{}) *ordered {
	for i, kk := range o.keys {
		if kk == k {
			o.vals[i] = v
			return o
		}
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	return o
}

func renderTagged(v interface{}) []byte {
	var buf bytes.Buffer
	writeTagged(&buf, v, "")
	buf.WriteString("\n")
	return buf.Bytes()
}

// renderCompact renders one line (for batch mode).
func renderCompact(v interface{}) []byte {
	var buf bytes.Buffer
	writeTagged(&buf, v, "")
	// collapse the indentation: safe because strings are JSON-escaped (no raw newlines inside)
	lines := strings.Split(buf.String(), "\n")
	var out strings.Builder
	for _, l := range lines {
		out.WriteString(strings.TrimLeft(l, " "))
	}
	return []byte(out.String())
}

// marshalString is json.Marshal of a string without HTML escaping (readable goldens).
func marshalString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimRight(b.Bytes(), "\n")
}
