package synth

import (
	"fmt"
	"io"
	"strings"
)

// WriteGo writes Go source for the circuit with the same API as the
// explicit machines' (Mealy.WriteGo): package pkg declares typeName, a
// struct whose zero value is the initial state, with
//
//	func (c *T) Step(in TInputs) (out TOutputs, ok bool)
//	func (c *T) Reset()
//
// and the structs TInputs and TOutputs. The decision graph becomes a table
// of nodes that Step walks once per computed bit: the source grows
// linearly with the number of nodes (about 20 bytes each), and a step
// costs at most the graph's depth per bit. Step returns ok=false, and does
// not move, when the inputs violate the environment's assumptions.
func (c *Circuit) WriteGo(w io.Writer, pkg, typeName string) error {
	if err := c.Validate(); err != nil {
		return err
	}
	g, err := newGoGenImports(pkg, typeName, c.Name, c.Inputs, c.Outputs)
	if err != nil {
		return err
	}
	nL, nSig, nC := len(c.Latches), len(c.Latches)+len(c.InputBits), len(c.ComputedBits)
	p := g.prefix
	fmt.Fprintf(&g.b, "// %s is a controller synthesized from the GR(1) specification %q: a\n", typeName, c.Name)
	fmt.Fprintf(&g.b, "// circuit of %d decision nodes with %d latches. Its zero value is in the\n// initial state.\n", len(c.Nodes), nL)
	fmt.Fprintf(&g.b, "type %s struct {\n\tstarted bool\n\tlatch   [%d]bool\n}\n\n", typeName, nL)
	g.structs("Inputs", "the environment's inputs of one step", c.Inputs)
	g.structs("Outputs", "the outputs the controller answers", c.Outputs)
	fmt.Fprintf(&g.b, `// Step reads the inputs of the next step and returns the controller's outputs.
// ok is false, and the controller does not move, when the inputs violate the
// environment's assumptions in the current state.
func (c *%[1]s) Step(in %[1]sInputs) (out %[1]sOutputs, ok bool) {
	var sig [%[3]d]bool
	copy(sig[:], c.latch[:])
`, typeName, p, nSig)
	k := nL
	for _, v := range c.Inputs {
		f := g.fields[v.Name]
		if v.Bool {
			fmt.Fprintf(&g.b, "\tsig[%d] = in.%s\n", k, f)
			k++
			continue
		}
		fmt.Fprintf(&g.b, "\tif in.%[1]s < %[2]d || in.%[1]s > %[3]d {\n\t\treturn out, false\n\t}\n", f, v.Lo, v.Hi)
		for b := range intWidth(v) {
			fmt.Fprintf(&g.b, "\tsig[%d] = (in.%s-(%d))>>%d&1 == 1\n", k, f, v.Lo, b)
			k++
		}
	}
	fmt.Fprintf(&g.b, `	roots := &%[1]sStep
	if !c.started {
		roots = &%[1]sInit
	}
	if !%[1]sEval(&sig, roots.legal) {
		return out, false
	}
	var bits [%[2]d]bool
	for k, r := range roots.computed {
		bits[k] = %[1]sEval(&sig, r)
	}
`, p, nC)
	k = 0
	for _, v := range c.Outputs {
		f := g.fields[v.Name]
		if v.Bool {
			fmt.Fprintf(&g.b, "\tout.%s = bits[%d]\n", f, k)
			k++
			continue
		}
		var terms []string
		for b := range intWidth(v) {
			terms = append(terms, fmt.Sprintf("%sBit(bits[%d])<<%d", p, k, b))
			k++
		}
		fmt.Fprintf(&g.b, "\tout.%s = %d + (%s)\n", f, v.Lo, strings.Join(terms, " | "))
	}
	for l, x := range c.Next {
		if x >= 0 {
			fmt.Fprintf(&g.b, "\tc.latch[%d] = sig[%d] // %s\n", l, x, c.Latches[l])
		} else {
			fmt.Fprintf(&g.b, "\tc.latch[%d] = bits[%d] // %s\n", l, -x-1, c.Latches[l])
		}
	}
	fmt.Fprintf(&g.b, `	c.started = true
	return out, true
}

// Reset returns the controller to its initial state.
func (c *%[1]s) Reset() { *c = %[1]s{} }

func %[2]sBit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// %[2]sEval walks the decision graph from node n: node i ≥ 2 is
// %[2]sNodes[i-2] = {signal, low, high}; 0 and 1 are false and true.
func %[2]sEval(sig *[%[3]d]bool, n int32) bool {
	for n >= 2 {
		d := &%[2]sNodes[n-2]
		if sig[d[0]] {
			n = d[2]
		} else {
			n = d[1]
		}
	}
	return n == 1
}

type %[2]sRoots struct {
	legal    int32
	computed [%[4]d]int32
}

`, typeName, p, nSig, nC)
	for _, r := range []struct {
		name  string
		roots CircuitRoots
	}{{"Init", c.Init}, {"Step", c.Step}} {
		fmt.Fprintf(&g.b, "var %s%s = %sRoots{%d, [%d]int32{", p, r.name, p, r.roots.Legal, nC)
		for k, x := range r.roots.Computed {
			if k > 0 {
				g.b.WriteString(", ")
			}
			fmt.Fprintf(&g.b, "%d", x)
		}
		g.b.WriteString("}}\n\n")
	}
	fmt.Fprintf(&g.b, "var %sNodes = [...][3]int32{\n", p)
	for i, n := range c.Nodes {
		if i%6 == 0 {
			g.b.WriteString("\t")
		}
		fmt.Fprintf(&g.b, "{%d, %d, %d},", n.Signal, n.Lo, n.Hi)
		if i%6 == 5 || i == len(c.Nodes)-1 {
			g.b.WriteString("\n")
		} else {
			g.b.WriteString(" ")
		}
	}
	g.b.WriteString("}\n")
	return g.finish(w, true)
}
