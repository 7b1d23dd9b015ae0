package main

import (
	"encoding/hex"
	"math"
	"sort"
		"strings"

	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/ext"
)

type out struct {
	Expr       string `json:"expr"`
	ParseError string `json:"parseError,omitempty"`
	Value      string `json:"value,omitempty"`
	Type       string `json:"type,omitempty"`
	EvalError  string `json:"evalError,omitempty"`
	Cost       uint64 `json:"cost"`
}


func canon(v ref.Val) string {
	switch x := v.(type) {
	case types.Int:
		return fmt.Sprintf("%d", int64(x))
	case types.Uint:
		return fmt.Sprintf("%du", uint64(x))
	case types.Double:
		return fmt.Sprintf("d:%x", math.Float64bits(float64(x)))
	case types.String:
		return "s:" + hex.EncodeToString([]byte(string(x)))
	case types.Bytes:
		return "b:" + hex.EncodeToString([]byte(x))
	case types.Bool:
		if x {
			return "true"
		}
		return "false"
	case types.Null:
		return "null"
	case types.Duration:
		return fmt.Sprintf("dur(%d)", x.Duration.Nanoseconds())
	case types.Timestamp:
		return fmt.Sprintf("ts(%d)", x.Time.UnixNano())
	case ref.Type:
		return "type(" + x.TypeName() + ")"
	case *types.Optional:
		if !x.HasValue() {
			return "none"
		}
		return "opt(" + canon(x.GetValue()) + ")"
	case traits.Lister:
		parts := []string{}
		it := x.Iterator()
		for it.HasNext() == types.True {
			parts = append(parts, canon(it.Next()))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case traits.Mapper:
		parts := []string{}
		it := x.Iterator()
		for it.HasNext() == types.True {
			k := it.Next()
			parts = append(parts, canon(k)+": "+canon(x.Get(k)))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("?%T", v)
}

func main() {
	env, err := cel.NewEnv(
		cel.HomogeneousAggregateLiterals(),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		cel.DefaultUTCTimeZone(true),
		ext.Strings(ext.StringsVersion(2)),
		ext.Sets(),
		ext.Lists(ext.ListsVersion(3)),
		ext.TwoVarComprehensions(),
		cel.Variable("x", cel.DynType),
		cel.Variable("s", cel.StringType),
		cel.Variable("i", cel.IntType),
		cel.Variable("u", cel.UintType),
		cel.Variable("d", cel.DoubleType),
		cel.Variable("b", cel.BoolType),
		cel.Variable("l", cel.ListType(cel.IntType)),
		cel.Variable("ls", cel.ListType(cel.StringType)),
		cel.Variable("m", cel.MapType(cel.StringType, cel.IntType)),
		cel.Variable("o", cel.MapType(cel.StringType, cel.DynType)),
	)
	if err != nil {
		panic(err)
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	enc := json.NewEncoder(os.Stdout)
	for sc.Scan() {
		var expr string
		if err := json.Unmarshal(sc.Bytes(), &expr); err != nil {
			panic(err)
		}
		o := out{Expr: expr}
		var ast *cel.Ast
		var iss *cel.Issues
		if os.Getenv("CHECKED") != "" {
			ast, iss = env.Compile(expr)
		} else {
			ast, iss = env.Parse(expr)
		}
		if iss != nil && iss.Err() != nil {
			o.ParseError = iss.Err().Error()
			enc.Encode(o)
			continue
		}
		prg, err := env.Program(ast, cel.CostTracking(nil), cel.EvalOptions(cel.OptTrackCost))
		if err != nil {
			o.EvalError = "program: " + err.Error()
			enc.Encode(o)
			continue
		}
		val, det, err := prg.Eval(map[string]any{
			"x": types.Int(7), "s": "hello-world", "i": 42, "u": uint64(3), "d": 2.5, "b": true,
			"l": []int64{3, 1, 2}, "ls": []string{"b", "a"}, "m": map[string]int64{"a": 1, "b": 2},
			"o": map[string]any{"name": "web", "n": int64(3), "tags": []any{"x", "y"}, "nested": map[string]any{"k": "v"}},
		})
		if det != nil && det.ActualCost() != nil {
			o.Cost = *det.ActualCost()
		}
		if err != nil {
			o.EvalError = err.Error()
		} else {
			o.Type = val.Type().TypeName()
			o.Value = canon(val)
		}
		enc.Encode(o)
	}
}
