package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/henceforth-go/henceforth/synth"
)

const synthUsage = `Usage: ltl synth [-format slugsin|structuredslugs|tlsf] [-strategy FILE] [-emit slugsin]
                 [-go] [-json] [-dot] [-aiger FILE] [-explicit] [-check=false] [-pkg NAME]
                 [-type NAME] [-max-states N] [-max-memory SIZE] [-timeout D] FILE
       ltl synth [-trace] [flags as above] BASE.altl [ASPECT.altl …]

Decides whether the GR(1) specification in FILE is realizable: whether some
system meets its guarantees against every environment that keeps its
assumptions. Prints "realizable" or "unrealizable" on the first line; for an
unrealizable spec, then the unrealizable core: a minimal set of guarantees
that already conflict, each with its position.

FILE is a Slugs .slugsin or .structuredslugs file or a basic TLSF file
(SEMANTICS Mealy or Mealy,Strict); the format comes from the extension
unless -format names it. FILE "-" (or none) reads standard input, which
needs -format.

  -emit slugsin   print the spec in .slugsin (for other tools) and stop
  -strategy FILE  write the controller (realizable) or the environment's
                  counterstrategy (unrealizable) to FILE: Go source for .go,
                  Graphviz for .dot or .gv, AIGER for .aag and .aig, JSON
                  otherwise
  -aiger FILE     write the controller as an AIGER circuit (SYNTCOMP's
                  conventions): binary for .aig, ASCII otherwise
  -go, -json, -dot
                  print the controller or counterstrategy after the verdict
                  (use -strategy to get a file with nothing else in it)
  -pkg, -type     package and type name of the Go source (default
                  "controller" and "Controller" or "Counterstrategy")
  -explicit       enumerate the controller as an explicit Mealy machine
                  (small specs) instead of the symbolic circuit: a decision
                  graph per output bit, which Go, JSON and DOT print and
                  which is model-checked against the spec before it is
                  written (-check=false skips the check)
  -max-states N   bound on the explicit machine (default 100000)
  -max-memory SIZE
                  bound on the BDDs' memory (for example 4GB); beyond it
                  the answer is unknown
  -minimize=false keep the controller as extracted (default: minimized)
  -timeout D      give up after D (for example 30s); the answer is then unknown

AspectLTL: with .altl files (ltl synth base.altl aspect1.altl …), weaves
the base system's aspects into one GR(1) game and synthesizes it. For a
realizable weaving, -trace prints which modules justify each move of the
controller and which forbid the moves it never makes; for an unrealizable
one, the minimal sets of conflicting aspects and a play of the
environment's winning strategy are printed. A weaving's controller is the
explicit machine, whose Go source (-go) has constants for the values of
enumerations; -aiger writes its circuit instead.

Exit status: 0 realizable, 1 unrealizable, 2 usage or input error (a
malformed spec is one line naming FILE:LINE:COL), no answer within
-timeout or -max-memory ("unknown: …", naming the bound and the phase it
stopped: realizability, determinization, check…), or an explicit machine
beyond -max-states.
`

func init() {
	register(&command{name: "synth", summary: "GR(1) realizability and controller synthesis", usage: synthUsage, run: runSynth})
}

// synthFlags are the parsed flags of ltl synth.
type synthFlags struct {
	format, strategy, emit string
	goSrc, json, dot       bool
	pkg, typeName          string
	maxStates              int
	minimize               bool
	timeout                time.Duration
	trace                  bool // AspectLTL: print the two-way traceability
	circuitFlags
}

func runSynth(e *env, args []string) (int, error) {
	var f synthFlags
	fs := newFlags("synth")
	fs.StringVar(&f.format, "format", "", "input `format`: slugsin, structuredslugs or tlsf")
	fs.StringVar(&f.strategy, "strategy", "", "write the controller or counterstrategy to `FILE`")
	fs.StringVar(&f.emit, "emit", "", "print the spec in `format` (slugsin) and stop")
	fs.BoolVar(&f.goSrc, "go", false, "print Go source of the controller")
	fs.BoolVar(&f.json, "json", false, "print the controller as JSON")
	fs.BoolVar(&f.dot, "dot", false, "print the controller as Graphviz DOT")
	fs.StringVar(&f.pkg, "pkg", "controller", "package `name` of the Go source")
	fs.StringVar(&f.typeName, "type", "", "type `name` of the Go source")
	fs.IntVar(&f.maxStates, "max-states", synth.DefaultMaxStates, "bound on the explicit machine's `states`")
	fs.BoolVar(&f.minimize, "minimize", true, "minimize the controller")
	fs.DurationVar(&f.timeout, "timeout", 0, "give up after `duration`")
	fs.BoolVar(&f.trace, "trace", false, "AspectLTL: print which modules justify or forbid each move")
	f.circuitFlags.register(fs)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return 2, err
	}
	altl := isAspectLTL(pos)
	if f.trace && !altl {
		return 2, errors.New("-trace applies to AspectLTL (.altl) specifications")
	}
	if len(pos) > 1 && !altl {
		return 2, fmt.Errorf("unexpected argument %q (one spec file at a time)", pos[1])
	}
	if f.emit != "" && f.emit != "slugsin" {
		return 2, fmt.Errorf("-emit: unknown format %q (want slugsin)", f.emit)
	}
	printed := 0
	for _, b := range []bool{f.goSrc, f.json, f.dot} {
		if b {
			printed++
		}
	}
	if printed > 1 {
		return 2, errors.New("-go, -json and -dot print the same machine; give one of them")
	}
	opts, err := f.circuitFlags.options()
	if err != nil {
		return 2, err
	}
	if f.emit != "" && (printed > 0 || f.strategy != "") {
		return 2, errors.New("-emit prints the spec only; it cannot be combined with -go, -json, -dot or -strategy")
	}
	var woven *synth.Weaving
	var spec *synth.Spec
	if altl {
		woven, err = readAspectLTL(pos, f.format)
		if woven != nil {
			spec = woven.Spec
		}
	} else {
		spec, err = readSpec(e, pos, f.format)
	}
	if err != nil {
		return 2, err
	}
	if f.emit != "" {
		var b bytes.Buffer
		if err := synth.WriteSlugsin(&b, spec); err != nil {
			return 2, err
		}
		_, err := e.stdout.Write(b.Bytes())
		return 0, err
	}

	ctx := context.Background()
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
	}
	unknown := func(err error) error {
		during := ""
		if pe, ok := err.(*phaseError); ok {
			during, err = " during "+pe.phase, pe.err
		}
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("unknown: no answer within -timeout %s%s", f.timeout, during)
		}
		if errors.Is(err, synth.ErrMemoryBound) {
			return fmt.Errorf("unknown: memory bound (-max-memory %s) reached%s", f.maxMemory, during)
		}
		return err
	}
	res, err := spec.Realizable(ctx, opts...)
	if err != nil {
		return 2, unknown(inPhase("realizability", err))
	}
	status := 0
	fmt.Fprintln(e.stdout, res)
	if woven != nil {
		if !res.Realizable {
			status = 1
		}
		if err := explainAspectLTL(ctx, e, woven, res, f); err != nil {
			return 2, unknown(err)
		}
	} else if !res.Realizable {
		status = 1
		core, err := res.Core(ctx)
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			// The answer stands; only its explanation is missing.
			fmt.Fprintf(e.stdout, "unrealizable core: unknown (not computed within -timeout %s)\n", f.timeout)
			return status, nil
		case err != nil:
			return 2, err
		}
		fmt.Fprintln(e.stdout, "unrealizable core (with all the assumptions, these guarantees already conflict):")
		for _, c := range core.Clauses {
			fmt.Fprintln(e.stdout, "  "+c.String())
		}
	}
	if printed == 0 && f.strategy == "" && f.aiger == "" {
		return status, nil
	}
	// A weaving's controller is the explicit machine (its Go source names
	// the enumeration values) unless a circuit is asked for with -aiger.
	if res.Realizable && !f.explicit && (woven == nil || f.aiger != "") {
		return writeCircuit(ctx, e, spec, res, f, opts, unknown)
	}
	if f.aiger != "" {
		return 2, errors.New("-aiger writes the symbolic controller of a realizable spec; it cannot be combined with -explicit")
	}
	m, err := synthMachine(ctx, res, f)
	if err != nil {
		return 2, unknown(inPhase("enumeration of the explicit machine", err))
	}
	m.weaving = woven
	if f.strategy != "" {
		var b bytes.Buffer
		if err := m.write(&b, machineFormat(f.strategy), f.pkg); err != nil {
			return 2, err
		}
		if err := os.WriteFile(f.strategy, b.Bytes(), 0o644); err != nil {
			return 2, err
		}
		fmt.Fprintf(e.stdout, "%s (%d states) written to %s\n", m.what, m.states, f.strategy)
	}
	if printed > 0 {
		format := "json"
		switch {
		case f.goSrc:
			format = "go"
		case f.dot:
			format = "dot"
		}
		var b bytes.Buffer
		if err := m.write(&b, format, f.pkg); err != nil {
			return 2, err
		}
		if _, err := e.stdout.Write(b.Bytes()); err != nil {
			return 2, err
		}
	}
	return status, nil
}

// readSpec parses the spec named by the positional arguments (standard
// input for none or "-"), in the format given by -format or the extension.
func readSpec(e *env, pos []string, formatName string) (*synth.Spec, error) {
	name := "-"
	if len(pos) == 1 {
		name = pos[0]
	}
	format := synth.FormatUnknown
	if formatName != "" {
		f, err := synth.ParseFormat(formatName)
		if err != nil {
			return nil, fmt.Errorf("-format: %w", err)
		}
		format = f
	} else if name != "-" {
		format = synth.FormatOf(name)
		if format == synth.FormatUnknown {
			return nil, fmt.Errorf("%s: unknown specification format: the extension is not .slugsin, .structuredslugs or .tlsf (use -format)", name)
		}
	} else {
		return nil, errors.New("reading standard input needs -format slugsin, structuredslugs or tlsf")
	}
	var r io.Reader = e.stdin
	display := "<stdin>"
	if name != "-" {
		file, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer file.Close()
		r, display = file, name
	}
	return synth.Parse(display, format, r)
}

// machine is the explicit controller or counterstrategy to print.
type machine struct {
	mealy    *synth.Mealy
	moore    *synth.Moore
	what     string // "controller" or "counterstrategy"
	states   int
	typeName string
	weaving  *synth.Weaving // for an AspectLTL controller: Go with enumeration constants
}

// synthMachine enumerates the controller (realizable) or counterstrategy
// (unrealizable) of res.
func synthMachine(ctx context.Context, res *synth.Result, f synthFlags) (*machine, error) {
	if res.Realizable {
		c, err := res.Controller(ctx)
		if err != nil {
			return nil, err
		}
		m, err := c.Mealy(ctx, f.maxStates)
		if err != nil {
			return nil, hintMaxStates(err)
		}
		if f.minimize {
			m = m.Minimize()
		}
		return &machine{mealy: m, what: "controller", states: len(m.States), typeName: orDefault(f.typeName, "Controller")}, nil
	}
	cs, err := res.Counterstrategy(ctx)
	if err != nil {
		return nil, err
	}
	m, err := cs.Moore(ctx, f.maxStates)
	if err != nil {
		return nil, hintMaxStates(err)
	}
	return &machine{moore: m, what: "counterstrategy", states: len(m.States), typeName: orDefault(f.typeName, "Counterstrategy")}, nil
}

// hintMaxStates says how to get past a machine that is too large.
func hintMaxStates(err error) error {
	if errors.Is(err, synth.ErrTooLarge) {
		return fmt.Errorf("%w (raise -max-states)", err)
	}
	return err
}

func (m *machine) write(w io.Writer, format, pkg string) error {
	switch format {
	case "go":
		if m.mealy != nil && m.weaving != nil {
			return m.weaving.WriteGo(w, m.mealy, pkg, m.typeName)
		}
		if m.mealy != nil {
			return m.mealy.WriteGo(w, pkg, m.typeName)
		}
		return m.moore.WriteGo(w, pkg, m.typeName)
	case "dot":
		if m.mealy != nil {
			return m.mealy.WriteDOT(w)
		}
		return m.moore.WriteDOT(w)
	}
	if m.mealy != nil {
		return m.mealy.WriteJSON(w)
	}
	return m.moore.WriteJSON(w)
}

// machineFormat chooses the output format of -strategy FILE by extension.
func machineFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".go":
		return "go"
	case ".dot", ".gv":
		return "dot"
	}
	return "json"
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
