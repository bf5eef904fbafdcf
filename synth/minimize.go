package synth

import (
	"fmt"
	"strings"
)

// Minimize returns the smallest Mealy machine with the same input/output
// behaviour: states that answer every input sequence alike are merged
// (partition refinement, Moore's algorithm). The initial state stays
// States[0]. A merged state keeps the Values and Goal of one of the states it
// replaces, so after minimization they are only indicative; Verify does not
// rely on them.
//
// A malformed machine (see Verify) is returned unchanged.
func (m *Mealy) Minimize() *Mealy {
	if m.validate() != nil {
		return m
	}
	n := len(m.States)
	class := make([]int, n)
	// Initial partition: by the set of inputs and the outputs given.
	classes := refine(n, func(q int) string {
		var b strings.Builder
		fmt.Fprint(&b, q == 0)
		for _, e := range m.States[q].Edges {
			fmt.Fprint(&b, e.Input, e.Output, ";")
		}
		return b.String()
	}, nil)
	copy(class, classes)
	for {
		next := refine(n, func(q int) string {
			var b strings.Builder
			fmt.Fprint(&b, class[q], ":")
			for _, e := range m.States[q].Edges {
				fmt.Fprint(&b, class[e.To], ",")
			}
			return b.String()
		}, class)
		if count(next) == count(class) {
			break
		}
		class = next
	}
	// Build the quotient with the initial state's class first.
	order := map[int]int{class[0]: 0}
	rep := []int{0}
	for q := range n {
		if _, ok := order[class[q]]; !ok {
			order[class[q]] = len(rep)
			rep = append(rep, q)
		}
	}
	out := &Mealy{Name: m.Name, Inputs: m.Inputs, Outputs: m.Outputs, States: make([]MealyState, len(rep))}
	for i, q := range rep {
		src := m.States[q]
		st := MealyState{Values: src.Values, Goal: src.Goal, hidden: src.hidden}
		for _, e := range src.Edges {
			e.To = order[class[e.To]]
			st.Edges = append(st.Edges, e)
		}
		out.States[i] = st
	}
	return out
}

// refine numbers the states by the signature key(q), within the classes of
// prev (nil for none).
func refine(n int, key func(q int) string, prev []int) []int {
	ids := map[string]int{}
	class := make([]int, n)
	for q := range n {
		k := key(q)
		if prev != nil {
			k = fmt.Sprint(prev[q], "|", k)
		}
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		class[q] = id
	}
	return class
}

func count(class []int) int {
	seen := map[int]bool{}
	for _, c := range class {
		seen[c] = true
	}
	return len(seen)
}
