// Command go-unicode-tables writes src/go/regexp-unicode-tables.ts: the Unicode tables Go's
// regexp/syntax reads (unicode.Categories, Scripts, FoldCategory, FoldScript, CategoryAliases and
// SimpleFold), from the Go toolchain that runs it, for crdkit's own Go regexp parser.
//
//	cd tools/go-unicode-tables && go run . > ../../src/go/regexp-unicode-tables.ts
package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// ranges lists the runes of t as sorted, merged [lo, hi] pairs (what regexp/syntax's appendTable yields).
func ranges(t *unicode.RangeTable) []rune {
	var r []rune
	add := func(lo, hi rune) {
		if n := len(r); n > 0 && lo <= r[n-1]+1 {
			if hi > r[n-1] {
				r[n-1] = hi
			}
			return
		}
		r = append(r, lo, hi)
	}
	for _, x := range t.R16 {
		for c := rune(x.Lo); c <= rune(x.Hi); c += rune(x.Stride) {
			if x.Stride == 1 {
				add(c, rune(x.Hi))
				break
			}
			add(c, c)
		}
	}
	for _, x := range t.R32 {
		for c := rune(x.Lo); c <= rune(x.Hi); c += rune(x.Stride) {
			if x.Stride == 1 {
				add(c, rune(x.Hi))
				break
			}
			add(c, c)
		}
	}
	return r
}

// encode writes pairs as base-36 deltas: lo minus the previous hi, then hi minus lo, comma-separated.
func encode(r []rune) string {
	var b strings.Builder
	prev := rune(0)
	for i := 0; i < len(r); i += 2 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(int64(r[i]-prev), 36))
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(int64(r[i+1]-r[i]), 36))
		prev = r[i+1]
	}
	return strings.ReplaceAll(b.String(), " 0,", ";")
}

func table(name string, m map[string]*unicode.RangeTable) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("export const %s: Readonly<Record<string, string>> = {\n", name)
	for _, k := range keys {
		fmt.Printf("  %s: %q,\n", strconv.Quote(k), encode(ranges(m[k])))
	}
	fmt.Printf("};\n\n")
}

func main() {
	fmt.Printf(`/**
 * Unicode %s tables as Go's regexp/syntax reads them, generated from Go's unicode package by
 * tools/go-unicode-tables (do not edit). Each table is its runes as sorted, merged ranges, encoded by
 * src/go/regexp-unicode.ts's decodeRanges. FOLD lists every rune r with unicode.SimpleFold(r) != r.
 *
 * @module
 */

`, unicode.Version)
	fmt.Printf("/** unicode.Version */\nexport const UNICODE_VERSION = %q;\n\n", unicode.Version)
	table("CATEGORIES", unicode.Categories)
	table("SCRIPTS", unicode.Scripts)
	table("FOLD_CATEGORY", unicode.FoldCategory)
	table("FOLD_SCRIPT", unicode.FoldScript)
	aliases := make([]string, 0, len(unicode.CategoryAliases))
	for k := range unicode.CategoryAliases {
		aliases = append(aliases, k)
	}
	sort.Strings(aliases)
	fmt.Printf("export const CATEGORY_ALIASES: Readonly<Record<string, string>> = {\n")
	for _, k := range aliases {
		fmt.Printf("  %s: %q,\n", strconv.Quote(k), unicode.CategoryAliases[k])
	}
	fmt.Printf("};\n\n")
	// SimpleFold: pairs (r, SimpleFold(r) - r) for every r that does not fold to itself, r as deltas
	var b strings.Builder
	prev := rune(0)
	n := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		f := unicode.SimpleFold(r)
		if f == r {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(int64(r-prev), 36))
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(int64(f-r), 36))
		prev = r
		n++
	}
	fmt.Printf("/** unicode.SimpleFold: %d runes, each as (rune minus the previous one, fold minus rune) in base 36. */\n", n)
	fmt.Printf("export const FOLD = %q;\n", b.String())
	if n == 0 {
		os.Exit(1)
	}
}
