package synth

import (
	"context"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"strings"
)

// This file debugs an unrealizable AspectLTL specification (the JTLV
// thesis, §3.2.7.3): which aspects conflict (aspect-level unrealizable
// cores), and how the environment wins against any system (its
// counterstrategy, played out with the aspects to blame at each step).

// Conflict explains why a Weaving is unrealizable.
type Conflict struct {
	// Cores are minimal sets of aspects whose weaving with the base alone is
	// unrealizable: every proper subset is realizable. An empty core means
	// the base alone is unrealizable. When Exhaustive is set these are all
	// of them (smallest first); otherwise Cores holds one set, found by
	// dropping aspects one at a time, from which no single aspect can be
	// dropped.
	Cores      [][]string
	Exhaustive bool
	// Checks is the number of realizability checks the search made.
	Checks int
	// Core is the weaving of the base with Cores[0], and Counterstrategy
	// the environment's winning strategy on it.
	Core            *Weaving
	Counterstrategy *Moore
	// Play is a play of Counterstrategy against a system that tries: of
	// the answers its guarantees allow, it prefers one that meets the
	// liveness goal the environment is starving, then one that moves the
	// base's state, until a state of the counterstrategy repeats
	// (the play then loops back to Play[Loop]) or the system has no legal
	// answer (Loop is -1).
	Play []PlayStep
	Loop int
}

// PlayStep is one step of a played-out counterstrategy.
type PlayStep struct {
	Inputs  string // the environment's inputs, "name=value …"
	Outputs string // the system's answer; empty when it has none
	// Blame names the aspects (or the base) responsible at this step: those
	// whose safety forbids answers the woven transitions would allow, and
	// the one whose liveness goal the environment keeps the system from.
	Blame []string
	// Why says it in words.
	Why string
}

// maxExhaustiveAspects bounds the number of aspects for which Conflicts
// enumerates all subsets.
const maxExhaustiveAspects = 10

// maxPlaySteps bounds Conflict.Play.
const maxPlaySteps = 16

// Conflicts finds the aspects that conflict in an unrealizable weaving and
// plays out the environment's strategy on the first core. Realizability is
// not monotone in the aspects (an aspect may add the transitions another
// needs), so minimality is checked against every proper subset: with up to
// 10 aspects every subset is considered and all minimal cores are
// returned; beyond, one core is found by deletion. It fails with
// ErrRealizable when w is realizable.
func (w *Weaving) Conflicts(ctx context.Context, opts ...Option) (*Conflict, error) {
	c := &Conflict{Loop: -1}
	realizable := func(aspects []*Module) (bool, error) {
		c.Checks++
		sub, err := Weave(w.Base, aspects...)
		if err != nil {
			return false, err
		}
		res, err := sub.Spec.Realizable(ctx, opts...)
		if err != nil {
			return false, err
		}
		return res.Realizable, nil
	}
	ok, err := realizable(w.Aspects)
	if err != nil {
		return nil, err
	}
	if ok {
		return nil, errorf(w.Base.Pos, ErrRealizable, "%s with %d aspects is realizable", w.Base.Name, len(w.Aspects))
	}
	k := len(w.Aspects)
	var cores [][]*Module
	if k <= maxExhaustiveAspects {
		c.Exhaustive = true
		// unreal[s]: subset s or one of its subsets is unrealizable.
		unreal := make([]bool, 1<<k)
		masks := make([]int, 1<<k)
		for i := range masks {
			masks[i] = i
		}
		slices.SortStableFunc(masks, func(a, b int) int { return bits.OnesCount(uint(a)) - bits.OnesCount(uint(b)) })
		for _, s := range masks {
			for i := range k {
				if s&(1<<i) != 0 && unreal[s&^(1<<i)] {
					unreal[s] = true
				}
			}
			if unreal[s] {
				continue
			}
			set := subset(w.Aspects, s)
			ok, err := realizable(set)
			if err != nil {
				return nil, err
			}
			if !ok {
				unreal[s] = true
				cores = append(cores, set)
			}
		}
	} else {
		core := slices.Clone(w.Aspects)
		for i := 0; i < len(core); {
			rest := slices.Delete(slices.Clone(core), i, i+1)
			ok, err := realizable(rest)
			if err != nil {
				return nil, err
			}
			if ok {
				i++
			} else {
				core = rest
			}
		}
		cores = [][]*Module{core}
	}
	for _, core := range cores {
		names := make([]string, len(core))
		for i, a := range core {
			names[i] = a.Name
		}
		c.Cores = append(c.Cores, names)
	}
	if c.Core, err = Weave(w.Base, cores[0]...); err != nil {
		return nil, err
	}
	res, err := c.Core.Spec.Realizable(ctx, opts...)
	if err != nil {
		return nil, err
	}
	cs, err := res.Counterstrategy(ctx)
	if err != nil {
		return nil, err
	}
	if c.Counterstrategy, err = cs.Moore(ctx, 0); err != nil {
		return nil, err
	}
	c.Play, c.Loop = c.Core.play(c.Counterstrategy)
	return c, nil
}

func subset(ms []*Module, mask int) []*Module {
	var out []*Module
	for i, m := range ms {
		if mask&(1<<i) != 0 {
			out = append(out, m)
		}
	}
	return out
}

// maxBlameAnswers bounds the system answers enumerated to blame safety.
const maxBlameAnswers = 1 << 12

// play follows the counterstrategy m, answering with the first allowed
// output, and blames each step.
func (w *Weaving) play(m *Moore) (steps []PlayStep, loop int) {
	spec := w.Spec
	var liveness []int
	for i, c := range spec.Clauses {
		if c.Section == SysLiveness {
			liveness = append(liveness, i)
		}
	}
	all := append(append([]Var(nil), spec.Inputs...), spec.Outputs...)
	seen := map[int]int{}
	q := 0
	for len(steps) < maxPlaySteps {
		if at, ok := seen[q]; ok {
			return steps, at
		}
		seen[q] = len(steps)
		st := m.States[q]
		step := PlayStep{Inputs: w.formatNamed(spec.Inputs, st.Emit)}
		var why []string
		if st.Values != nil {
			forbidders := w.forbidders(all, st.Values, st.Emit)
			for _, name := range forbidders {
				step.Blame = addName(step.Blame, name)
			}
			if len(forbidders) > 0 {
				why = append(why, "the safety of "+strings.Join(forbidders, ", ")+" rules out moves the woven transitions allow")
			}
		}
		if st.Starves >= 0 && st.Starves < len(liveness) {
			ci := liveness[st.Starves]
			name := w.moduleName(w.origins[ci].module)
			step.Blame = addName(step.Blame, name)
			why = append(why, fmt.Sprintf("the environment keeps %s's goal from being met (%s)", name, spec.Clauses[ci].Text))
		}
		if len(st.Edges) == 0 {
			why = append(why, "the system has no legal answer")
			step.Why = strings.Join(why, "; ")
			return append(steps, step), -1
		}
		e := w.bestAnswer(st, all, liveness)
		step.Outputs = w.formatNamed(spec.Outputs, e.Output)
		step.Why = strings.Join(why, "; ")
		steps = append(steps, step)
		q = e.To
	}
	return steps, -1
}

// bestAnswer picks the system's answer in st for the play: one that meets
// the starved goal, else one that changes the base's system variables,
// else the first.
func (w *Weaving) bestAnswer(st MooreState, all []Var, liveness []int) MooreEdge {
	spec := w.Spec
	score := func(e MooreEdge) int {
		next := namedValues(all, append(append([]int(nil), st.Emit...), e.Output...))
		s := 0
		if st.Starves >= 0 && st.Starves < len(liveness) && evalExpr(spec.Clauses[liveness[st.Starves]].Expr, next, nil) == 1 {
			s += 2
		}
		if st.Values != nil {
			cur := namedValues(all, st.Values)
			for _, v := range w.Base.Vars {
				if !v.Env && cur[v.Name] != next[v.Name] {
					s++
					break
				}
			}
		}
		return s
	}
	best, bestScore := st.Edges[0], -1
	for _, e := range st.Edges {
		if s := score(e); s > bestScore {
			best, bestScore = e, s
		}
	}
	return best
}

// forbidders returns the modules whose safety clauses (not helper
// definitions) rule out some answer to inputs in from cur that the woven
// transitions ρ_B ∨ ⋁ρ_A allow.
func (w *Weaving) forbidders(all []Var, cur, inputs []int) []string {
	spec := w.Spec
	n := 1
	for _, v := range spec.Outputs {
		n *= v.Hi - v.Lo + 1
		if n > maxBlameAnswers {
			return nil
		}
	}
	curV := namedValues(all, cur)
	next := namedValues(spec.Inputs, inputs)
	out := make([]int, len(spec.Outputs))
	for i, v := range spec.Outputs {
		out[i] = v.Lo
	}
	var names []string
	for {
		for i, v := range spec.Outputs {
			next[v.Name] = out[i]
		}
		if w.wovenAllows(curV, next) {
			for i, c := range spec.Clauses {
				o := w.origins[i]
				if c.Section == SysTrans && o.part == partSafety && evalExpr(c.Expr, curV, next) == 0 {
					names = addName(names, w.moduleName(o.module))
				}
			}
		}
		i := len(out) - 1
		for ; i >= 0; i-- {
			if out[i] < spec.Outputs[i].Hi {
				out[i]++
				break
			}
			out[i] = spec.Outputs[i].Lo
		}
		if i < 0 {
			break
		}
	}
	slices.Sort(names)
	return names
}

// wovenAllows reports whether the step satisfies ρ_B ∨ ⋁ρ_A.
func (w *Weaving) wovenAllows(cur, next valuation) bool {
	if evalExpr(w.rhoB, cur, next) == 1 {
		return true
	}
	for _, r := range w.rhoA {
		if r != nil && evalExpr(r, cur, next) == 1 {
			return true
		}
	}
	return false
}

// formatNamed prints values as "name=value …" with enumeration names.
func (w *Weaving) formatNamed(vars []Var, vals []int) string {
	parts := make([]string, 0, len(vars))
	for i, v := range vars {
		if slices.Contains(w.helpers, v.Name) {
			continue
		}
		parts = append(parts, v.Name+"="+w.ValueName(v.Name, vals[i]))
	}
	return strings.Join(parts, " ")
}

// WriteText prints the conflict report.
func (c *Conflict) WriteText(w io.Writer) error {
	var b strings.Builder
	what := "a minimal set of aspects that conflict (no single one can be dropped):"
	if c.Exhaustive {
		what = "minimal sets of aspects that conflict (every proper subset is realizable):"
	}
	fmt.Fprintln(&b, what)
	for _, core := range c.Cores {
		if len(core) == 0 {
			fmt.Fprintln(&b, "  the base alone")
			continue
		}
		fmt.Fprintf(&b, "  {%s}\n", strings.Join(core, ", "))
	}
	fmt.Fprintf(&b, "how the environment wins against %s (whatever the system answers):\n", c.Core.Spec.Name+coreSuffix(c.Cores[0]))
	for i, s := range c.Play {
		mark := "  "
		if i == c.Loop {
			mark = "->"
		}
		out := s.Outputs
		if out == "" {
			out = "(no legal answer)"
		}
		fmt.Fprintf(&b, "%s %2d. env: %s\n      sys: %s\n", mark, i, s.Inputs, out)
		if len(s.Blame) > 0 {
			fmt.Fprintf(&b, "      blame: %s: %s\n", strings.Join(s.Blame, ", "), s.Why)
		}
	}
	if c.Loop >= 0 {
		fmt.Fprintf(&b, "   and so on from step %d (marked ->), forever\n", c.Loop)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func coreSuffix(core []string) string {
	if len(core) == 0 {
		return ""
	}
	return " + " + strings.Join(core, " + ")
}
