package synth

import (
	"fmt"
)

// Var is a variable of a specification: a Boolean, or an integer with values
// Lo..Hi.
type Var struct {
	Name string
	Bool bool
	Lo   int // 0 for a Boolean
	Hi   int // 1 for a Boolean
	Pos  Pos // where it is declared
}

// Bool returns a Boolean variable.
func Bool(name string) Var { return Var{Name: name, Bool: true, Lo: 0, Hi: 1} }

// Int returns an integer variable with values lo..hi.
func Int(name string, lo, hi int) Var { return Var{Name: name, Lo: lo, Hi: hi} }

// Bools returns Boolean variables with the given names.
func Bools(names ...string) []Var {
	vs := make([]Var, len(names))
	for i, n := range names {
		vs[i] = Bool(n)
	}
	return vs
}

func (v Var) String() string {
	if v.Bool {
		return v.Name
	}
	return fmt.Sprintf("%s: %d...%d", v.Name, v.Lo, v.Hi)
}

// Section is the part of a GR(1) specification a clause belongs to.
type Section uint8

// The six sections, named as in Slugs. An assumption (ENV_*) constrains the
// environment, a guarantee (SYS_*) the system; INIT clauses constrain the
// first state, TRANS clauses every step (they may refer to next values), and
// LIVENESS clauses must hold infinitely often.
const (
	EnvInit Section = iota
	EnvTrans
	EnvLiveness
	SysInit
	SysTrans
	SysLiveness
	numSections
)

var sectionNames = [...]string{"ENV_INIT", "ENV_TRANS", "ENV_LIVENESS", "SYS_INIT", "SYS_TRANS", "SYS_LIVENESS"}

func (s Section) String() string {
	if s < numSections {
		return sectionNames[s]
	}
	return fmt.Sprintf("Section(%d)", s)
}

// IsGuarantee reports whether s is a SYS_* section.
func (s Section) IsGuarantee() bool { return s >= SysInit }

// Clause is one conjunct of a section.
type Clause struct {
	Section Section
	Expr    *Expr
	Pos     Pos    // where the clause starts
	Text    string // its source text, for reports
}

func (c Clause) String() string {
	text := c.Text
	if text == "" {
		text = c.Expr.String()
	}
	return fmt.Sprintf("%s %s: %s", c.Pos, c.Section, text)
}

// Semantics chooses how assumptions and guarantees combine.
type Semantics uint8

const (
	// Strict is the strict-realizability semantics of the JTLV thesis (§3.1.3.3)
	// and of Slugs and TLSF's "Mealy,Strict": the system must keep its
	// safety guarantees for as long as the environment has kept its safety
	// assumptions, and its liveness guarantees if the environment meets all of
	// its assumptions:
	//
	//	(θe → θs) ∧ (θe → G((H ρe) → ρs)) ∧ (θe ∧ G ρe ∧ ⋀GF Je → ⋀GF Js)
	Strict Semantics = iota
	// Implication is the plain implication (θe ∧ G ρe ∧ ⋀GF Je) → (θs ∧ G ρs ∧
	// ⋀GF Js) (TLSF's "Mealy"), solved with the game of the thesis's
	// Theorem 3.5.
	Implication
)

func (s Semantics) String() string {
	if s == Implication {
		return "implication"
	}
	return "strict"
}

// Spec is a GR(1) specification: the variables the environment controls
// (Inputs) and those the system controls (Outputs), and clauses in six
// sections. The zero Spec has no variables and no clauses and is realizable.
//
// A Spec is plain data; Check validates it, and the parsers and Assume/
// Guarantee return only valid specs. Realizable checks it again.
type Spec struct {
	Name      string
	Inputs    []Var
	Outputs   []Var
	Clauses   []Clause
	Semantics Semantics
}

// Section returns the clauses of one section in order.
func (s *Spec) Section(sec Section) []Clause {
	var cs []Clause
	for _, c := range s.Clauses {
		if c.Section == sec {
			cs = append(cs, c)
		}
	}
	return cs
}

// Var returns the variable called name and whether it is an input.
func (s *Spec) Var(name string) (v Var, input, ok bool) {
	for _, v := range s.Inputs {
		if v.Name == name {
			return v, true, true
		}
	}
	for _, v := range s.Outputs {
		if v.Name == name {
			return v, false, true
		}
	}
	return Var{}, false, false
}

// Clone returns a copy of s whose slices may be modified independently
// (expressions are shared: they are immutable).
func (s *Spec) Clone() *Spec {
	c := *s
	c.Inputs = append([]Var(nil), s.Inputs...)
	c.Outputs = append([]Var(nil), s.Outputs...)
	c.Clauses = append([]Clause(nil), s.Clauses...)
	return &c
}

// Check validates s: distinct variable names and non-empty ranges; every
// clause Boolean, well typed, using declared variables, with next only on
// what GR(1) allows: no next in INIT sections, no next output in ENV_TRANS,
// no nested next. Liveness clauses may refer to next values (as Slugs
// allows): they then hold on transitions rather than states. ENV_INIT may
// only mention inputs. The first problem is returned as an *Error.
func (s *Spec) Check() error {
	seen := map[string]Pos{}
	for _, vs := range [][]Var{s.Inputs, s.Outputs} {
		for _, v := range vs {
			if v.Name == "" || v.Name[0] == '#' {
				return errorf(v.Pos, ErrType, "%q is not a variable name", v.Name)
			}
			if p, dup := seen[v.Name]; dup {
				return errorf(v.Pos, ErrType, "variable %s declared twice (first at %s)", v.Name, p)
			}
			seen[v.Name] = v.Pos
			if v.Lo > v.Hi {
				return errorf(v.Pos, ErrType, "variable %s has the empty range %d...%d", v.Name, v.Lo, v.Hi)
			}
			if v.Hi-v.Lo >= 1<<30 || v.Hi-v.Lo < 0 {
				return errorf(v.Pos, ErrType, "variable %s: range %d...%d is too large", v.Name, v.Lo, v.Hi)
			}
		}
	}
	for _, c := range s.Clauses {
		if c.Section >= numSections {
			return errorf(c.Pos, ErrType, "clause in unknown section %d", c.Section)
		}
		if c.Expr == nil {
			return errorf(c.Pos, ErrSyntax, "%s: empty clause", c.Section)
		}
		if err := s.checkClause(c); err != nil {
			return err
		}
	}
	return nil
}

func (s *Spec) checkClause(c Clause) error {
	t, err := s.typeOf(c.Expr, false)
	if err != nil {
		return err
	}
	if t != typeBool {
		return errorf(c.Expr.Pos, ErrType, "%s: clause is an integer, not a condition", c.Section)
	}
	var first error
	c.Expr.walk(false, func(e *Expr, next bool) {
		if first != nil {
			return
		}
		switch e.Op {
		case ExprNext:
			switch {
			case next:
				first = errorf(e.Pos, ErrNotGR1, "%s: nested next is outside GR(1)", c.Section)
			case c.Section == EnvInit || c.Section == SysInit:
				first = errorf(e.Pos, ErrNotGR1, "%s: an initial condition cannot refer to next values", c.Section)
			}
		case ExprAlways, ExprEventually, ExprTemporal:
			first = errorf(e.Pos, ErrNotGR1, "%s: temporal operator %s inside a clause is outside GR(1)", c.Section, opName(e))
		case ExprVar:
			_, input, _ := s.Var(e.Name)
			switch {
			case c.Section == EnvInit && !input:
				first = errorf(e.Pos, ErrNotGR1, "ENV_INIT may only mention inputs; %s is an output", e.Name)
			case c.Section == EnvTrans && next && !input:
				first = errorf(e.Pos, ErrNotGR1, "ENV_TRANS cannot refer to the next value of output %s (the environment moves first)", e.Name)
			}
		}
	})
	return first
}

func opName(e *Expr) string {
	switch e.Op {
	case ExprAlways:
		return "G"
	case ExprEventually:
		return "F"
	case ExprNext:
		return "X"
	}
	return e.Name
}

type exprType uint8

const (
	typeBool exprType = iota
	typeInt
)

// typeOf type-checks e and returns its type.
func (s *Spec) typeOf(e *Expr, next bool) (exprType, error) {
	t := &typer{s: s, memo: map[walkKey]exprType{}}
	return t.of(e, next)
}

// typer type-checks an expression DAG, each shared node once.
type typer struct {
	s    *Spec
	memo map[walkKey]exprType
}

func (t *typer) of(e *Expr, next bool) (exprType, error) {
	k := walkKey{e, next}
	if ty, ok := t.memo[k]; ok {
		return ty, nil
	}
	ty, err := t.compute(e, next)
	if err == nil {
		t.memo[k] = ty
	}
	return ty, err
}

func (t *typer) compute(e *Expr, next bool) (exprType, error) {
	s := t.s
	if want := e.Op.arity(); want >= 0 && len(e.Args) != want || e.Op == ExprTemporal && len(e.Args) == 0 {
		return 0, errorf(e.Pos, ErrType, "operator %d has %d operands", e.Op, len(e.Args))
	}
	for _, a := range e.Args {
		if a == nil {
			return 0, errorf(e.Pos, ErrType, "missing operand")
		}
	}
	switch e.Op {
	case ExprTrue, ExprFalse:
		return typeBool, nil
	case ExprInt:
		return typeInt, nil
	case ExprVar:
		v, _, ok := s.Var(e.Name)
		if !ok {
			return 0, errorf(e.Pos, ErrType, "unknown variable %s", e.Name)
		}
		if v.Bool {
			return typeBool, nil
		}
		return typeInt, nil
	case ExprNext:
		return t.of(e.Args[0], true)
	case ExprNot, ExprAlways, ExprEventually:
		if err := t.want(e.Args[0], typeBool, next); err != nil {
			return 0, err
		}
		return typeBool, nil
	case ExprTemporal:
		for _, a := range e.Args {
			if err := t.want(a, typeBool, next); err != nil {
				return 0, err
			}
		}
		return typeBool, nil
	case ExprAnd, ExprOr, ExprXor, ExprImp, ExprIff:
		for _, a := range e.Args {
			if err := t.want(a, typeBool, next); err != nil {
				return 0, err
			}
		}
		return typeBool, nil
	case ExprEq, ExprNe:
		// Equality compares two integers or two Booleans.
		lt, err := t.of(e.Args[0], next)
		if err != nil {
			return 0, err
		}
		if err := t.want(e.Args[1], lt, next); err != nil {
			return 0, err
		}
		return typeBool, nil
	case ExprLt, ExprLe, ExprGt, ExprGe:
		for _, a := range e.Args {
			if err := t.want(a, typeInt, next); err != nil {
				return 0, err
			}
		}
		return typeBool, nil
	case ExprAdd, ExprSub:
		for _, a := range e.Args {
			if err := t.want(a, typeInt, next); err != nil {
				return 0, err
			}
		}
		return typeInt, nil
	}
	return 0, errorf(e.Pos, ErrType, "unknown operator %d", e.Op)
}

func (t *typer) want(e *Expr, want exprType, next bool) error {
	got, err := t.of(e, next)
	if err != nil {
		return err
	}
	if got != want {
		if want == typeBool {
			return errorf(e.Pos, ErrType, "%s is an integer where a condition is expected", e)
		}
		return errorf(e.Pos, ErrType, "%s is a condition where an integer is expected", e)
	}
	return nil
}
