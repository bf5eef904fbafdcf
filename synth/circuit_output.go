package synth

import (
	"bufio"
	"fmt"
	"io"
)

// WriteJSON writes the circuit as JSON: the header of the machines' JSON
// form (name, kind "circuit", inputs, outputs), the signals (latches then
// input bits, as "var@bit"), the computed bits, the nodes as [signal, low,
// high] triples (node i has id i+2; 0 and 1 are false and true), the roots
// of the first and later steps, and each latch's next value (a signal
// index ≥ 0, or -k-1 for computed bit k).
func (c *Circuit) WriteJSON(w io.Writer) error {
	if err := c.Validate(); err != nil {
		return err
	}
	type roots struct {
		Legal    int32   `json:"legal"`
		Computed []int32 `json:"computed"`
	}
	doc := struct {
		jsonHeader
		Latches  []string   `json:"latches"`
		Inputs   []string   `json:"input_bits"`
		Computed []string   `json:"computed_bits"`
		Nodes    [][3]int32 `json:"nodes"`
		Init     roots      `json:"init"`
		Step     roots      `json:"step"`
		Next     []int      `json:"next"`
	}{jsonHeader: newJSONHeader(c.Name, "circuit", c.Inputs, c.Outputs)}
	names := func(bits []CircuitBit) []string {
		out := make([]string, len(bits))
		for i, b := range bits {
			out[i] = b.String()
		}
		return out
	}
	doc.Latches, doc.Inputs, doc.Computed = names(c.Latches), names(c.InputBits), names(c.ComputedBits)
	doc.Nodes = make([][3]int32, len(c.Nodes))
	for i, n := range c.Nodes {
		doc.Nodes[i] = [3]int32{n.Signal, n.Lo, n.Hi}
	}
	doc.Init = roots{c.Init.Legal, c.Init.Computed}
	doc.Step = roots{c.Step.Legal, c.Step.Computed}
	doc.Next = c.Next
	return writeIndented(w, doc)
}

// WriteDOT writes the decision graph in Graphviz DOT: one node per decision
// node labelled with the signal it reads (dashed edge: 0, solid: 1), a box
// per root ("init:" or "step:" and what it computes).
func (c *Circuit) WriteDOT(w io.Writer) error {
	if err := c.Validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "digraph %s {\n  node [shape=ellipse];\n  n0 [shape=box,label=\"0\"];\n  n1 [shape=box,label=\"1\"];\n", dotQuote(c.Name))
	signal := func(s int32) string {
		if int(s) < len(c.Latches) {
			return c.Latches[s].String()
		}
		return c.InputBits[int(s)-len(c.Latches)].String() + "'"
	}
	for i, n := range c.Nodes {
		id := i + 2
		fmt.Fprintf(bw, "  n%d [label=%s];\n  n%d -> n%d [style=dashed];\n  n%d -> n%d;\n", id, dotQuote(signal(n.Signal)), id, n.Lo, id, n.Hi)
	}
	for _, r := range []struct {
		kind  string
		roots CircuitRoots
	}{{"init", c.Init}, {"step", c.Step}} {
		fmt.Fprintf(bw, "  %s_legal [shape=box,label=%s];\n  %s_legal -> n%d;\n", r.kind, dotQuote(r.kind+": legal inputs"), r.kind, r.roots.Legal)
		for k, x := range r.roots.Computed {
			fmt.Fprintf(bw, "  %s_%d [shape=box,label=%s];\n  %s_%d -> n%d;\n", r.kind, k, dotQuote(r.kind+": "+c.ComputedBits[k].String()), r.kind, k, x)
		}
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}
