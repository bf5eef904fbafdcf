package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/henceforth-go/henceforth/synth"
)

// circuitFlags are ltl synth's flags for the symbolic controller and the
// memory bound.
type circuitFlags struct {
	explicit  bool
	check     bool
	aiger     string
	maxMemory string
}

func (f *circuitFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.explicit, "explicit", false, "enumerate the controller as an explicit Mealy machine")
	fs.BoolVar(&f.check, "check", true, "model-check the symbolic controller before writing it")
	fs.StringVar(&f.aiger, "aiger", "", "write the controller as an AIGER circuit to `FILE` (.aig binary, else ASCII)")
	fs.StringVar(&f.maxMemory, "max-memory", "", "bound on the BDDs' memory (`size`, e.g. 4GB)")
}

// options returns the synth options the flags ask for.
func (f *circuitFlags) options() ([]synth.Option, error) {
	if f.maxMemory == "" {
		return nil, nil
	}
	n, err := parseSize(f.maxMemory)
	if err != nil {
		return nil, fmt.Errorf("-max-memory: %w", err)
	}
	return []synth.Option{synth.WithMemoryLimit(n)}, nil
}

// parseSize reads a byte count: a number with an optional unit B, KB, MB,
// GB or TB (powers of 1024; KiB, MiB… too).
func parseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	for i, u := range []string{"K", "M", "G", "T"} {
		if strings.HasSuffix(t, u) {
			t = strings.TrimSuffix(t, u)
			mult = int64(1) << (10 * (i + 1))
			break
		}
	}
	x, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || x <= 0 || x*float64(mult) > 1<<62 {
		return 0, fmt.Errorf("%q is not a size such as 512MB or 4GB", s)
	}
	return int64(x * float64(mult)), nil
}

// writeCircuit determinizes the controller of a realizable spec into a
// circuit, checks it against the spec (unless -check=false) and writes it
// where the flags say.
func writeCircuit(ctx context.Context, e *env, spec *synth.Spec, res *synth.Result, f synthFlags, opts []synth.Option, unknown func(error) error) (int, error) {
	c, err := res.Controller(ctx)
	if err != nil {
		return 2, unknown(inPhase("extraction of the strategy", err))
	}
	circ, err := c.Circuit(ctx)
	if err != nil {
		return 2, unknown(inPhase("determinization", err))
	}
	aig, err := circ.AIG()
	if err != nil {
		return 2, err
	}
	checked := "not checked (-check=false)"
	if f.check {
		if err := synth.CheckAIG(ctx, spec, aig, opts...); err != nil {
			return 2, unknown(inPhase("check of the circuit", err))
		}
		checked = "checked against the spec"
	}
	typeName := orDefault(f.typeName, "Controller")
	write := func(w io.Writer, format string) error {
		switch format {
		case "go":
			return circ.WriteGo(w, f.pkg, typeName)
		case "dot":
			return circ.WriteDOT(w)
		case "aag":
			return aig.WriteAAG(w)
		case "aig":
			return aig.WriteAIG(w)
		}
		return circ.WriteJSON(w)
	}
	summary := fmt.Sprintf("controller (circuit of %d decision nodes, %d and-gates, %s)", circ.NumNodes(), aig.NumAnds(), checked)
	for _, out := range []struct{ path, format string }{
		{f.strategy, circuitFormat(f.strategy)},
		{f.aiger, aigerFormat(f.aiger)},
	} {
		if out.path == "" {
			continue
		}
		var b bytes.Buffer
		if err := write(&b, out.format); err != nil {
			return 2, err
		}
		if err := os.WriteFile(out.path, b.Bytes(), 0o644); err != nil {
			return 2, err
		}
		fmt.Fprintf(e.stdout, "%s written to %s\n", summary, out.path)
	}
	format := ""
	switch {
	case f.goSrc:
		format = "go"
	case f.json:
		format = "json"
	case f.dot:
		format = "dot"
	}
	if format != "" {
		var b bytes.Buffer
		if err := write(&b, format); err != nil {
			return 2, err
		}
		if _, err := e.stdout.Write(b.Bytes()); err != nil {
			return 2, err
		}
	}
	return 0, nil
}

// phaseError is an error of one phase of ltl synth (realizability,
// determinization…), which an "unknown" answer names.
type phaseError struct {
	phase string
	err   error
}

func (e *phaseError) Error() string { return e.phase + ": " + e.err.Error() }
func (e *phaseError) Unwrap() error { return e.err }

// inPhase wraps err, if not nil, as an error of phase.
func inPhase(phase string, err error) error {
	if err == nil {
		return nil
	}
	return &phaseError{phase, err}
}

// circuitFormat chooses the format of -strategy FILE for a circuit.
func circuitFormat(path string) string {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".aag", ".aig":
		return ext[1:]
	}
	return machineFormat(path)
}

// aigerFormat chooses the AIGER encoding of -aiger FILE.
func aigerFormat(path string) string {
	if strings.EqualFold(filepath.Ext(path), ".aig") {
		return "aig"
	}
	return "aag"
}
