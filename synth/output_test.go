package synth

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func arbiterMachine(t *testing.T) (*Spec, *Mealy) {
	t.Helper()
	spec, err := ParseFile(filepath.Join("testdata", "specs", "arbiter.structuredslugs"))
	require.NoError(t, err)
	ctx := context.Background()
	res, err := spec.Realizable(ctx)
	require.NoError(t, err)
	c, err := res.Controller(ctx)
	require.NoError(t, err)
	m, err := c.Mealy(ctx, 0)
	require.NoError(t, err)
	return spec, m
}

func conflictCounter(t *testing.T) (*Spec, *Moore) {
	t.Helper()
	spec, err := ParseFile(filepath.Join("testdata", "specs", "conflict.slugsin"))
	require.NoError(t, err)
	ctx := context.Background()
	res, err := spec.Realizable(ctx)
	require.NoError(t, err)
	cs, err := res.Counterstrategy(ctx)
	require.NoError(t, err)
	m, err := cs.Moore(ctx, 0)
	require.NoError(t, err)
	return spec, m
}

func TestMealyJSON(t *testing.T) {
	_, m := arbiterMachine(t)
	var b bytes.Buffer
	require.NoError(t, m.WriteJSON(&b))
	var doc struct {
		Kind    string `json:"kind"`
		Inputs  []struct{ Name, Type string }
		Outputs []struct {
			Name, Type string
			Lo, Hi     *int
		}
		States []struct {
			ID    int
			Goal  int
			Edges []struct {
				In, Out []int
				To      int
				Kind    string
			}
		}
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc))
	assert.Equal(t, "mealy", doc.Kind)
	assert.Equal(t, "req0", doc.Inputs[0].Name)
	assert.Equal(t, "int", doc.Outputs[2].Type)
	assert.Equal(t, 2, *doc.Outputs[2].Hi)
	require.Len(t, doc.States, len(m.States))
	for q, s := range doc.States {
		require.Len(t, s.Edges, len(m.States[q].Edges))
		for k, e := range s.Edges {
			want := m.States[q].Edges[k]
			assert.Equal(t, want.Input, e.In)
			assert.Equal(t, want.Output, e.Out)
			assert.Equal(t, want.To, e.To)
			assert.Equal(t, want.Kind.String(), e.Kind)
		}
	}
	assert.Equal(t, "init", doc.States[0].Edges[0].Kind)
}

func TestDOT(t *testing.T) {
	_, m := arbiterMachine(t)
	var b bytes.Buffer
	require.NoError(t, m.WriteDOT(&b))
	out := b.String()
	assert.True(t, strings.HasPrefix(out, `digraph "arbiter" {`))
	assert.Equal(t, m.NumEdges()+1, strings.Count(out, " -> q"), "edges and the start arrow")
	assert.Contains(t, out, `q0 -> q1 [label="!req0 !req1 / !grant0 !grant1 owner=2"]`)

	_, cm := conflictCounter(t)
	b.Reset()
	require.NoError(t, cm.WriteDOT(&b))
	assert.Equal(t, cm.NumEdges()+1, strings.Count(b.String(), " -> q"))
	var js bytes.Buffer
	require.NoError(t, cm.WriteJSON(&js))
	assert.Contains(t, js.String(), `"kind": "moore"`)
}

// TestGeneratedGo compiles the generated controller and counterstrategy with
// a driver that plays them against each other's spec, and compares the
// outputs with the machines'.
func TestGeneratedGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	_, m := arbiterMachine(t)
	_, cm := conflictCounter(t)
	dir := t.TempDir()
	var ctrl, env bytes.Buffer
	require.NoError(t, m.WriteGo(&ctrl, "main", "Arbiter"))
	require.NoError(t, cm.WriteGo(&env, "main", "Adversary"))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "arbiter.go"), ctrl.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "adversary.go"), env.Bytes(), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gen\n\ngo 1.22\n"), 0o644))
	driver := `package main

import "fmt"

func main() {
	var c Arbiter
	ins := []ArbiterInputs{{}, {Req0: true}, {Req0: true, Req1: true}, {Req1: true}, {}, {Req0: true}}
	for _, in := range ins {
		out, ok := c.Step(in)
		fmt.Println(ok, out.Grant0, out.Grant1, out.Owner)
	}
	_, ok := c.Step(ArbiterInputs{})
	fmt.Println("after", ok)
	c.Reset()
	_, ok = c.Step(ArbiterInputs{Req0: true})
	fmt.Println("reset", ok)
	var a Adversary
	for i := 0; i < 5; i++ {
		in := a.Inputs()
		fmt.Println("env", in.A, in.B)
		if !a.Step(AdversaryOutputs{X: in.A, Y: !in.A}) {
			fmt.Println("lost")
			break
		}
	}
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(driver), 0o644))
	cmd := exec.Command(goBin, "run", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	got, err := cmd.CombinedOutput()
	require.NoError(t, err, string(got))

	// The same run on the explicit machines.
	var want strings.Builder
	run := m.Run()
	for _, in := range []map[string]int{{"req0": 0, "req1": 0}, {"req0": 1, "req1": 0}, {"req0": 1, "req1": 1}, {"req0": 0, "req1": 1}, {"req0": 0, "req1": 0}, {"req0": 1, "req1": 0}} {
		out, err := run.Step(in)
		if err != nil {
			want.WriteString("false false false 0\n")
			continue
		}
		want.WriteString(strings.Join([]string{"true", boolText(out["grant0"]), boolText(out["grant1"]), itoa(out["owner"])}, " ") + "\n")
	}
	_, err = run.Step(map[string]int{"req0": 0, "req1": 0})
	want.WriteString("after " + boolText(b2i(err == nil)) + "\n")
	want.WriteString("reset false\n")
	cr := cm.Run()
	for range 5 {
		in := cr.Inputs()
		want.WriteString("env " + boolText(in["a"]) + " " + boolText(in["b"]) + "\n")
		if cr.Step(map[string]int{"x": in["a"], "y": 1 - in["a"]}) != nil {
			want.WriteString("lost\n")
			break
		}
	}
	assert.Equal(t, want.String(), string(got))
}

func boolText(v int) string {
	if v == 1 {
		return "true"
	}
	return "false"
}

func itoa(v int) string { return strconv.Itoa(v) }

func TestGenerateErrors(t *testing.T) {
	_, m := arbiterMachine(t)
	var b bytes.Buffer
	assert.Error(t, m.WriteGo(&b, "main", "arbiter"), "unexported type name")
	assert.Error(t, m.WriteGo(&b, "1x", "Arbiter"), "bad package name")
	assert.Equal(t, "Req0", fieldName("req0", map[string]bool{}))
	used := map[string]bool{}
	assert.Equal(t, "N0Lo", fieldName("n@0.lo", used))
	assert.Equal(t, "N0Lo2", fieldName("n_0-lo", used))
	assert.Equal(t, "V9lives", fieldName("9lives", used))
}

func TestMinimizeKeepsBehaviour(t *testing.T) {
	spec, m := arbiterMachine(t)
	min := m.Minimize()
	assert.Less(t, len(min.States), len(m.States), "the arbiter's controller has equivalent states")
	require.NoError(t, min.Verify(context.Background(), spec))
	// Same outputs on the same inputs.
	a, b := m.Run(), min.Run()
	for _, in := range [][]int{{0, 0}, {1, 0}, {1, 1}, {0, 1}, {1, 1}, {0, 0}} {
		x, errA := a.StepValues(in)
		y, errB := b.StepValues(in)
		assert.Equal(t, errA == nil, errB == nil)
		assert.Equal(t, x, y)
	}
}

// TestVerifyFindsBrokenControllers breaks a correct controller in two ways
// and expects the violations, with their behaviours.
func TestVerifyFindsBrokenControllers(t *testing.T) {
	spec, m := arbiterMachine(t)
	ctx := context.Background()
	// Safety: grant both clients on some edge.
	broken := *m
	broken.States = append([]MealyState(nil), m.States...)
	q := broken.States[0].Edges[0].To
	edges := append([]Edge(nil), broken.States[q].Edges...)
	edges[0].Output = []int{1, 1, 0}
	broken.States[q].Edges = edges
	err := broken.Verify(ctx, spec)
	var v *Violation
	require.ErrorAs(t, err, &v)
	assert.Equal(t, SafetyViolation, v.Kind)
	assert.Len(t, v.Stem, 2)
	assert.Contains(t, v.Error(), "violate")

	// Liveness: a machine that never grants (and stays in one state).
	never := &Mealy{Name: "never", Inputs: m.Inputs, Outputs: m.Outputs, States: []MealyState{{Goal: -1}, {Goal: 0}}}
	for _, in := range [][]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}} {
		e := Edge{Input: in, Output: []int{0, 0, 2}, To: 1}
		if in[0] == 0 && in[1] == 0 {
			never.States[0].Edges = append(never.States[0].Edges, e)
		}
		never.States[1].Edges = append(never.States[1].Edges, e)
	}
	err = never.Verify(ctx, spec)
	require.ErrorAs(t, err, &v)
	assert.Equal(t, LivenessViolation, v.Kind)
	assert.NotEmpty(t, v.Loop)
	assert.Contains(t, v.Msg, "never meets liveness guarantee")

	// Incomplete: drop an edge.
	partial := *m
	partial.States = append([]MealyState(nil), m.States...)
	partial.States[q].Edges = m.States[q].Edges[1:]
	err = partial.Verify(ctx, spec)
	require.ErrorAs(t, err, &v)
	assert.Equal(t, Incomplete, v.Kind)
}

func TestVerifyRejectsMalformedMachines(t *testing.T) {
	spec, m := arbiterMachine(t)
	ctx := context.Background()
	assert.Error(t, (&Mealy{}).Verify(ctx, spec))
	bad := *m
	bad.States = []MealyState{{Edges: []Edge{{Input: []int{0, 0}, Output: []int{0, 0, 2}, To: 7}}}}
	assert.ErrorContains(t, bad.Verify(ctx, spec), "malformed edge")
	assert.Error(t, (&Moore{}).Verify(ctx, spec))
	// A machine over other variables (here: renamed, or with another
	// range) is not checked against the spec.
	renamed := *m
	renamed.Inputs = append([]Var(nil), m.Inputs...)
	renamed.Inputs[0].Name = "request0"
	assert.ErrorContains(t, renamed.Verify(ctx, spec), "different variables")
	wider := *m
	wider.Outputs = append([]Var(nil), m.Outputs...)
	wider.Outputs[2].Hi++
	assert.ErrorContains(t, wider.Verify(ctx, spec), "different variables")
	require.NoError(t, m.Verify(ctx, spec))
}
