package monitor

import (
	"fmt"
	"io"
	"strings"

	"github.com/henceforth-go/henceforth/ltl"
)

// WindowRadius is how many positions around the position of interest a
// report shows.
const WindowRadius = 3

// WriteReport writes a human-readable account of a verdict: the formula, the
// verdict and where it was decided, why (the chain of reasons, indented by
// depth), and a window of the trace around that position with the position
// marked. cmd/ltl and ltltest print failures with it, so both read the same.
func WriteReport(w io.Writer, f ltl.Formula, r Result, t *Trace) {
	fmt.Fprintf(w, "formula: %s\n", f)
	verdict := "holds"
	if !r.Holds {
		verdict = "violated"
	}
	switch {
	case r.Violation >= 0:
		fmt.Fprintf(w, "verdict: %s at event %d (trace of %d events)\n", verdict, r.Violation, t.Len())
	default:
		fmt.Fprintf(w, "verdict: %s (trace of %d events)\n", verdict, t.Len())
	}
	if len(r.Why) > 0 {
		fmt.Fprintf(w, "why:\n")
		for _, line := range formatReasons(r.Why) {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
	focus := r.Violation
	if focus < 0 {
		focus = focusOf(r.Why)
	}
	if t.Len() > 0 {
		WriteWindow(w, t, focus)
	}
}

// FormatReasons renders an explanation as WriteReport does: one reason
// per line, each indented under the reason it supports.
func FormatReasons(rs []Reason) []string { return formatReasons(rs) }

// formatReasons renders reasons one per line, each indented under the
// reason it supports: the latest earlier reason about a formula of which it
// is an immediate operand.
func formatReasons(rs []Reason) []string {
	lines := make([]string, 0, len(rs))
	depth := make([]int, len(rs))
	for i, r := range rs {
		parent := -1
		for j := i - 1; j >= 0; j-- {
			if isOperand(r.Formula, rs[j].Formula) {
				parent = j
				depth[i] = depth[j] + 1
				break
			}
		}
		// An atom's value is a leaf fact; when the reason it supports
		// already states it, a line of its own only repeats it.
		if parent >= 0 && r.Formula.Op() == ltl.OpAtom && strings.Contains(rs[parent].Why, r.Why) {
			continue
		}
		lines = append(lines, strings.Repeat("  ", depth[i])+r.Why)
	}
	return lines
}

func isOperand(g, f ltl.Formula) bool {
	for _, o := range f.Operands() {
		if o == g {
			return true
		}
	}
	return false
}

// focusOf picks the position a report centres on when there is no
// violation position: the position of the last (deepest) reason.
func focusOf(rs []Reason) int {
	if len(rs) == 0 {
		return 0
	}
	return rs[len(rs)-1].Position
}

// WriteWindow writes positions focus-WindowRadius … focus+WindowRadius of t,
// marking focus with '>'.
func WriteWindow(w io.Writer, t *Trace, focus int) {
	WriteWindowAt(w, t, 0, t.Len(), focus)
}

// WriteWindowAt is WriteWindow for t holding the events first … first+t.Len()-1
// of a trace of total events (the events a bounded monitor keeps): positions
// are numbered, and focus given, in the whole trace.
func WriteWindowAt(w io.Writer, t *Trace, first, total, focus int) {
	last := first + t.Len() // one past the last event of t
	from, to := max(focus-WindowRadius, first), min(focus+WindowRadius+1, last)
	if focus >= last {
		focus = last - 1
	}
	fmt.Fprintf(w, "trace (events %d–%d of %d):\n", from, to-1, total)
	if from > 0 {
		fmt.Fprintf(w, "     …\n")
	}
	for i := from; i < to; i++ {
		mark := " "
		if i == focus {
			mark = ">"
		}
		fmt.Fprintf(w, "  %s %d: {%s}\n", mark, i, strings.Join(t.At(i-first), ", "))
	}
	if to < total {
		fmt.Fprintf(w, "     …\n")
	}
}
