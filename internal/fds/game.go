package fds

import "sort"

// Arena is the move structure of a two-player game over a Space, as in the
// GR(1) game structures of Piterman, Pnueli and Sa'ar: from a state s the
// environment first picks the next values X′ of the inputs with
// EnvTrans(s, X′), then the system picks the next outputs Y′ with
// SysTrans(s, X′, Y′).
type Arena struct {
	s        *Space
	EnvTrans BDD // ρe over V ∪ X′
	SysTrans BDD // ρs over V ∪ X′ ∪ Y′
	notEnv   BDD // ¬ρe
	inputs   Cube
	outputs  Cube

	// A partitioned ρs, when set: ρs = ⋀ parts, and the relational product
	// ∃Y′. ρs ∧ T is computed part by part, quantifying each output as soon
	// as no later part mentions it (early quantification).
	parts  []BDD
	quant  []Cube // quant[k]: outputs to quantify after parts[k]
	first  Cube   // outputs no part mentions, quantified from T at once
	parted bool
}

// NewArena returns the arena with the given transition relations, in which
// inputs are the environment's variables and outputs the system's.
func (s *Space) NewArena(envTrans, sysTrans BDD, inputs, outputs []*Var) *Arena {
	return &Arena{
		s:        s,
		EnvTrans: envTrans,
		SysTrans: sysTrans,
		notEnv:   envTrans.Not(),
		inputs:   s.CubeOf(inputs, true),
		outputs:  s.CubeOf(outputs, true),
	}
}

// NewPartitionedArena is NewArena with the system's transition relation
// given as conjuncts. Conjuncts are merged into clusters of at most
// maxCluster BDD nodes, and clusters are scheduled so that outputs are
// quantified early. The predecessors are the same as NewArena's with the
// conjunction; only their cost differs.
func (s *Space) NewPartitionedArena(envTrans BDD, sysParts []BDD, inputs, outputs []*Var, maxCluster int) *Arena {
	sys := s.True()
	for _, p := range sysParts {
		sys = sys.And(p)
	}
	a := s.NewArena(envTrans, sys, inputs, outputs)
	outLevels := map[int]bool{}
	for _, l := range a.outputs.levels {
		outLevels[l] = true
	}
	type part struct {
		f    BDD
		outs map[int]bool
	}
	supportOuts := func(f BDD) map[int]bool {
		m := map[int]bool{}
		for _, l := range f.Support() {
			if outLevels[l] {
				m[l] = true
			}
		}
		return m
	}
	// Order the conjuncts by their deepest output, then merge neighbours
	// while the cluster stays small.
	var ps []part
	for _, f := range sysParts {
		if f.IsTrue() {
			continue
		}
		ps = append(ps, part{f, supportOuts(f)})
	}
	deepest := func(m map[int]bool) int {
		d := -1
		for l := range m {
			d = max(d, s.Position(l))
		}
		return d
	}
	sort.SliceStable(ps, func(i, j int) bool { return deepest(ps[i].outs) > deepest(ps[j].outs) })
	var clusters []part
	for _, p := range ps {
		if n := len(clusters); n > 0 {
			merged := clusters[n-1].f.And(p.f)
			if merged.Size() <= maxCluster {
				outs := clusters[n-1].outs
				for l := range p.outs {
					outs[l] = true
				}
				clusters[n-1] = part{merged, outs}
				continue
			}
		}
		clusters = append(clusters, p)
	}
	// Schedule the quantification.
	lastUse := map[int]int{}
	for k, c := range clusters {
		for l := range c.outs {
			lastUse[l] = k
		}
	}
	quant := make([][]int, len(clusters))
	var first []int
	for _, l := range a.outputs.levels {
		if k, ok := lastUse[l]; ok {
			quant[k] = append(quant[k], l)
		} else {
			first = append(first, l)
		}
	}
	a.parted = true
	a.first = s.CubeOfLevels(first)
	for k, c := range clusters {
		a.parts = append(a.parts, c.f)
		a.quant = append(a.quant, s.CubeOfLevels(quant[k]))
	}
	return a
}

// Parts returns the number of clusters of a partitioned arena (0 otherwise).
func (a *Arena) Parts() int { return len(a.parts) }

// sysImage computes ∃Y′. ρs ∧ T.
func (a *Arena) sysImage(target BDD) BDD {
	if !a.parted {
		return a.SysTrans.AndExists(target, a.outputs)
	}
	t := target.Exists(a.first)
	for k, p := range a.parts {
		t = p.AndExists(t, a.quant[k])
	}
	return t
}

// Cox is the system's controllable predecessor ⊙target of a set of states:
// the states from which, for every legal input, the system has a legal
// output leading into target. A state without legal inputs is in it.
//
//	⊙S = ∀X′. ρe → ∃Y′. ρs ∧ S′
func (a *Arena) Cox(target BDD) BDD { return a.CoxT(target.Prime()) }

// CoxT is Cox for a target given as a set of transitions (over V ∪ V′): the
// states from which the system can force the next step into target.
//
//	⊙T = ∀X′. ρe → ∃Y′. ρs ∧ T
func (a *Arena) CoxT(target BDD) BDD {
	return a.notEnv.OrForall(a.sysImage(target), a.inputs)
}

// EnvForce is the environment's forcing predecessor ⊚target: the states from
// which the environment has a legal input such that every legal output of
// the system leads into target; a system without a legal output loses.
//
//	⊚S = ∃X′. ρe ∧ ∀Y′. ρs → S′ = ¬⊙¬S
func (a *Arena) EnvForce(target BDD) BDD { return a.EnvForceT(target.Prime()) }

// EnvForceT is EnvForce for a target over V ∪ V′.
func (a *Arena) EnvForceT(target BDD) BDD {
	return a.CoxT(target.Not()).Not()
}

// EnvMoves returns, for the states and inputs (over V ∪ X′), the legal inputs
// after which every legal system response satisfies target (over V ∪ V′).
//
//	ρe ∧ ∀Y′. ρs → T
func (a *Arena) EnvMoves(target BDD) BDD {
	bad := a.sysImage(target.Not())
	return a.EnvTrans.Diff(bad)
}
