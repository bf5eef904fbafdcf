package synth

// classify sorts a temporal formula into GR(1) clauses: conjuncts of the
// form φ (an initial condition), G ψ (a transition constraint, ψ with next
// only) and G F φ (a liveness condition). assumption selects the ENV_
// sections, otherwise SYS_. A formula of any other shape is an ErrNotGR1
// error at the offending operator. text and pos describe the source of the
// whole formula.
func classify(e *Expr, assumption bool, text string, pos Pos) ([]Clause, error) {
	init, trans, live := SysInit, SysTrans, SysLiveness
	if assumption {
		init, trans, live = EnvInit, EnvTrans, EnvLiveness
	}
	var out []Clause
	add := func(sec Section, x *Expr) {
		out = append(out, Clause{Section: sec, Expr: x, Pos: x.Pos, Text: x.String()})
	}
	var top func(x *Expr) error
	var always func(x *Expr) error
	top = func(x *Expr) error {
		switch {
		case x.Op == ExprAnd:
			if err := top(x.Args[0]); err != nil {
				return err
			}
			return top(x.Args[1])
		case x.Op == ExprAlways:
			return always(x.Args[0])
		case x.Op == ExprTrue:
			return nil
		}
		if bad := firstTemporal(x, true); bad != nil {
			return notGR1(bad, "an initial condition (a conjunct outside G) cannot contain %s", opName(bad))
		}
		add(init, x)
		return nil
	}
	always = func(x *Expr) error {
		switch {
		case x.Op == ExprAnd:
			if err := always(x.Args[0]); err != nil {
				return err
			}
			return always(x.Args[1])
		case x.Op == ExprAlways:
			return always(x.Args[0])
		case x.Op == ExprEventually:
			body := x.Args[0]
			if body.Op == ExprAlways { // G F G φ is not GR(1); G F F φ = G F φ
				return notGR1(body, "G F G is a persistence condition, outside GR(1)")
			}
			for body.Op == ExprEventually {
				body = body.Args[0]
			}
			if bad := firstTemporal(body, false); bad != nil {
				return notGR1(bad, "a liveness condition G F φ needs φ without temporal operators, found %s", opName(bad))
			}
			add(live, body)
			return nil
		case x.Op == ExprTrue:
			return nil
		}
		if bad := firstTemporal(x, false); bad != nil {
			return notGR1(bad, "a safety condition G ψ needs ψ with at most one next, found %s", opName(bad))
		}
		add(trans, x)
		return nil
	}
	if err := top(e); err != nil {
		if ge, ok := err.(*Error); ok && !ge.Pos.IsValid() {
			ge.Pos = pos
		}
		return nil, err
	}
	_ = text
	return out, nil
}

// firstTemporal returns the first temporal operator in x other than next
// (any next too when noNext), or nil.
func firstTemporal(x *Expr, noNext bool) *Expr {
	var bad *Expr
	x.walk(false, func(e *Expr, inNext bool) {
		if bad != nil {
			return
		}
		switch e.Op {
		case ExprAlways, ExprEventually, ExprTemporal:
			bad = e
		case ExprNext:
			if noNext || inNext {
				bad = e
			}
		}
	})
	return bad
}

func notGR1(at *Expr, format string, args ...any) error {
	return errorf(at.Pos, ErrNotGR1, format, args...)
}
