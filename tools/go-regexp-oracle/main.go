// Command go-regexp-oracle answers Go's regexp.Compile, (*Regexp).MatchString and, when asked,
// (*Regexp).FindAllStringIndex for crdkit's differential tests of src/go/regexp.ts. Standard library only.
//
// Input: JSON lines {"pattern": "...", "subjects": ["...", ...], "find": true|false} on stdin.
// Output: one JSON line per input line, in order:
//
//	{"error": "<regexp.Compile error text>"}      when the pattern does not compile
//	{"matches": [true, false, ...]}               MatchString of each subject otherwise
//	{"matches": [...], "finds": [[[0, 1], ...], ...]}  with "find": FindAllStringIndex(s, -1) of each
//	                                              subject too (UTF-8 byte offsets; [] when none)
//
// JSON strings are UTF-8 in Go: a lone UTF-16 surrogate in the input arrives as U+FFFD.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
)

type request struct {
	Pattern  string   `json:"pattern"`
	Subjects []string `json:"subjects"`
	Find     bool     `json:"find"`
}

type answer struct {
	Error   *string   `json:"error,omitempty"`
	Matches []bool    `json:"matches,omitempty"`
	Finds   [][][]int `json:"finds,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 1<<20), 1<<30)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	for in.Scan() {
		line := in.Bytes()
		if len(line) == 0 {
			continue
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			fmt.Fprintf(os.Stderr, "go-regexp-oracle: bad input line: %v\n", err)
			os.Exit(2)
		}
		var ans answer
		re, err := regexp.Compile(req.Pattern)
		if err != nil {
			msg := err.Error()
			ans.Error = &msg
		} else {
			ans.Matches = make([]bool, len(req.Subjects))
			for i, s := range req.Subjects {
				ans.Matches[i] = re.MatchString(s)
			}
			if req.Find {
				ans.Finds = make([][][]int, len(req.Subjects))
				for i, s := range req.Subjects {
					ans.Finds[i] = re.FindAllStringIndex(s, -1)
					if ans.Finds[i] == nil {
						ans.Finds[i] = [][]int{}
					}
				}
			}
		}
		if err := enc.Encode(&ans); err != nil {
			fmt.Fprintf(os.Stderr, "go-regexp-oracle: %v\n", err)
			os.Exit(2)
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintf(os.Stderr, "go-regexp-oracle: %v\n", err)
		os.Exit(2)
	}
}
