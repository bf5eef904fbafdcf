package fds

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

// NextInputs is the cube of the primed inputs X′.
func (a *Arena) NextInputs() Cube { return a.inputs }

// NextOutputs is the cube of the primed outputs Y′.
func (a *Arena) NextOutputs() Cube { return a.outputs }

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
	sys := a.SysTrans.AndExists(target, a.outputs) // ∃Y′. ρs ∧ T
	return a.notEnv.OrForall(sys, a.inputs)
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
	bad := a.SysTrans.AndExists(target.Not(), a.outputs)
	return a.EnvTrans.Diff(bad)
}
