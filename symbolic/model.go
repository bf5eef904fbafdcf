package symbolic

import (
	"slices"
	"strings"
)

// Model assigns concrete values to inputs: a witness that a path
// condition is satisfiable. Models are immutable and safe for
// concurrent use; a nil *Model is the empty model.
type Model struct {
	vals []binding // sorted by name, names distinct
}

// binding is one input's value in a Model.
type binding struct {
	name string
	v    Value // concrete, of the input's type
}

// NewModel returns the model that assigns vals (input name → concrete
// Value); non-concrete Values are ignored. It lets callers replay or
// evaluate with inputs of their choosing.
func NewModel(vals map[string]Value) *Model {
	m := &Model{}
	for name, v := range vals {
		if v.IsConcrete() {
			m.vals = append(m.vals, binding{name, v})
		}
	}
	m.sort()
	return m
}

func (m *Model) sort() {
	slices.SortFunc(m.vals, func(a, b binding) int { return strings.Compare(a.name, b.name) })
}

// index returns the position of name in m.vals, or where it would go.
func (m *Model) index(name string) (int, bool) {
	return slices.BinarySearchFunc(m.vals, name, func(b binding, name string) int { return strings.Compare(b.name, name) })
}

// Value returns the value the model gives the input called name.
func (m *Model) Value(name string) (Value, bool) {
	if m == nil {
		return Value{}, false
	}
	if i, ok := m.index(name); ok {
		return m.vals[i].v, true
	}
	return Value{}, false
}

// Names returns the names of the inputs the model assigns, sorted.
func (m *Model) Names() []string {
	if m == nil {
		return nil
	}
	names := make([]string, len(m.vals))
	for i, b := range m.vals {
		names[i] = b.name
	}
	return names
}

// Inputs returns the model as Go values of the inputs' types (int8,
// uint, bool, …), keyed by input name.
func (m *Model) Inputs() map[string]any {
	r := make(map[string]any)
	if m != nil {
		for _, b := range m.vals {
			r[b.name], _ = b.v.Concrete()
		}
	}
	return r
}

// Eval returns the concrete value of v when every input has its value in
// the model. Inputs the model does not assign, or assigns a value of
// another type, count as zero (false): a model leaves unconstrained
// inputs free, so zero is as good a witness as any. Eval of the invalid
// Value is the invalid Value.
func (m *Model) Eval(v Value) Value {
	if v.e == nil {
		return v
	}
	return Value{t: v.t, c: m.eval(v, nil)}
}

// String lists the assignments sorted by name: "a = 3, b = -1".
func (m *Model) String() string {
	if m == nil {
		return ""
	}
	var b strings.Builder
	for i, x := range m.vals {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(x.name)
		b.WriteString(" = ")
		b.WriteString(x.v.String())
	}
	return b.String()
}

// holds reports whether the bool c is true in m.
func (m *Model) holds(c Value) bool {
	if c.e == nil {
		return c.c != 0
	}
	return m.eval(c, nil) != 0
}

// eval returns the bits of v under m. memo caches shared subtrees of
// large expressions; it is allocated lazily.
func (m *Model) eval(v Value, memo map[*node]uint64) uint64 {
	n := v.e
	if n == nil {
		return v.c
	}
	if n.op == opInput {
		if x, ok := m.Value(n.name); ok && x.t == n.t {
			return x.c
		}
		return 0
	}
	if n.size > 32 {
		if memo == nil {
			memo = make(map[*node]uint64)
		}
		if r, ok := memo[n]; ok {
			return r
		}
	}
	x := m.eval(n.x, memo)
	var r uint64
	switch {
	case n.op == opConv:
		r = convert(n.x.t, n.t, x)
	case n.y.t == Invalid: // unary
		r = fold(n.op, n.t, x, 0, Invalid)
	default:
		r = fold(n.op, n.x.t, x, m.eval(n.y, memo), n.y.t)
	}
	if memo != nil {
		memo[n] = r
	}
	return r
}

// with returns a model with the assignments of m, overridden by those
// of o (a merge of the sorted bindings).
func (m *Model) with(o *Model) *Model {
	var a, b []binding
	if m != nil {
		a = m.vals
	}
	if o != nil {
		b = o.vals
	}
	r := &Model{vals: make([]binding, 0, len(a)+len(b))}
	for len(a) > 0 && len(b) > 0 {
		switch c := strings.Compare(a[0].name, b[0].name); {
		case c < 0:
			r.vals, a = append(r.vals, a[0]), a[1:]
		case c > 0:
			r.vals, b = append(r.vals, b[0]), b[1:]
		default:
			r.vals, a, b = append(r.vals, b[0]), a[1:], b[1:]
		}
	}
	r.vals = append(append(r.vals, a...), b...)
	return r
}

// set assigns v to the input called name in a model under
// construction (models are immutable once handed out).
func (m *Model) set(name string, v Value) {
	i, ok := m.index(name)
	if ok {
		m.vals[i].v = v
		return
	}
	m.vals = slices.Insert(m.vals, i, binding{name, v})
}
