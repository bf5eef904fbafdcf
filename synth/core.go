package synth

import (
	"context"
)

// Core is an unrealizable core: guarantees that, with all the assumptions,
// are already unrealizable, and minimal — dropping any one of them makes the
// rest realizable. It shows which requirements conflict.
type Core struct {
	// Clauses are the guarantees of the core, in the spec's order.
	Clauses []Clause
	// Spec is the original spec restricted to its assumptions and the core.
	Spec *Spec
	// Checks is the number of realizability checks the search made.
	Checks int
}

// computeCore finds a minimal unrealizable subset of the guarantees by delta
// debugging (Zeller's ddmin) over the guarantee clauses. Realizability only
// gets harder with more guarantees, so ddmin's 1-minimal result is minimal.
// Every check reuses the compiled clauses of g and the fixpoint's early
// termination.
func computeCore(ctx context.Context, spec *Spec, g *game, o *options) (*Core, error) {
	release := g.bind(ctx)
	defer func() {
		release() // before reassembling: the game must stay usable
		g.assemble(nil)
	}()
	var guarantees []int
	for i, c := range spec.Clauses {
		if c.Section.IsGuarantee() {
			guarantees = append(guarantees, i)
		}
	}
	checks := 0
	unrealizable := func(subset []int) (bool, error) {
		checks++
		keep := make([]bool, len(spec.Clauses))
		for _, i := range subset {
			keep[i] = true
		}
		g.assemble(keep)
		_, _, ok, _, err := g.solve(ctx, o)
		if err == nil {
			err = g.sp.Err()
		}
		return !ok, err
	}
	if bad, err := unrealizable(nil); err != nil {
		return nil, err
	} else if bad {
		return finishCore(spec, nil, checks), nil
	}
	c := guarantees
	n := 2
	for len(c) >= 2 {
		chunks := split(c, n)
		reduced := false
		for _, ch := range chunks {
			bad, err := unrealizable(ch)
			if err != nil {
				return nil, err
			}
			if bad {
				c, n, reduced = ch, 2, true
				break
			}
		}
		if !reduced && n > 2 {
			for k := range chunks {
				comp := complement(chunks, k)
				bad, err := unrealizable(comp)
				if err != nil {
					return nil, err
				}
				if bad {
					c, n, reduced = comp, max(n-1, 2), true
					break
				}
			}
		}
		if !reduced {
			if n >= len(c) {
				break
			}
			n = min(2*n, len(c))
		}
	}
	return finishCore(spec, c, checks), nil
}

func finishCore(spec *Spec, idx []int, checks int) *Core {
	in := map[int]bool{}
	for _, i := range idx {
		in[i] = true
	}
	core := &Core{Checks: checks}
	sub := spec.Clone()
	sub.Name = spec.Name + "-core"
	sub.Clauses = nil
	for i, c := range spec.Clauses {
		if !c.Section.IsGuarantee() || in[i] {
			sub.Clauses = append(sub.Clauses, c)
		}
		if in[i] {
			core.Clauses = append(core.Clauses, c)
		}
	}
	core.Spec = sub
	return core
}

// split cuts s into n nearly equal consecutive chunks.
func split(s []int, n int) [][]int {
	var out [][]int
	start := 0
	for k := range n {
		end := start + (len(s)-start)/(n-k)
		if end > start {
			out = append(out, s[start:end])
		}
		start = end
	}
	return out
}

// complement returns the concatenation of all chunks but the k-th.
func complement(chunks [][]int, k int) []int {
	var out []int
	for i, ch := range chunks {
		if i != k {
			out = append(out, ch...)
		}
	}
	return out
}
