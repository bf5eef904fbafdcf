package synth

import (
	"fmt"
	"slices"
	"strings"
)

// This file weaves an AspectLTL specification into a GR(1) Spec, as the
// JTLV thesis composes the aspect game structure (§3.2.4):
//
//	X  = V^e_B ∪ ⋃ V^e_A            Y = V^s_B ∪ ⋃ V^s_A (plus helpers)
//	θs = (θ_B ∨ ⋁ θ_A) ∧ ⋀ Ls_A,i   ρs = (ρ_B ∨ ⋁ ρ_A) ∧ ⋀ Ls_A,t
//	ϕ  = ⋀ Ls_A,g
//
// with LTLSPECENV formulas as assumptions (θe, ρe and the environment's
// liveness) and LTLSPEC as guarantees. An aspect's INIT and TRANS add
// initial states and transitions (an empty one adds none: false); the
// base's constrain them (an empty one allows all: true).

// Weaving is an AspectLTL specification compiled to a GR(1) game: Spec is
// an ordinary Spec (Realizable, Controller, Counterstrategy, Conforms and
// the writers all apply), and the Weaving remembers which module each
// clause came from, for traceability and conflict reports.
//
// Enumerations become integer variables numbered in the base's declaration
// order (ValueName names them back); integer sets become ranges with a
// membership constraint when they have gaps. Formulas outside Equ. 3.4 of
// the thesis are translated with helper variables, outputs named
// "<module>_<kind><n>": response G(p -> F q) and F q with a flag for a
// pending request, and the past operators Y ((_)), S (Since), O and H with
// one flag per past subformula holding its current value.
type Weaving struct {
	Spec    *Spec
	Base    *Module
	Aspects []*Module

	vars    map[string]*wovenVar
	origins []clauseOrigin // per Spec.Clauses
	rhoB    *Expr          // the base's transitions (true when it has none)
	rhoA    []*Expr        // each aspect's added transitions (nil: none)
	helpers []string       // names of the helper variables
}

// wovenVar is a variable of the woven game.
type wovenVar struct {
	name   string
	env    bool
	dom    Domain // the base's domain for ext variables
	owner  int    // module index: 0 the base, i the aspect Aspects[i-1]
	pos    Pos
	helper bool
}

// clausePart says what a clause of a woven Spec stands for.
type clausePart uint8

const (
	partInit     clausePart = iota // θ_B ∨ ⋁θ_A
	partTrans                      // ρ_B ∨ ⋁ρ_A
	partDomain                     // a variable's value set
	partSpecInit                   // Ls_i
	partSafety                     // Ls_t
	partLiveness                   // Ls_g
	partHelper                     // a helper variable's definition
)

// clauseOrigin is the module (0 the base, i ≥ 1 the aspect Aspects[i-1], -1
// all of them) and part a clause comes from.
type clauseOrigin struct {
	module int
	part   clausePart
}

// moduleName names module index i.
func (w *Weaving) moduleName(i int) string {
	switch {
	case i == 0:
		return w.Base.Name
	case i > 0 && i <= len(w.Aspects):
		return w.Aspects[i-1].Name
	}
	return "the weaving"
}

// ValueName returns how the source writes value val of variable name: the
// enumeration value's name, or the number.
func (w *Weaving) ValueName(name string, val int) string {
	if v := w.vars[name]; v != nil && v.dom.Values != nil && val >= 0 && val < len(v.dom.Values) {
		return v.dom.Values[val]
	}
	return fmt.Sprint(val)
}

// Helpers returns the names of the helper variables the translation added,
// in order.
func (w *Weaving) Helpers() []string { return slices.Clone(w.helpers) }

// Weave composes base with aspects into a GR(1) game. The order of the
// aspects does not change the game's meaning. Errors are *Error values
// positioned in the source: an ext variable the base does not declare, or
// declares on the other side or with a domain that does not contain the
// aspect's, a new variable declared twice, an unknown name, a type
// mismatch, a value outside the domain the module declares, and a formula
// outside what the translation supports (naming the clause).
func Weave(base *Module, aspects ...*Module) (*Weaving, error) {
	if base == nil || base.Kind != BaseModule {
		return nil, errorf(Pos{}, ErrType, "Weave needs a base system (MODULE)")
	}
	w := &Weaving{Base: base, Aspects: aspects, vars: map[string]*wovenVar{}}
	spec := &Spec{Name: base.Name}
	w.Spec = spec
	names := map[string]Pos{base.Name: base.Pos}
	for _, a := range aspects {
		if a == nil {
			return nil, errorf(Pos{}, ErrType, "Weave: a nil aspect")
		}
		if a.Kind != AspectModule {
			return nil, errorf(a.Pos, ErrType, "Weave: %s is a base system (MODULE), not an aspect", a.Name)
		}
		if p, dup := names[a.Name]; dup {
			return nil, errorf(a.Pos, ErrType, "module %s is woven twice (first at %s)", a.Name, p)
		}
		names[a.Name] = a.Pos
	}
	mods := append([]*Module{base}, aspects...)
	// Declarations: the base's, then each aspect's new ones.
	var order []*wovenVar
	for i, m := range mods {
		for _, v := range m.Vars {
			if v.Ext {
				b := w.vars[v.Name]
				if b == nil || b.owner != 0 {
					return nil, errorf(v.Pos, ErrType, "aspect %s: ext variable %s is not declared by the base %s", m.Name, v.Name, base.Name)
				}
				if err := checkSubdomain(m, v, b, base); err != nil {
					return nil, err
				}
				continue
			}
			if p, dup := w.vars[v.Name]; dup {
				return nil, errorf(v.Pos, ErrType, "%s: variable %s is already declared by %s at %s", m.Name, v.Name, w.moduleName(p.owner), p.pos)
			}
			if v.Domain.Values != nil && len(v.Domain.Values) == 0 || v.Domain.Values == nil && !v.Domain.Bool && len(v.Domain.Ints) == 0 {
				return nil, errorf(v.Pos, ErrType, "variable %s has an empty domain", v.Name)
			}
			wv := &wovenVar{name: v.Name, env: v.Env, dom: v.Domain, owner: i, pos: v.Pos}
			w.vars[v.Name] = wv
			order = append(order, wv)
		}
	}
	for _, v := range order {
		w.declare(v)
	}
	// Initial states and transitions.
	thetaB, rhoB := mkTrue(), mkTrue()
	var thetaAs, rhoAs []*Expr
	for i, m := range mods {
		sc := w.scope(i, m)
		init, err := sc.conj(m.Init)
		if err != nil {
			return nil, err
		}
		trans, err := sc.conj(m.Trans)
		if err != nil {
			return nil, err
		}
		for _, f := range m.Init {
			if hasTemporal(f.Expr, true) || hasNext(f.Expr) {
				return nil, errorf(f.Pos, ErrNotGR1, "%s: INIT must be a condition on the first state: %s", m.Name, f.Text)
			}
		}
		for _, f := range m.Trans {
			if hasTemporal(f.Expr, true) {
				return nil, errorf(f.Pos, ErrNotGR1, "%s: TRANS must relate a state to the next one (no temporal operators): %s", m.Name, f.Text)
			}
		}
		if i == 0 {
			if init != nil {
				thetaB = init
			}
			if trans != nil {
				rhoB = trans
			}
			continue
		}
		thetaAs = append(thetaAs, init)
		rhoAs = append(rhoAs, trans)
	}
	w.rhoB, w.rhoA = rhoB, rhoAs
	pos := base.Pos
	if len(base.Init) > 0 {
		pos = base.Init[0].Pos
	}
	if init := disj(thetaB, thetaAs); init.Op != ExprTrue {
		w.add(Clause{Section: SysInit, Expr: init, Pos: pos, Text: "initial states: " + partText("INIT", mods, func(m *Module) []Formula { return m.Init }, true)}, clauseOrigin{-1, partInit})
	}
	pos = base.Pos
	if len(base.Trans) > 0 {
		pos = base.Trans[0].Pos
	}
	if trans := disj(rhoB, rhoAs); trans.Op != ExprTrue {
		w.add(Clause{Section: SysTrans, Expr: trans, Pos: pos, Text: "transitions: " + partText("TRANS", mods, func(m *Module) []Formula { return m.Trans }, true)}, clauseOrigin{-1, partTrans})
	}
	// Specifications.
	for i, m := range mods {
		sc := w.scope(i, m)
		for _, f := range m.EnvSpec {
			if err := w.spec(sc, f, true); err != nil {
				return nil, err
			}
		}
		for _, f := range m.Spec {
			if err := w.spec(sc, f, false); err != nil {
				return nil, err
			}
		}
	}
	if err := spec.Check(); err != nil {
		return nil, err
	}
	return w, nil
}

func mkTrue() *Expr { return &Expr{Op: ExprTrue} }

// disj returns base ∨ the non-nil adds.
func disj(base *Expr, adds []*Expr) *Expr {
	e := base
	for _, a := range adds {
		if a != nil {
			e = &Expr{Op: ExprOr, Args: []*Expr{e, a}, Pos: e.Pos}
		}
	}
	return e
}

// partText lists the modules that contribute a section.
func partText(section string, mods []*Module, get func(*Module) []Formula, baseAlways bool) string {
	var names []string
	for i, m := range mods {
		if len(get(m)) > 0 || i == 0 && baseAlways {
			names = append(names, m.Name)
		}
	}
	return section + " of " + strings.Join(names, " ∨ ")
}

func checkSubdomain(m *Module, v ModuleVar, b *wovenVar, base *Module) error {
	if b.env != v.Env {
		where := map[bool]string{true: "VARENV", false: "VAR"}
		return errorf(v.Pos, ErrType, "aspect %s: ext variable %s is declared in %s but the base %s declares it in %s", m.Name, v.Name, where[v.Env], base.Name, where[b.env])
	}
	d, bd := v.Domain, b.dom
	ok := false
	switch {
	case d.Bool:
		ok = bd.Bool
	case d.Values != nil:
		ok = bd.Values != nil
		for _, x := range d.Values {
			ok = ok && slices.Contains(bd.Values, x)
		}
	default:
		ok = !bd.Bool && bd.Values == nil
		for _, x := range d.Ints {
			_, found := slices.BinarySearch(bd.Ints, x)
			ok = ok && found
		}
	}
	if !ok {
		return errorf(v.Pos, ErrType, "aspect %s: ext variable %s has domain %s, which is not a sub-domain of %s as the base %s declares it at %s", m.Name, v.Name, d, bd, base.Name, b.pos)
	}
	return nil
}

// declare adds v to the Spec, with a membership constraint for an integer
// set with gaps.
func (w *Weaving) declare(v *wovenVar) {
	var sv Var
	switch {
	case v.dom.Bool:
		sv = Bool(v.name)
	case v.dom.Values != nil:
		sv = Int(v.name, 0, len(v.dom.Values)-1)
	default:
		ints := v.dom.Ints
		sv = Int(v.name, ints[0], ints[len(ints)-1])
	}
	sv.Pos = v.pos
	if v.env {
		w.Spec.Inputs = append(w.Spec.Inputs, sv)
	} else {
		w.Spec.Outputs = append(w.Spec.Outputs, sv)
	}
	ints := v.dom.Ints
	if v.dom.Bool || v.dom.Values != nil || ints[len(ints)-1]-ints[0]+1 == len(ints) {
		return
	}
	var in *Expr
	for _, k := range ints {
		eq := &Expr{Op: ExprEq, Args: []*Expr{{Op: ExprVar, Name: v.name, Pos: v.pos}, {Op: ExprInt, Val: k, Pos: v.pos}}, Pos: v.pos}
		if in == nil {
			in = eq
		} else {
			in = &Expr{Op: ExprOr, Args: []*Expr{in, eq}, Pos: v.pos}
		}
	}
	init, trans := SysInit, SysTrans
	if v.env {
		init, trans = EnvInit, EnvTrans
	}
	text := fmt.Sprintf("%s in %s", v.name, v.dom)
	w.add(Clause{Section: init, Expr: in, Pos: v.pos, Text: text}, clauseOrigin{v.owner, partDomain})
	w.add(Clause{Section: trans, Expr: mkNext(in), Pos: v.pos, Text: text}, clauseOrigin{v.owner, partDomain})
}

func mkNext(e *Expr) *Expr { return &Expr{Op: ExprNext, Args: []*Expr{e}, Pos: e.Pos} }

func (w *Weaving) add(c Clause, o clauseOrigin) {
	w.Spec.Clauses = append(w.Spec.Clauses, c)
	w.origins = append(w.origins, o)
}

// spec classifies one LTLSPEC (env: LTLSPECENV) formula of module sc.idx
// into initial, safety and liveness clauses, adding helper variables where
// needed.
func (w *Weaving) spec(sc *altlScope, f Formula, env bool) error {
	e, err := sc.resolveBool(f.Expr)
	if err != nil {
		return err
	}
	init, trans, live := SysInit, SysTrans, SysLiveness
	if env {
		init, trans, live = EnvInit, EnvTrans, EnvLiveness
	}
	h := &helperCtx{w: w, module: sc.idx, env: env, f: f}
	for _, c := range conjuncts(e) {
		origin := func(p clausePart) clauseOrigin { return clauseOrigin{sc.idx, p} }
		clause := func(sec Section, x *Expr) Clause {
			return Clause{Section: sec, Expr: x, Pos: c.Pos, Text: f.Text}
		}
		notGR1 := func(why string) error {
			return errorf(c.Pos, ErrNotGR1, "%s: %s is outside GR(1) even with helper variables (%s): %s", w.moduleName(sc.idx), c, why, f.Text)
		}
		switch {
		case c.Op == ExprAlways && c.Args[0].Op == ExprEventually:
			g := c.Args[0].Args[0]
			if hasTemporal(g, false) {
				return notGR1("G F of a formula with G, F or U")
			}
			g, err := h.past(g)
			if err != nil {
				return err
			}
			w.add(clause(live, g), origin(partLiveness))
		case c.Op == ExprAlways && c.Args[0].Op == ExprImp && c.Args[0].Args[1].Op == ExprEventually:
			p, q := c.Args[0].Args[0], c.Args[0].Args[1].Args[0]
			if hasTemporal(p, false) || hasTemporal(q, false) {
				return notGR1("response G(p -> F q) with G, F or U inside p or q")
			}
			if hasNext(p) || hasNext(q) {
				return notGR1("response G(p -> F q) with next inside p or q")
			}
			if p, err = h.past(p); err != nil {
				return err
			}
			if q, err = h.past(q); err != nil {
				return err
			}
			// pending: a p not yet followed by q.
			v := h.flag("pending", c.Pos)
			notQ := &Expr{Op: ExprNot, Args: []*Expr{q}, Pos: q.Pos}
			w.add(clause(init, mkIff(v, mkAnd(p, notQ))), origin(partHelper))
			w.add(clause(trans, mkIff(mkNext(v), mkAnd(mkOr(mkNext(p), v), mkNext(notQ)))), origin(partHelper))
			w.add(clause(live, &Expr{Op: ExprNot, Args: []*Expr{v}, Pos: c.Pos}), origin(partLiveness))
		case c.Op == ExprAlways:
			g := c.Args[0]
			if hasTemporal(g, false) {
				return notGR1("G of a formula with G, F or U other than G F p and G(p -> F q)")
			}
			g, err := h.past(g)
			if err != nil {
				return err
			}
			w.add(clause(trans, g), origin(partSafety))
		case c.Op == ExprEventually:
			q := c.Args[0]
			if hasTemporal(q, false) || hasNext(q) {
				return notGR1("F of a formula with next, G, F or U")
			}
			q, err := h.past(q)
			if err != nil {
				return err
			}
			v := h.flag("done", c.Pos)
			w.add(clause(init, mkIff(v, q)), origin(partHelper))
			w.add(clause(trans, mkIff(mkNext(v), mkOr(v, mkNext(q)))), origin(partHelper))
			w.add(clause(live, v), origin(partLiveness))
		default:
			if hasTemporal(c, false) {
				return notGR1("a temporal operator that is not at the top: use G φ, G F φ, G(p -> F q), F φ or a condition on the first state")
			}
			if hasNext(c) {
				return notGR1("next outside G: an initial condition cannot refer to the next state")
			}
			g, err := h.past(c)
			if err != nil {
				return err
			}
			w.add(clause(init, g), origin(partSpecInit))
		}
	}
	return nil
}

func mkAnd(a, b *Expr) *Expr { return &Expr{Op: ExprAnd, Args: []*Expr{a, b}, Pos: a.Pos} }
func mkOr(a, b *Expr) *Expr  { return &Expr{Op: ExprOr, Args: []*Expr{a, b}, Pos: a.Pos} }
func mkIff(a, b *Expr) *Expr { return &Expr{Op: ExprIff, Args: []*Expr{a, b}, Pos: a.Pos} }

// conjuncts splits the top-level conjunctions of e.
func conjuncts(e *Expr) []*Expr {
	if e.Op == ExprAnd {
		return append(conjuncts(e.Args[0]), conjuncts(e.Args[1])...)
	}
	return []*Expr{e}
}

// hasTemporal reports whether e has a future temporal operator (G, F, U),
// or with past set also a past one.
func hasTemporal(e *Expr, past bool) bool {
	switch e.Op {
	case ExprAlways, ExprEventually:
		return true
	case ExprTemporal:
		if e.Name == "U" || past {
			return true
		}
	}
	for _, a := range e.Args {
		if hasTemporal(a, past) {
			return true
		}
	}
	return false
}

func hasNext(e *Expr) bool {
	if e.Op == ExprNext {
		return true
	}
	for _, a := range e.Args {
		if hasNext(a) {
			return true
		}
	}
	return false
}

// helperCtx adds the helper variables of one formula.
type helperCtx struct {
	w      *Weaving
	module int
	env    bool
	f      Formula
}

// flag declares a new Boolean helper and returns a reference to it.
func (h *helperCtx) flag(kind string, pos Pos) *Expr {
	w := h.w
	base := w.moduleName(h.module) + "_" + kind
	name := ""
	for n := 1; ; n++ {
		name = fmt.Sprintf("%s%d", base, n)
		if _, taken := w.vars[name]; !taken {
			break
		}
	}
	wv := &wovenVar{name: name, env: h.env, dom: Domain{Bool: true}, owner: h.module, pos: pos, helper: true}
	w.vars[name] = wv
	w.helpers = append(w.helpers, name)
	v := Bool(name)
	v.Pos = pos
	if h.env {
		w.Spec.Inputs = append(w.Spec.Inputs, v)
	} else {
		w.Spec.Outputs = append(w.Spec.Outputs, v)
	}
	return &Expr{Op: ExprVar, Name: name, Pos: pos}
}

// past replaces each past subformula of e (Y, S, O, H) by a helper flag
// that holds its value, innermost first.
func (h *helperCtx) past(e *Expr) (*Expr, error) {
	if len(e.Args) == 0 {
		return e, nil
	}
	args := make([]*Expr, len(e.Args))
	changed := false
	for i, a := range e.Args {
		b, err := h.past(a)
		if err != nil {
			return nil, err
		}
		args[i], changed = b, changed || b != a
	}
	if e.Op != ExprTemporal {
		if !changed {
			return e, nil
		}
		c := *e
		c.Args = args
		return &c, nil
	}
	for _, a := range args {
		if hasNext(a) {
			return nil, errorf(e.Pos, ErrNotGR1, "%s: next inside the past operator %s is not supported: %s", h.w.moduleName(h.module), e.Name, h.f.Text)
		}
	}
	init, trans := SysInit, SysTrans
	if h.env {
		init, trans = EnvInit, EnvTrans
	}
	v := h.flag("past", e.Pos)
	var i0, t *Expr
	switch e.Name {
	case "Y": // false initially; then the previous value of φ
		i0 = &Expr{Op: ExprNot, Args: []*Expr{v}, Pos: e.Pos}
		t = mkIff(mkNext(v), args[0])
	case "S": // φ S ψ: ψ now, or φ now and φ S ψ before
		i0 = mkIff(v, args[1])
		t = mkIff(mkNext(v), mkOr(mkNext(args[1]), mkAnd(mkNext(args[0]), v)))
	case "O":
		i0 = mkIff(v, args[0])
		t = mkIff(mkNext(v), mkOr(mkNext(args[0]), v))
	case "H":
		i0 = mkIff(v, args[0])
		t = mkIff(mkNext(v), mkAnd(mkNext(args[0]), v))
	default:
		return nil, errorf(e.Pos, ErrNotGR1, "%s: temporal operator %s is outside GR(1): %s", h.w.moduleName(h.module), e.Name, h.f.Text)
	}
	text := fmt.Sprintf("%s = %s (from %s)", v.Name, e, h.f.Text)
	h.w.add(Clause{Section: init, Expr: i0, Pos: e.Pos, Text: text}, clauseOrigin{h.module, partHelper})
	h.w.add(Clause{Section: trans, Expr: t, Pos: e.Pos, Text: text}, clauseOrigin{h.module, partHelper})
	return v, nil
}

// altlScope resolves the names of one module's formulas.
type altlScope struct {
	w    *Weaving
	idx  int
	m    *Module
	vars map[string]ModuleVar // what the module declares
}

func (w *Weaving) scope(i int, m *Module) *altlScope {
	sc := &altlScope{w: w, idx: i, m: m, vars: map[string]ModuleVar{}}
	for _, v := range m.Vars {
		sc.vars[v.Name] = v
	}
	return sc
}

// conj resolves and conjoins fs; nil when there are none.
func (sc *altlScope) conj(fs []Formula) (*Expr, error) {
	var all *Expr
	for _, f := range fs {
		e, err := sc.resolveBool(f.Expr)
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = e
		} else {
			all = mkAnd(all, e)
		}
	}
	return all, nil
}

// altlType is the type of a resolved expression.
type altlType struct {
	kind uint8     // tBool, tInt, tEnum, or tSym (a name that is not a variable)
	v    *wovenVar // for tEnum: the variable whose domain it has
	mv   ModuleVar // for tEnum: its declaration in the module
	sym  string    // for tSym
}

const (
	tBool uint8 = iota
	tInt
	tEnum
	tSym
)

func (t altlType) String() string {
	switch t.kind {
	case tBool:
		return "a condition"
	case tInt:
		return "an integer"
	case tEnum:
		return "a value of " + t.v.name
	}
	return "the name " + t.sym
}

func (sc *altlScope) resolveBool(e *Expr) (*Expr, error) {
	r, t, err := sc.resolve(e, false)
	if err != nil {
		return nil, err
	}
	if t.kind != tBool {
		return nil, sc.typeErr(e, t, "a condition")
	}
	return r, nil
}

func (sc *altlScope) typeErr(e *Expr, got altlType, want string) error {
	if got.kind == tSym {
		return sc.unknown(e.Pos, got.sym)
	}
	return errorf(e.Pos, ErrType, "%s: %s is %s where %s is expected", sc.m.Name, e, got, want)
}

func (sc *altlScope) unknown(pos Pos, name string) error {
	if sc.idx > 0 {
		if v := sc.w.vars[name]; v != nil && v.owner == 0 {
			return errorf(pos, ErrType, "aspect %s uses %s, a variable of the base, without declaring it (add \"ext %s : …\")", sc.m.Name, name, name)
		}
	}
	return errorf(pos, ErrType, "%s: unknown variable %s", sc.m.Name, name)
}

func (sc *altlScope) want(e *Expr, kind uint8, want string, inNext bool) (*Expr, error) {
	r, t, err := sc.resolve(e, inNext)
	if err != nil {
		return nil, err
	}
	if t.kind != kind {
		return nil, sc.typeErr(e, t, want)
	}
	return r, nil
}

func (sc *altlScope) resolve(e *Expr, inNext bool) (*Expr, altlType, error) {
	out := &Expr{Op: e.Op, Name: e.Name, Val: e.Val, Pos: e.Pos}
	switch e.Op {
	case ExprTrue, ExprFalse:
		return out, altlType{kind: tBool}, nil
	case ExprInt:
		return out, altlType{kind: tInt}, nil
	case ExprVar:
		mv, ok := sc.vars[e.Name]
		if !ok {
			return out, altlType{kind: tSym, sym: e.Name}, nil
		}
		v := sc.w.vars[e.Name]
		switch {
		case v.dom.Bool:
			return out, altlType{kind: tBool}, nil
		case v.dom.Values != nil:
			return out, altlType{kind: tEnum, v: v, mv: mv}, nil
		}
		return out, altlType{kind: tInt}, nil
	case ExprNext:
		if inNext {
			return nil, altlType{}, errorf(e.Pos, ErrNotGR1, "%s: nested next is outside GR(1)", sc.m.Name)
		}
		a, t, err := sc.resolve(e.Args[0], true)
		if err != nil {
			return nil, t, err
		}
		if t.kind == tSym {
			return nil, t, sc.unknown(e.Args[0].Pos, t.sym)
		}
		out.Args = []*Expr{a}
		return out, t, nil
	case ExprNot, ExprAnd, ExprOr, ExprImp, ExprIff, ExprAlways, ExprEventually, ExprTemporal:
		for _, a := range e.Args {
			r, err := sc.want(a, tBool, "a condition", inNext)
			if err != nil {
				return nil, altlType{}, err
			}
			out.Args = append(out.Args, r)
		}
		return out, altlType{kind: tBool}, nil
	case ExprLt, ExprLe, ExprGt, ExprGe, ExprAdd, ExprSub:
		for _, a := range e.Args {
			r, err := sc.want(a, tInt, "an integer", inNext)
			if err != nil {
				return nil, altlType{}, err
			}
			out.Args = append(out.Args, r)
		}
		if e.Op == ExprAdd || e.Op == ExprSub {
			return out, altlType{kind: tInt}, nil
		}
		return out, altlType{kind: tBool}, nil
	case ExprEq, ExprNe:
		a, ta, err := sc.resolve(e.Args[0], inNext)
		if err != nil {
			return nil, ta, err
		}
		b, tb, err := sc.resolve(e.Args[1], inNext)
		if err != nil {
			return nil, tb, err
		}
		switch {
		case ta.kind == tEnum && tb.kind == tSym:
			if b, err = sc.value(ta, e.Args[1]); err != nil {
				return nil, ta, err
			}
		case ta.kind == tSym && tb.kind == tEnum:
			if a, err = sc.value(tb, e.Args[0]); err != nil {
				return nil, tb, err
			}
		case ta.kind == tSym:
			return nil, ta, sc.unknown(e.Args[0].Pos, ta.sym)
		case tb.kind == tSym:
			return nil, tb, sc.unknown(e.Args[1].Pos, tb.sym)
		case ta.kind == tEnum && tb.kind == tEnum:
			if !slices.Equal(ta.v.dom.Values, tb.v.dom.Values) {
				return nil, ta, errorf(e.Pos, ErrType, "%s: %s compares %s and %s, which have different domains", sc.m.Name, e, ta.v.name, tb.v.name)
			}
		case ta.kind != tb.kind:
			return nil, ta, errorf(e.Pos, ErrType, "%s: %s compares %s with %s", sc.m.Name, e, ta, tb)
		}
		out.Args = []*Expr{a, b}
		return out, altlType{kind: tBool}, nil
	}
	return nil, altlType{}, errorf(e.Pos, ErrSyntax, "%s: unknown operator in %s", sc.m.Name, e)
}

// value resolves the name at e as a value of the enumeration t, which the
// module must declare.
func (sc *altlScope) value(t altlType, e *Expr) (*Expr, error) {
	if !slices.Contains(t.mv.Domain.Values, e.Name) {
		if _, ok := sc.w.vars[e.Name]; ok {
			return nil, sc.unknown(e.Pos, e.Name)
		}
		return nil, errorf(e.Pos, ErrType, "%s: %s is not a value of %s, whose domain here is %s", sc.m.Name, e.Name, t.v.name, t.mv.Domain)
	}
	return &Expr{Op: ExprInt, Val: slices.Index(t.v.dom.Values, e.Name), Pos: e.Pos}, nil
}
