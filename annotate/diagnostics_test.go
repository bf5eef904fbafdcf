package annotate

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every problem a directive can have, with its exact message and position.
// The sources are the analyzer's testdata (ltlanalysis/testdata), whose
// // want comments check the same problems as go vet reports them; here
// want lists every error FromTypes reports, in order.
//
// bound and unbound name specs that must (not) be in the Package: a spec
// that uses a prop with a problem is left out without a second report.
var diagnosticCases = []struct {
	dir            string
	want           []string
	bound, unbound []string
}{
	{dir: "src/syntax", want: []string{
		"syntax.go:3:1: ltl: not a directive because of the space after //: write //ltl:spec",
		"syntax.go:4:1: ltl: directives are line comments: write //ltl:spec on a line of its own",
		"syntax.go:5:7: ltl: missing directive name after ltl: (want prop, event, spec, symbolic, specfile or range)",
		"syntax.go:6:7: ltl:frobnicate: unknown directive (want prop, event, spec, symbolic, specfile or range)",
		"syntax.go:7:12: ltl:spec: missing name (want //ltl:spec NAME FORMULA)",
		"syntax.go:8:12: ltl:spec: invalid name \"G\": a name is an identifier [A-Za-z_][A-Za-z0-9_]* that is not an LTL keyword",
		"syntax.go:9:12: ltl:spec: invalid name \"a.b\": a name is an identifier [A-Za-z_][A-Za-z0-9_]* that is not an LTL keyword",
		"syntax.go:10:22: ltl:spec noformula: missing formula (want //ltl:spec NAME FORMULA)",
		"syntax.go:11:19: ltl:prop noexpr: missing expression (want //ltl:prop NAME EXPR, or //ltl:prop NAME call|return|go FUNC)",
		"syntax.go:12:16: ltl:event e1: unexpected \"extra\" after the name (want //ltl:event NAME)",
		"syntax.go:13:16: ltl:specfile: missing path (want //ltl:specfile PATH)",
		"syntax.go:14:22: ltl:spec bad: syntax error: expected formula, found \")\"",
		"syntax.go:17:33: ltl:spec bad2: syntax error: expected closing \" of the atom at offset 2, found end of formula",
		"syntax.go:19:12: ltl:spec dup: duplicate name: already declared by the ltl:spec at syntax.go:18:1",
		"syntax.go:26:13: ltl:range: x has type bool: a range bounds an integer variable or a channel of integers (booleans and mutexes are finite already)",
		"syntax.go:27:15: ltl:range: empty range 1..0",
	}},
	{dir: "src/exprs", want: []string{
		"exprs.go:14:24: ltl:prop p1: syntax error: expected operand, found end of expression",
		"exprs.go:15:15: ltl:prop p2: undefined: undefinedVar",
		"exprs.go:16:15: ltl:prop p3: counter has type int, not bool",
		"exprs.go:17:15: ltl:prop p4: call of strings.HasPrefix is not allowed: it may have side effects (a prop may call only len, cap, min, max, real, imag, complex and conversions)",
		"exprs.go:18:15: ltl:prop p5: receive <-ch is not allowed: it has side effects",
		"exprs.go:19:15: ltl:prop p6: function literal is not allowed in a prop",
		"exprs.go:20:15: ltl:prop p7: true is the constant true: a prop must depend on the program's state",
		"exprs.go:21:15: ltl:prop p8: int is a type, not a boolean expression",
		"exprs.go:22:23: ltl:prop p9: invalid operation: name == 3 (mismatched types string and untyped int)",
		"exprs.go:23:16: ltl:prop p10: len is not a boolean expression",
	}, unbound: []string{"usesAll"}},
	{dir: "src/events", want: []string{
		"events.go:22:20: ltl:prop e1: undefined: Nope",
		"events.go:23:22: ltl:prop e2: counter is a variable, not a function: events name functions and methods",
		"events.go:24:25: ltl:prop e3: (*T).f undefined (type *T has no method f)",
		"events.go:25:20: ltl:prop e4: t.M is a method value: name the method through its type, as T.M",
		"events.go:26:20: ltl:prop e5: len is a builtin, not a function",
		"events.go:27:18: ltl:prop e6: T is a type, not a function",
		"events.go:28:28: ltl:prop e7: undefined: strings.NoSuch",
		"events.go:29:20: ltl:prop e8: 1 + 2 does not name a function: want F, pkg.F, T.M or (*T).M",
		"events.go:30:22: ltl:prop e9: invalid method expression T.PM (needs pointer receiver (*T).PM)",
		"events.go:31:23: ltl:prop e10: T.f undefined (type T has no method f)",
		"events.go:32:21: ltl:prop e15: t.f is a field, not a method",
		"events.go:33:21: ltl:prop e16: limit is a constant, not a function",
		"events.go:34:23: ltl:prop e17: fv is a variable, not a function: events name functions and methods",
		"events.go:35:19: ltl:prop e18: use of package strings not in selector",
		"events.go:36:26: ltl:prop e19: syntax error: expected end of expression, found extra",
		"events.go:43:7: ltl:event e11: attached to nothing: an event stands inside a function body, on the line before a statement or at the end of one (for calls of a function, use //ltl:prop e11 call F)",
		"events.go:45:8: ltl:event e12: attached to nothing: an event stands on the line before a statement (with no blank line between) or at the end of one",
		"events.go:48:19: ltl:event e13: attached to nothing: an event stands on the line before a statement (with no blank line between) or at the end of one",
		"events.go:51:8: ltl:event e14: attached to nothing: an event stands on the line before a statement (with no blank line between) or at the end of one",
	}, bound: []string{"all"}},
	{dir: "src/symbolic", want: []string{
		"symbolic.go:3:7: ltl:symbolic: attached to nothing: symbolic belongs in the doc comment of a function (for its parameters) or of a package-level var",
		"symbolic.go:6:16: ltl:symbolic: nosuch is not a variable of this declaration",
		"symbolic.go:9:7: ltl:symbolic: function noParams has no parameters to make symbolic",
		"symbolic.go:11:8: ltl:symbolic: attached to nothing: symbolic belongs in the doc comment of a function (for its parameters) or of a package-level var",
		"symbolic.go:16:7: ltl:symbolic: b is listed twice",
		"symbolic.go:16:20: ltl:symbolic: c is not a parameter of f",
		"symbolic.go:22:8: ltl:symbolic: v2 is already symbolic by the directive at symbolic.go:19:1",
	}},
	{dir: "src/atoms", want: []string{
		"atoms.go:11:26: ltl:prop broken: syntax error: expected operand, found end of expression",
		"atoms.go:12:17: ltl:spec s1: unknown proposition \"unlok\" (did you mean \"unlock\"?)",
		"atoms.go:13:17: ltl:spec s2: unknown proposition \"zzz\"",
		"atoms.go:14:17: ltl:spec s3: ambiguous atom \"p18\": it is both the prop declared at atoms.go:10:1 and the Go expression p18 (bool) in scope; rename the prop",
		"atoms.go:15:17: ltl:spec s4: \"s1\" is a spec, not a prop: a spec cannot be an atom of another spec",
		"atoms.go:16:17: ltl:spec s5: count has type int, not bool",
		"atoms.go:17:18: ltl:spec s6: undefined: unlock (quoted atoms are Go expressions; write unlock without quotes for the prop declared at atoms.go:9:1)",
	}, bound: []string{"s8"}, unbound: []string{"s1", "s2", "s3", "s4", "s5", "s6", "s7"}},
	{dir: "src/specfile", want: []string{
		"specfile.go:6:16: ltl:specfile: \"specs.ltl\" is already included by the directive at specfile.go:5:1",
		"specfile.go:7:16: ltl:specfile: cannot read spec file missing.ltl: no such file or directory",
		"specfile.go:8:16: ltl:specfile: invalid quoted path \"bad // want `ltl:specfile: invalid quoted path \"bad`",
	}},
	{dir: "specfilemod", want: []string{
		"specs.ltl:5:10: ltl:prop low: counter has type int, not bool",
		"specs.ltl:7:18: ltl:spec bounded: unknown proposition \"nope\"",
		"specs.ltl:10:7: ltl:spec broken: syntax error: expected formula, found \")\"",
		"specs.ltl:11:1: ltl:event ev: not allowed in a spec file: an event marks a statement in Go source",
		"specs.ltl:12:1: ltl:spec: commented out: in a spec file // starts a comment; write the directive without //ltl:, as spec …",
		"specs.ltl:13:1: ltl:symbolic: not allowed in a spec file: symbolic marks a function or variable in Go source",
		"specs.ltl:14:1: ltl:specfile: not allowed in a spec file: spec files do not include others",
		"specs.ltl:15:1: ltl:frobnicate: unknown directive (want prop, event, spec, symbolic, specfile or range)",
		"specs.ltl:16:6: ltl:prop ticking: duplicate name: already declared by the ltl:prop at specs.ltl:3:1",
		"specs.ltl:17:1: ltl: unterminated /* comment",
	}, bound: []string{"always"}},
}

func TestDiagnostics(t *testing.T) {
	for _, tc := range diagnosticCases {
		t.Run(tc.dir, func(t *testing.T) {
			pkg, errs := fromSource(t, readDir(t, filepath.Join("ltlanalysis", "testdata", tc.dir)))
			assert.Equal(t, tc.want, messages(errs))
			for _, name := range tc.bound {
				assert.NotNil(t, pkg.Spec(name), "spec %s must be bound", name)
			}
			for _, name := range tc.unbound {
				assert.Nil(t, pkg.Spec(name), "spec %s must not be bound", name)
			}
		})
	}
}
