package synth

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"io"
	"math"
	"sort"
	"strings"
	"unicode"
)

// WriteGo writes Go source for the controller: package pkg declares
// typeName, a struct whose zero value is the machine's initial state, with
//
//	func (c *T) Step(in TInputs) (out TOutputs, ok bool)
//	func (c *T) Reset()
//
// and the structs TInputs and TOutputs with one field per variable (bool or
// int; names capitalised). Step returns ok=false, and does not move, when
// the inputs violate the environment's assumptions.
func (m *Mealy) WriteGo(w io.Writer, pkg, typeName string) error {
	if err := m.validate(); err != nil {
		return err
	}
	g, err := newGoGen(pkg, typeName, m.Name, m.Inputs, m.Outputs)
	if err != nil {
		return err
	}
	fmt.Fprintf(&g.b, "// %s is a controller synthesized from the GR(1) specification %q: an explicit\n", typeName, m.Name)
	fmt.Fprintf(&g.b, "// Mealy machine with %d states. Its zero value is in the initial state.\n", len(m.States))
	fmt.Fprintf(&g.b, "type %s struct{ state int32 }\n\n", typeName)
	g.structs("Inputs", "the environment's inputs of one step", m.Inputs)
	g.structs("Outputs", "the outputs the controller answers", m.Outputs)
	fmt.Fprintf(&g.b, `// Step reads the inputs of the next step and returns the controller's outputs.
// ok is false, and the controller does not move, when the inputs violate the
// environment's assumptions in the current state.
func (c *%[1]s) Step(in %[1]sInputs) (out %[1]sOutputs, ok bool) {
	key := %[2]sInputKey(in)
	edges := %[2]sEdges[c.state]
	i := sort.Search(len(edges), func(i int) bool { return edges[i].in >= key })
	if i == len(edges) || edges[i].in != key {
		return out, false
	}
	c.state = edges[i].to
	return %[2]sOutputsOf(edges[i].out), true
}

// Reset returns the controller to its initial state.
func (c *%[1]s) Reset() { c.state = 0 }

type %[2]sEdge struct {
	in, out uint64
	to      int32
}

`, typeName, g.prefix)
	g.packFunc("InputKey", "Inputs", m.Inputs)
	g.unpackFunc("OutputsOf", "Outputs", m.Outputs)
	fmt.Fprintf(&g.b, "var %sEdges = [...][]%sEdge{\n", g.prefix, g.prefix)
	for q, s := range m.States {
		fmt.Fprintf(&g.b, "\t{ // state %d\n", q)
		rows := make([][3]uint64, len(s.Edges))
		for i, e := range s.Edges {
			rows[i] = [3]uint64{g.pack(m.Inputs, e.Input), g.pack(m.Outputs, e.Output), uint64(e.To)}
		}
		sort.Slice(rows, func(a, b int) bool { return rows[a][0] < rows[b][0] })
		for _, r := range rows {
			fmt.Fprintf(&g.b, "\t\t{%d, %d, %d},\n", r[0], r[1], r[2])
		}
		fmt.Fprintf(&g.b, "\t},\n")
	}
	fmt.Fprintf(&g.b, "}\n")
	return g.finish(w, true)
}

// WriteGo writes Go source for the counterstrategy: package pkg declares
// typeName, a struct whose zero value is the initial state, with
//
//	func (c *T) Inputs() TInputs          // what the environment gives now
//	func (c *T) Step(out TOutputs) bool   // the system's answer; false if it
//	                                      // violates the guarantees
//	func (c *T) Reset()
func (m *Moore) WriteGo(w io.Writer, pkg, typeName string) error {
	if err := m.validate(); err != nil {
		return err
	}
	g, err := newGoGen(pkg, typeName, m.Name, m.Inputs, m.Outputs)
	if err != nil {
		return err
	}
	fmt.Fprintf(&g.b, "// %s is a winning strategy of the environment for the unrealizable GR(1)\n", typeName)
	fmt.Fprintf(&g.b, "// specification %q, with %d states: it gives inputs such that every system\n", m.Name, len(m.States))
	fmt.Fprintf(&g.b, "// eventually violates the specification. Its zero value is in the initial state.\n")
	fmt.Fprintf(&g.b, "type %s struct{ state int32 }\n\n", typeName)
	g.structs("Inputs", "the inputs the environment gives in one step", m.Inputs)
	g.structs("Outputs", "the system's answer", m.Outputs)
	fmt.Fprintf(&g.b, `// Inputs returns the inputs the environment gives now.
func (c *%[1]s) Inputs() %[1]sInputs { return %[2]sInputsOf(%[2]sEmit[c.state]) }

// Step reads the system's answer to Inputs and moves on. It returns false,
// and does not move, when the answer violates the system's guarantees.
func (c *%[1]s) Step(out %[1]sOutputs) bool {
	key := %[2]sOutputKey(out)
	edges := %[2]sEdges[c.state]
	i := sort.Search(len(edges), func(i int) bool { return edges[i].out >= key })
	if i == len(edges) || edges[i].out != key {
		return false
	}
	c.state = edges[i].to
	return true
}

// Reset returns the strategy to its initial state.
func (c *%[1]s) Reset() { c.state = 0 }

type %[2]sEdge struct {
	out uint64
	to  int32
}

`, typeName, g.prefix)
	g.unpackFunc("InputsOf", "Inputs", m.Inputs)
	g.packFunc("OutputKey", "Outputs", m.Outputs)
	fmt.Fprintf(&g.b, "var %sEmit = [...]uint64{", g.prefix)
	for q, s := range m.States {
		if q > 0 {
			g.b.WriteString(", ")
		}
		fmt.Fprintf(&g.b, "%d", g.pack(m.Inputs, s.Emit))
	}
	fmt.Fprintf(&g.b, "}\n\nvar %sEdges = [...][]%sEdge{\n", g.prefix, g.prefix)
	for q, s := range m.States {
		fmt.Fprintf(&g.b, "\t{ // state %d\n", q)
		rows := make([][2]uint64, len(s.Edges))
		for i, e := range s.Edges {
			rows[i] = [2]uint64{g.pack(m.Outputs, e.Output), uint64(e.To)}
		}
		sort.Slice(rows, func(a, b int) bool { return rows[a][0] < rows[b][0] })
		for _, r := range rows {
			fmt.Fprintf(&g.b, "\t\t{%d, %d},\n", r[0], r[1])
		}
		fmt.Fprintf(&g.b, "\t},\n")
	}
	fmt.Fprintf(&g.b, "}\n")
	return g.finish(w, true)
}

type goGen struct {
	b        bytes.Buffer
	typeName string
	prefix   string // unexported prefix for helpers
	fields   map[string]string
}

func newGoGen(pkg, typeName, specName string, inputs, outputs []Var) (*goGen, error) {
	for _, vs := range [][]Var{inputs, outputs} {
		radix := 1.0
		for _, v := range vs {
			radix *= float64(v.Hi - v.Lo + 1)
		}
		if radix > math.MaxUint64/2 {
			return nil, fmt.Errorf("synth: %s: too many variable values to pack into 64 bits: %w", specName, ErrTooLarge)
		}
	}
	return newGoGenImports(pkg, typeName, specName, inputs, outputs, "sort")
}

// newGoGenImports starts Go source declaring package pkg with the imports.
func newGoGenImports(pkg, typeName, specName string, inputs, outputs []Var, imports ...string) (*goGen, error) {
	if !token.IsIdentifier(pkg) {
		return nil, fmt.Errorf("synth: %q is not a package name", pkg)
	}
	if !token.IsIdentifier(typeName) || !token.IsExported(typeName) {
		return nil, fmt.Errorf("synth: %q is not an exported Go type name", typeName)
	}
	r := []rune(typeName)
	r[0] = unicode.ToLower(r[0])
	g := &goGen{typeName: typeName, prefix: string(r), fields: map[string]string{}}
	used := map[string]bool{}
	for _, vs := range [][]Var{inputs, outputs} {
		for _, v := range vs {
			g.fields[v.Name] = fieldName(v.Name, used)
		}
	}
	fmt.Fprintf(&g.b, "// Code generated by henceforth's synth package from %q; DO NOT EDIT.\n\n", specName)
	fmt.Fprintf(&g.b, "package %s\n\n", pkg)
	for _, imp := range imports {
		fmt.Fprintf(&g.b, "import %q\n\n", imp)
	}
	return g, nil
}

// fieldName makes an exported Go identifier from a variable name.
func fieldName(name string, used map[string]bool) string {
	var b strings.Builder
	upper := true
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			upper = true
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
			upper = false
		}
		b.WriteRune(r)
	}
	s := b.String()
	if s == "" || !unicode.IsLetter([]rune(s)[0]) {
		s = "V" + s
	}
	base := s
	for k := 2; used[s]; k++ {
		s = fmt.Sprintf("%s%d", base, k)
	}
	used[s] = true
	return s
}

func (g *goGen) structs(suffix, doc string, vars []Var) {
	fmt.Fprintf(&g.b, "// %s%s are %s.\ntype %s%s struct {\n", g.typeName, suffix, doc, g.typeName, suffix)
	for _, v := range vars {
		if v.Bool {
			fmt.Fprintf(&g.b, "\t%s bool // %s\n", g.fields[v.Name], v.Name)
		} else {
			fmt.Fprintf(&g.b, "\t%s int // %s: %d...%d\n", g.fields[v.Name], v.Name, v.Lo, v.Hi)
		}
	}
	fmt.Fprintf(&g.b, "}\n\n")
}

// pack encodes values in mixed radix, the first variable least significant.
func (g *goGen) pack(vars []Var, vals []int) uint64 {
	var key, radix uint64 = 0, 1
	for i, v := range vars {
		key += uint64(vals[i]-v.Lo) * radix
		radix *= uint64(v.Hi - v.Lo + 1)
	}
	return key
}

func (g *goGen) packFunc(name, suffix string, vars []Var) {
	fmt.Fprintf(&g.b, "func %s%s(v %s%s) uint64 {\n\tvar key, radix uint64 = 0, 1\n", g.prefix, name, g.typeName, suffix)
	for _, v := range vars {
		f := g.fields[v.Name]
		if v.Bool {
			fmt.Fprintf(&g.b, "\tif v.%s {\n\t\tkey += radix\n\t}\n\tradix *= 2\n", f)
		} else {
			fmt.Fprintf(&g.b, "\tkey += uint64(v.%s-(%d)) * radix\n\tradix *= %d\n", f, v.Lo, v.Hi-v.Lo+1)
		}
	}
	fmt.Fprintf(&g.b, "\t_ = radix\n\treturn key\n}\n\n")
}

func (g *goGen) unpackFunc(name, suffix string, vars []Var) {
	fmt.Fprintf(&g.b, "func %s%s(key uint64) (v %s%s) {\n", g.prefix, name, g.typeName, suffix)
	for _, v := range vars {
		f := g.fields[v.Name]
		n := v.Hi - v.Lo + 1
		if v.Bool {
			fmt.Fprintf(&g.b, "\tv.%s = key%%2 == 1\n\tkey /= 2\n", f)
		} else {
			fmt.Fprintf(&g.b, "\tv.%s = int(key%%%d) + (%d)\n\tkey /= %d\n", f, n, v.Lo, n)
		}
	}
	fmt.Fprintf(&g.b, "\t_ = key\n\treturn v\n}\n\n")
}

func (g *goGen) finish(w io.Writer, gofmt bool) error {
	src := g.b.Bytes()
	if gofmt {
		formatted, err := format.Source(src)
		if err != nil {
			return fmt.Errorf("synth: generated Go does not parse (a bug): %w", err)
		}
		src = formatted
	}
	_, err := w.Write(src)
	return err
}
