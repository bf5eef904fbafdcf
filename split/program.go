package split

import (
	"fmt"
	"maps"
	"slices"
)

// Program is an asynchronous composition of processes (Def 4.2 of the
// thesis): shared variables X, and per process i its local variables L_i, an
// initial condition over X ∪ L_i and a transition relation over
// X ∪ L_i ∪ X′ ∪ L_i′ given by guarded commands.
//
// A Program is built once and then only read: Check and the invariant
// computations never modify it, so one Program may be checked by several
// goroutines at once. Builder methods record the first error (a duplicate
// name, an empty range) and return usable values anyway; Err reports it and
// every check refuses a Program with an error.
type Program struct {
	name    string
	vars    []*Var // every variable, shared and local, in declaration order
	byName  map[string]*Var
	shared  []*Var
	procs   []*Process
	init    []Expr // shared initial constraints, over X only
	props   []*Property
	defines map[string]Expr

	err error
}

// NewProgram returns an empty program.
func NewProgram(name string) *Program {
	return &Program{name: name, byName: map[string]*Var{}, defines: map[string]Expr{}}
}

// Name returns the program's name.
func (p *Program) Name() string { return p.name }

// Err returns the first error made while building p.
func (p *Program) Err() error { return p.err }

func (p *Program) fail(pos Pos, kind error, format string, args ...any) {
	if p.err == nil {
		p.err = errorf(pos, kind, format, args...)
	}
}

// Var is a finite-domain variable of a Program: a Boolean, an integer in
// Lo..Hi, or an enumeration (an integer 0..len(Enum)-1 whose values have
// names). A variable is shared (Owner is nil) or local to one process.
type Var struct {
	name   string
	lo, hi int
	bool   bool
	enum   []string
	owner  *Process
	index  int       // position in Program.vars; -1 for auxiliary variables
	aux    *exposure // non-nil for the auxiliary variables of refinement
	auxIdx int       // auxiliary: the process whose predicate it exposes
}

// Name returns the variable's full name ("x", "P[3].loc", "flag[2]").
func (v *Var) Name() string { return v.name }

// String returns the variable's name.
func (v *Var) String() string { return v.name }

// IsBool reports whether v is Boolean.
func (v *Var) IsBool() bool { return v.bool }

// Lo returns v's smallest value (0 for Booleans and enumerations).
func (v *Var) Lo() int { return v.lo }

// Hi returns v's largest value.
func (v *Var) Hi() int { return v.hi }

// Enum returns the names of an enumeration's values, nil for other types.
func (v *Var) Enum() []string { return v.enum }

// Index returns v's position in the program's Vars, which is where a
// Trace's states hold its value.
func (v *Var) Index() int { return v.index }

// Owner returns the process v is local to, or nil for a shared variable.
func (v *Var) Owner() *Process { return v.owner }

// format prints a value of v.
func (v *Var) format(k int) string {
	switch {
	case v.bool && k != 0:
		return "TRUE"
	case v.bool:
		return "FALSE"
	case v.enum != nil && k >= 0 && k < len(v.enum):
		return v.enum[k]
	}
	return fmt.Sprint(k)
}

func (p *Program) declare(name string, lo, hi int, isBool bool, enum []string, owner *Process) *Var {
	v := &Var{name: name, lo: lo, hi: hi, bool: isBool, enum: enum, owner: owner, index: len(p.vars)}
	if name == "" {
		p.fail(Pos{}, ErrProgram, "variable without a name")
	}
	if _, dup := p.byName[name]; dup {
		p.fail(Pos{}, ErrType, "variable %s declared twice", name)
	}
	if lo > hi {
		p.fail(Pos{}, ErrType, "variable %s: empty range %d..%d", name, lo, hi)
		v.hi = lo
	}
	if hi-lo >= 1<<24 {
		p.fail(Pos{}, ErrType, "variable %s: range %d..%d too large", name, lo, hi)
		v.hi = lo
	}
	p.vars = append(p.vars, v)
	p.byName[name] = v
	if owner == nil {
		p.shared = append(p.shared, v)
	} else {
		owner.locals = append(owner.locals, v)
	}
	return v
}

// Bool declares a shared Boolean variable.
func (p *Program) Bool(name string) *Var { return p.declare(name, 0, 1, true, nil, nil) }

// Int declares a shared integer variable with values lo..hi.
func (p *Program) Int(name string, lo, hi int) *Var {
	return p.declare(name, lo, hi, false, nil, nil)
}

// Enum declares a shared enumeration variable.
func (p *Program) Enum(name string, values ...string) *Var {
	return p.declare(name, 0, len(values)-1, false, slices.Clone(values), nil)
}

// Init adds a constraint on the initial values of the shared variables.
func (p *Program) Init(e Expr) { p.init = append(p.init, e) }

// Define names an expression over p's variables (a predicate, a constant
// such as the parameter N) for the text of properties, which may use the
// name; a name that starts with a process's name and a dot (P[1].crit) is
// a member of that process.
func (p *Program) Define(name string, e Expr) { p.defines[name] = e }

// Defines returns a copy of the names given with Define.
func (p *Program) Defines() map[string]Expr { return maps.Clone(p.defines) }

// Lookup returns the variable called name, or nil.
func (p *Program) Lookup(name string) *Var { return p.byName[name] }

// Vars returns every variable (shared and local) in declaration order.
func (p *Program) Vars() []*Var { return p.vars }

// SharedVars returns the shared variables.
func (p *Program) SharedVars() []*Var { return p.shared }

// Processes returns the processes in order.
func (p *Program) Processes() []*Process { return p.procs }

// Properties returns the properties the program's text declared
// (INVARSPEC, LTLSPEC), in order.
func (p *Program) Properties() []*Property { return p.props }

// AddProperty appends a property to the program's list.
func (p *Program) AddProperty(prop *Property) { p.props = append(p.props, prop) }

// Process is one process of a Program.
type Process struct {
	prog       *Program
	name       string
	index      int
	template   string
	locals     []*Var
	init       []Expr
	commands   []*Command
	justice    []Expr
	compassion []Compassion
	scheduled  bool
	pos        Pos
}

// Process adds a process. Processes built from the same template (see
// SetTemplate) must declare the same local variables in the same order;
// refinement then exposes a predicate for all of them at once.
func (p *Program) Process(name string) *Process {
	pr := &Process{prog: p, name: name, index: len(p.procs), template: name}
	for _, q := range p.procs {
		if q.name == name {
			p.fail(Pos{}, ErrType, "process %s declared twice", name)
		}
	}
	p.procs = append(p.procs, pr)
	return pr
}

// Name returns the process's name.
func (pr *Process) Name() string { return pr.name }

// Index returns the process's position in the program (0-based).
func (pr *Process) Index() int { return pr.index }

// Template returns the name of the template the process was built from.
func (pr *Process) Template() string { return pr.template }

// SetPos records where the process was declared in a source text, for
// the errors that concern it.
func (pr *Process) SetPos(pos Pos) { pr.pos = pos }

// SetTemplate says which template the process instantiates (for example
// the module of a process array): processes of one template are
// symmetric copies as far as refinement is concerned.
func (pr *Process) SetTemplate(name string) { pr.template = name }

// Locals returns the process's local variables.
func (pr *Process) Locals() []*Var { return pr.locals }

// Commands returns the process's guarded commands.
func (pr *Process) Commands() []*Command { return pr.commands }

// Bool declares a local Boolean variable; its full name is the process
// name, a dot, and name.
func (pr *Process) Bool(name string) *Var {
	return pr.prog.declare(pr.name+"."+name, 0, 1, true, nil, pr)
}

// Int declares a local integer variable with values lo..hi.
func (pr *Process) Int(name string, lo, hi int) *Var {
	return pr.prog.declare(pr.name+"."+name, lo, hi, false, nil, pr)
}

// Enum declares a local enumeration variable.
func (pr *Process) Enum(name string, values ...string) *Var {
	return pr.prog.declare(pr.name+"."+name, 0, len(values)-1, false, slices.Clone(values), pr)
}

// Init adds a constraint on the initial values of the process's variables
// (its locals and the shared variables).
func (pr *Process) Init(e Expr) { pr.init = append(pr.init, e) }

// Command is a guarded command: when Guard holds, the process may perform
// Updates simultaneously; variables of the process it does not update keep
// their values.
type Command struct {
	Name    string
	Guard   Expr // the zero Expr is true
	Updates []Update
	Pos     Pos // where the command was read, if it came from a source text
}

// Update sets Var to Value in the next state. Value may be a choice
// (OneOf) or a Case; when a Case has no matching branch, or the value is
// outside Var's range, the command is not enabled.
type Update struct {
	Var   *Var
	Value Expr
}

// Set is the Update v := e.
func Set(v *Var, e Expr) Update { return Update{Var: v, Value: e} }

// Command adds a guarded command.
func (pr *Process) Command(name string, guard Expr, updates ...Update) *Command {
	c := &Command{Name: name, Guard: guard, Updates: updates}
	pr.commands = append(pr.commands, c)
	return c
}

// Compassion is a strong fairness requirement GF P → GF Q (if P holds
// infinitely often, so does Q); P and Q are over the process's variables.
type Compassion struct {
	P, Q Expr
}

// Justice adds the weak fairness requirement GF e over the process's
// variables.
func (pr *Process) Justice(e Expr) { pr.justice = append(pr.justice, e) }

// Compassion adds the strong fairness requirement GF p → GF q.
func (pr *Process) Compassion(p, q Expr) {
	pr.compassion = append(pr.compassion, Compassion{P: p, Q: q})
}

// Scheduled adds unconditional fairness for the process (SMV's
// "JUSTICE running"): it is scheduled infinitely often, though when
// scheduled it may only skip if none of its commands is enabled.
func (pr *Process) Scheduled() { pr.scheduled = true }

// Validate checks the program's well-formedness beyond what the builders
// check (types of every expression, ownership of assigned variables,
// locality of initial conditions and fairness) and returns the first
// problem, or the first building error (Err). Every check validates the
// program first; a front end validates the programs it builds.
func (p *Program) Validate() error {
	if p.err != nil {
		return p.err
	}
	if len(p.procs) == 0 {
		return errorf(Pos{}, ErrProgram, "program %s has no processes", p.name)
	}
	for _, e := range p.init {
		if err := e.CheckBool("initial condition"); err != nil {
			return err
		}
		var bad *Var
		e.vars(func(v *Var) {
			if v.owner != nil && bad == nil {
				bad = v
			}
		})
		if bad != nil {
			return errorf(e.Pos(), ErrProgram, "shared initial condition %s reads the local variable %s; put it in the process", e, bad)
		}
	}
	for _, pr := range p.procs {
		local := func(e Expr, what string) error {
			var bad *Var
			e.vars(func(v *Var) {
				if v.owner != nil && v.owner != pr && bad == nil {
					bad = v
				}
			})
			if bad != nil {
				return errorf(e.Pos(), ErrProgram, "%s of %s reads %s, a local variable of another process", what, pr.name, bad)
			}
			return nil
		}
		for _, e := range pr.init {
			if err := e.CheckBool("initial condition"); err != nil {
				return err
			}
			if err := local(e, "initial condition"); err != nil {
				return err
			}
		}
		for _, c := range pr.commands {
			if !c.Guard.IsZero() {
				if err := c.Guard.CheckBool("guard of " + c.Name); err != nil {
					return err
				}
				if err := local(c.Guard, "guard of "+c.Name); err != nil {
					return err
				}
			}
			seen := map[*Var]bool{}
			for _, u := range c.Updates {
				if u.Var == nil {
					return errorf(c.Pos, ErrProgram, "command %s of %s assigns a nil variable", c.Name, pr.name)
				}
				if u.Var.owner != nil && u.Var.owner != pr {
					return errorf(posOr(u.Value.Pos(), c.Pos), ErrProgram, "command %s of %s assigns %s, a local variable of another process", c.Name, pr.name, u.Var)
				}
				if seen[u.Var] {
					return errorf(posOr(u.Value.Pos(), c.Pos), ErrProgram, "command %s of %s assigns %s twice", c.Name, pr.name, u.Var)
				}
				seen[u.Var] = true
				if u.Value.IsZero() {
					return errorf(c.Pos, ErrProgram, "command %s of %s assigns %s no value", c.Name, pr.name, u.Var)
				}
				t, _, err := typeOf(u.Value.n)
				if err != nil {
					return err
				}
				if want := map[bool]etype{true: tBool, false: tInt}[u.Var.bool]; t != want {
					return errorf(posOr(u.Value.Pos(), c.Pos), ErrType, "%s := %s: value is %s, variable is %s", u.Var, u.Value, t, want)
				}
				if err := local(u.Value, "command "+c.Name); err != nil {
					return err
				}
			}
		}
		for _, e := range pr.justice {
			if err := e.CheckBool("justice"); err != nil {
				return err
			}
			if err := local(e, "justice"); err != nil {
				return err
			}
		}
		for _, c := range pr.compassion {
			for _, e := range []Expr{c.P, c.Q} {
				if err := e.CheckBool("compassion"); err != nil {
					return err
				}
				if err := local(e, "compassion"); err != nil {
					return err
				}
			}
		}
	}
	// Processes of one template must have the same local layout.
	first := map[string]*Process{}
	for _, pr := range p.procs {
		f, ok := first[pr.template]
		if !ok {
			first[pr.template] = pr
			continue
		}
		if len(f.locals) != len(pr.locals) {
			return errorf(pr.pos, ErrProgram, "processes %s and %s share template %s but not their local variables", f.name, pr.name, pr.template)
		}
		for i, v := range pr.locals {
			w := f.locals[i]
			if v.lo != w.lo || v.hi != w.hi || v.bool != w.bool {
				return errorf(pr.pos, ErrProgram, "processes %s and %s share template %s but %s and %s differ", f.name, pr.name, pr.template, w, v)
			}
		}
	}
	return nil
}
