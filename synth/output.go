package synth

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// jsonVar is a variable in the JSON forms of machines.
type jsonVar struct {
	Name string `json:"name"`
	Type string `json:"type"` // "bool" or "int"
	Lo   *int   `json:"lo,omitempty"`
	Hi   *int   `json:"hi,omitempty"`
}

func jsonVars(vs []Var) []jsonVar {
	out := make([]jsonVar, len(vs))
	for i, v := range vs {
		out[i] = jsonVar{Name: v.Name, Type: "bool"}
		if !v.Bool {
			lo, hi := v.Lo, v.Hi
			out[i] = jsonVar{Name: v.Name, Type: "int", Lo: &lo, Hi: &hi}
		}
	}
	return out
}

// WriteJSON writes the machine as JSON:
//
//	{"name": …, "kind": "mealy", "inputs": [{"name","type","lo","hi"}…],
//	 "outputs": […], "initial": 0,
//	 "states": [{"id", "goal", "edges": [{"in": [values], "out": [values],
//	             "to": id, "kind": "switch-goal"|"get-closer"|"stay"|"init"}]}]}
//
// Values are listed in the order of inputs and outputs, Booleans as 0/1.
func (m *Mealy) WriteJSON(w io.Writer) error {
	type edge struct {
		In   []int  `json:"in"`
		Out  []int  `json:"out"`
		To   int    `json:"to"`
		Kind string `json:"kind"`
	}
	type st struct {
		ID    int    `json:"id"`
		Goal  int    `json:"goal"`
		Edges []edge `json:"edges"`
	}
	doc := struct {
		jsonHeader
		States []st `json:"states"`
	}{jsonHeader: newJSONHeader(m.Name, "mealy", m.Inputs, m.Outputs)}
	for q, s := range m.States {
		js := st{ID: q, Goal: s.Goal, Edges: []edge{}}
		for _, e := range s.Edges {
			js.Edges = append(js.Edges, edge{In: e.Input, Out: e.Output, To: e.To, Kind: e.Kind.String()})
		}
		doc.States = append(doc.States, js)
	}
	return writeIndented(w, doc)
}

// jsonHeader is the common part of the JSON forms of machines.
type jsonHeader struct {
	Name    string    `json:"name"`
	Kind    string    `json:"kind"`
	Inputs  []jsonVar `json:"inputs"`
	Outputs []jsonVar `json:"outputs"`
	Initial int       `json:"initial"`
}

func newJSONHeader(name, kind string, inputs, outputs []Var) jsonHeader {
	return jsonHeader{Name: name, Kind: kind, Inputs: jsonVars(inputs), Outputs: jsonVars(outputs)}
}

func writeIndented(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(doc)
}

// WriteJSON writes the counterstrategy as JSON, like Mealy.WriteJSON but with
// "kind": "moore", each state's "emit" (the inputs the environment gives)
// and edges {"out": [system outputs], "to": id}.
func (m *Moore) WriteJSON(w io.Writer) error {
	type edge struct {
		Out []int `json:"out"`
		To  int   `json:"to"`
	}
	type st struct {
		ID         int    `json:"id"`
		Emit       []int  `json:"emit"`
		Assumption int    `json:"assumption"`
		Starves    int    `json:"starves"`
		Edges      []edge `json:"edges"`
	}
	doc := struct {
		jsonHeader
		States []st `json:"states"`
	}{jsonHeader: newJSONHeader(m.Name, "moore", m.Inputs, m.Outputs)}
	for q, s := range m.States {
		js := st{ID: q, Emit: s.Emit, Assumption: s.Assumption, Starves: s.Starves, Edges: []edge{}}
		for _, e := range s.Edges {
			js.Edges = append(js.Edges, edge{Out: e.Output, To: e.To})
		}
		doc.States = append(doc.States, js)
	}
	return writeIndented(w, doc)
}

// valueLabel prints a valuation compactly: Booleans as name or !name,
// integers as name=v.
func valueLabel(vars []Var, vals []int) string {
	parts := make([]string, len(vars))
	for i, v := range vars {
		switch {
		case !v.Bool:
			parts[i] = fmt.Sprintf("%s=%d", v.Name, vals[i])
		case vals[i] == 1:
			parts[i] = v.Name
		default:
			parts[i] = "!" + v.Name
		}
	}
	return strings.Join(parts, " ")
}

func dotQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// WriteDOT writes the machine in Graphviz DOT: one node per state (labelled
// with the guarantee it pursues) and one edge per transition labelled
// "inputs / outputs".
func (m *Mealy) WriteDOT(w io.Writer) error {
	if err := m.validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "digraph %s {\n  rankdir=LR;\n  node [shape=circle];\n  init [shape=point];\n  init -> q0;\n", dotQuote(m.Name))
	for q, s := range m.States {
		label := "start"
		if q > 0 {
			label = fmt.Sprintf("q%d\\ngoal %d", q, s.Goal)
		}
		fmt.Fprintf(bw, "  q%d [label=\"%s\"];\n", q, label)
	}
	for q, s := range m.States {
		for _, e := range s.Edges {
			fmt.Fprintf(bw, "  q%d -> q%d [label=%s];\n", q, e.To, dotQuote(valueLabel(m.Inputs, e.Input)+" / "+valueLabel(m.Outputs, e.Output)))
		}
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}

// WriteDOT writes the counterstrategy in Graphviz DOT: each state is
// labelled with the inputs the environment gives there, each edge with the
// system's answer.
func (m *Moore) WriteDOT(w io.Writer) error {
	if err := m.validate(); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "digraph %s {\n  rankdir=LR;\n  node [shape=box];\n  init [shape=point];\n  init -> q0;\n", dotQuote(m.Name))
	for q, s := range m.States {
		fmt.Fprintf(bw, "  q%d [label=%s];\n", q, dotQuote(fmt.Sprintf("q%d\n%s", q, valueLabel(m.Inputs, s.Emit))))
	}
	for q, s := range m.States {
		for _, e := range s.Edges {
			fmt.Fprintf(bw, "  q%d -> q%d [label=%s];\n", q, e.To, dotQuote(valueLabel(m.Outputs, e.Output)))
		}
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}
