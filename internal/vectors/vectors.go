// Package vectors reads the test vectors of the ltl, monitor and automaton
// tests: files of one JSON value per line (JSON Lines), and the short
// notations their cases write traces and values in.
//
// The notations:
//
//   - states: one set of atoms per position, in braces, separated by
//     spaces: "{} {q} {p,r}" (ParseStates);
//   - events: one atom per position, separated by spaces, "eps" for the
//     empty trace: "p q x" (ParseEvents);
//   - bools: one value per position, T or F: "T F T" (ParseBools).
//
// # Limits
//
//   - A line is at most 1 MiB; blank lines are vectors too (an error when
//     T cannot decode them).
//   - The notations have no quoting: an atom cannot contain a space, a
//     comma or a brace.
package vectors

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/henceforth-go/henceforth/ltl"
)

// maxLine is the longest line Read accepts.
const maxLine = 1 << 20

// Read decodes every line of the JSON Lines file at path into a T, in
// order. Blank lines are not skipped: every line is a vector. An error
// names the file and the line ("path:line: …") and wraps the cause.
func Read[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, maxLine), maxLine)
	for line := 1; sc.Scan(); line++ {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// ParseStates reads a trace in the states notation, "{} {q} {p,r}". The
// empty string is the empty trace.
func ParseStates(src string) ltl.Sets {
	t := ltl.Sets{}
	for _, f := range strings.Fields(src) {
		f = strings.TrimSuffix(strings.TrimPrefix(f, "{"), "}")
		st := []string{}
		if f != "" {
			st = strings.Split(f, ",")
		}
		t = append(t, st)
	}
	return t
}

// ParseEvents reads a trace in the events notation, "p q x": one atom per
// position, or "eps" for the empty trace.
func ParseEvents(src string) ltl.Sets {
	t := ltl.Sets{}
	if src == "eps" {
		return t
	}
	for _, e := range strings.Fields(src) {
		t = append(t, []string{e})
	}
	return t
}

// ParseBools reads values in the bools notation, "T F T": T is true,
// anything else false.
func ParseBools(src string) []bool {
	var out []bool
	for _, v := range strings.Fields(src) {
		out = append(out, v == "T")
	}
	return out
}
