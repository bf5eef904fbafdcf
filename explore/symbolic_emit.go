package explore

import (
	"encoding/json"
	"fmt"
	"go/format"
	"strconv"
	"strings"
	"unicode"
)

// EmitTest returns a Go regression test reproducing a finding of a
// symbolic exploration with its concrete inputs, ready to paste into a
// _test.go file of the entry's package:
//
//   - for a //ltl:symbolic function, a test that sets the symbolic
//     package variables and calls the function with the inputs;
//   - for a test using ltltest.Symbolic, a test that gives the inputs to
//     ltltest.Symbolic through the LTLTEST_INPUTS environment variable
//     (t.Setenv) and calls the test function.
//
// The comment above it says what the explorer found and on which path.
// EmitTest reports an error for a finding without inputs or of an entry
// it cannot call from Go source (a closure). Findings that need a
// specific schedule too reproduce only in that schedule: the comment
// says so, and the replay token reproduces both.
func EmitTest(e *Entry, f *Finding) (string, error) {
	if len(f.Inputs) == 0 {
		return "", fmt.Errorf("explore: EmitTest: the finding has no symbolic inputs")
	}
	fn := e.Fn
	if fn.Parent() != nil || strings.ContainsAny(fn.Name(), "$.") {
		return "", fmt.Errorf("explore: EmitTest: %s is a closure; only package-level functions can be called from a test", e.Name)
	}
	vals := map[string]Input{}
	for _, in := range f.Inputs {
		vals[in.Name] = in
	}
	var b strings.Builder
	name := "Test" + upperFirst(strings.TrimPrefix(fn.Name(), "Test")) + "_" + testSuffix(f)
	fmt.Fprintf(&b, "// %s reproduces a finding of ltl explore:\n", name)
	where := ""
	if f.Pos.IsValid() {
		where = " (" + shortPos(f.Pos) + ")"
	}
	fmt.Fprintf(&b, "//\n//\t%s%s\n", f.headline(oneLine(f.Message)), where)
	fmt.Fprintf(&b, "//\n// path condition: %s\n", oneLine(f.PathCondition))
	for _, c := range f.Concretized {
		fmt.Fprintf(&b, "// concretized: %s\n", c)
	}
	if f.Steps > 0 {
		fmt.Fprintf(&b, "// The finding also needs a specific schedule (%d steps); replay it with\n// ltl explore -replay %s\n", f.Steps, f.Replay)
	}
	fmt.Fprintf(&b, "func %s(t *testing.T) {\n", name)
	if e.TakesT {
		obj := map[string]json.RawMessage{}
		for _, in := range f.Inputs {
			obj[in.Name] = json.RawMessage(goLiteral(in.Value))
		}
		js, err := json.Marshal(obj)
		if err != nil {
			return "", fmt.Errorf("explore: EmitTest: %w", err)
		}
		fmt.Fprintf(&b, "\tt.Setenv(%q, %s)\n", "LTLTEST_INPUTS", strconv.Quote(string(js)))
		fmt.Fprintf(&b, "\t%s(t)\n}\n", fn.Name())
	} else {
		for _, g := range symbolicGlobalsOf(e) {
			if in, ok := vals[g]; ok {
				fmt.Fprintf(&b, "\t%s = %s\n", g, goLiteral(in.Value))
			}
		}
		args := make([]string, len(e.Symbolic))
		for i, v := range e.Symbolic {
			args[i] = "0"
			if in, ok := vals[v.Name()]; ok {
				args[i] = goLiteral(in.Value)
			}
		}
		fmt.Fprintf(&b, "\t%s(%s)\n}\n", fn.Name(), strings.Join(args, ", "))
	}
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return "", fmt.Errorf("explore: EmitTest: generated code does not parse: %w", err)
	}
	return string(src), nil
}

// symbolicGlobalsOf names the //ltl:symbolic variables of the entry's
// package (set by the emitted test before the call).
func symbolicGlobalsOf(e *Entry) []string {
	var names []string
	if e.prog == nil {
		return nil
	}
	for _, g := range e.prog.symbolicVars(e.Fn.Pkg) {
		names = append(names, g.Name())
	}
	return names
}

// goLiteral formats a bool or integer as an untyped Go constant.
func goLiteral(v any) string {
	switch v := v.(type) {
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "0"
	}
	return fmt.Sprint(v)
}

func testSuffix(f *Finding) string {
	var b strings.Builder
	for _, r := range string(f.Kind) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
