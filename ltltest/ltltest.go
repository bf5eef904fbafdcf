package ltltest

import (
	"fmt"
	"strings"

	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
)

// TestingT is the part of *testing.T that ltltest uses; *testing.T and
// *testing.B satisfy it.
type TestingT interface {
	Helper()
	Errorf(format string, args ...any)
	FailNow()
	Cleanup(func())
}

// An Option changes how a property is checked. Options and testify-style
// message arguments may be mixed in the trailing arguments of every
// assertion: values of type Option (and *Annotations, which lets the
// formula argument name a spec) configure the check, the rest form the
// failure message (a format string and its arguments, as in testify).
type Option func(*config)

type config struct {
	semantics ltl.Semantics
	engine    monitor.Engine
	specs     *Annotations   // spec names the formula argument may use
	split     splitOptions   // Split, SplitViolated (WithSplitOptions)
	synth     synthConfig    // Realizable, Unrealizable, Synthesize, Conforms
	explore   exploreConfig  // Explore, RequireExplore (WithStrategy, WithSeed…)
	recorder  recorderConfig // NewMonitor (WithFullTrace, WithWindow, WithGenerated)
}

// WithSemantics selects the trace semantics (ltl.LTLf by default).
func WithSemantics(s ltl.Semantics) Option { return func(c *config) { c.semantics = s } }

// WithEngine selects the engine that decides the verdict: monitor.EngineAuto
// (the default), EngineDP, EngineAutomaton or EngineNaive. Every engine
// gives the same verdict; they differ in cost.
func WithEngine(e monitor.Engine) Option { return func(c *config) { c.engine = e } }

// parseArgs separates options from testify-style message arguments.
func parseArgs(args []any) (config, []any) {
	var c config
	var msg []any
	for _, a := range args {
		switch o := a.(type) {
		case Option:
			o(&c)
			continue
		case *Annotations:
			c.specs = o
			continue
		}
		msg = append(msg, a)
	}
	return c, msg
}

// message renders testify-style msgAndArgs: a single value, or a format
// string followed by its arguments.
func message(msgAndArgs []any) string {
	switch len(msgAndArgs) {
	case 0:
		return ""
	case 1:
		if s, ok := msgAndArgs[0].(string); ok {
			return s
		}
		return fmt.Sprint(msgAndArgs[0])
	}
	if format, ok := msgAndArgs[0].(string); ok {
		return fmt.Sprintf(format, msgAndArgs[1:]...)
	}
	return fmt.Sprint(msgAndArgs...)
}

// fail reports a failure in testify's layout: a headline, an indented block
// of details, and the user's message.
func fail(t TestingT, headline, details string, msgAndArgs []any) {
	t.Helper()
	var b strings.Builder
	b.WriteString(headline)
	b.WriteString("\n")
	for _, line := range strings.Split(strings.TrimRight(details, "\n"), "\n") {
		if line != "" {
			b.WriteString("\t" + line + "\n")
		}
	}
	if m := message(msgAndArgs); m != "" {
		b.WriteString("\tmessage: " + m + "\n")
	}
	t.Errorf("%s", strings.TrimRight(b.String(), "\n"))
}
