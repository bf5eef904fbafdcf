package annotate

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// FuzzParseDirective feeds arbitrary directive text to the directive parser
// and to the whole pipeline (at package level and inside a function body),
// which must never panic, and must position every problem inside the file.
func FuzzParseDirective(f *testing.F) {
	for _, seed := range []string{
		"spec lockPairs G(lock -> F unlock)",
		"spec s G(\"a.balance >= 0\" && !done) // trailing",
		`spec q G("x == \"//\"" || 'a')`,
		"prop p a.balance < 0",
		"prop w call (*Account).Withdraw",
		"prop r return Run",
		"prop g go sync.OnceFunc",
		"prop m call (*sync.Mutex).Lock",
		"prop bad <-ch",
		"prop f func() bool { return true }()",
		"event e",
		"event",
		"symbolic",
		"symbolic n x",
		"specfile nope.ltl",
		"range x 0..7",
		"range x -3..99999999999999999999",
		"range n 0..",
		`specfile "a b.ltl"`,
		"spec",
		"spec G G",
		"frob x",
		"",
		" ",
		"spec s G(",
		`spec s "unterminated`,
		"spec s [a, b)s && X[!] p U q",
		"prop x len(m[k]) > cap(s[1:2])",
		"prop y Account{}.balance > 0",
	} {
		f.Add(seed)
	}
	imp := importer.Default()
	f.Fuzz(func(t *testing.T, text string) {
		d, derr := parseDirective(text)
		if derr != nil {
			if derr.off < 0 || derr.off > len(text) {
				t.Fatalf("error offset %d outside [0,%d]", derr.off, len(text))
			}
		} else {
			if !knownVerb(d.verb) {
				t.Fatalf("accepted unknown verb %q", d.verb)
			}
			if named(d.verb) && (!validName(d.name) || text[d.nameOff:d.nameOff+len(d.name)] != d.name) {
				t.Fatalf("name %q at %d", d.name, d.nameOff)
			}
			if text[d.argOff:d.argOff+len(d.arg)] != d.arg || d.arg != "" && (isSpace(d.arg[0]) || isSpace(d.arg[len(d.arg)-1])) {
				t.Fatalf("arg %q at %d", d.arg, d.argOff)
			}
		}

		line := strings.NewReplacer("\n", " ", "\r", " ").Replace(text)
		src := "package p\n\nimport \"sync\"\n\nvar _ sync.Mutex\n\nvar n int\n\n//ltl:" + line + "\nfunc F(x int) {\n\t//ltl:" + line + "\n\tn = x\n}\n"
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "a.go", src, parser.ParseComments)
		if err != nil {
			return // not a comment Go accepts (NUL, bad UTF-8)
		}
		info := &types.Info{Defs: map[*ast.Ident]types.Object{}}
		tpkg, err := (&types.Config{Importer: imp}).Check("p", fset, []*ast.File{file}, info)
		if err != nil {
			t.Fatalf("host file does not type-check: %v", err)
		}
		_, err = FromTypes(fset, []*ast.File{file}, tpkg, info)
		if list, ok := err.(ErrorList); ok {
			for _, e := range list {
				if e.Position.Filename != "a.go" && !strings.HasSuffix(e.Position.Filename, ".ltl") && e.Msg[:min(len(e.Msg), 21)] != "cannot read spec file" {
					t.Fatalf("problem outside the file: %v", e)
				}
				if e.Position.Filename == "a.go" && (e.Position.Line != 9 && e.Position.Line != 11) {
					t.Fatalf("problem on line %d, not on a directive: %v", e.Position.Line, e)
				}
			}
		}
	})
}

// FuzzSpecFile feeds arbitrary spec-file text to the splitter, which must
// keep offsets: every directive's text is a slice of the file with comments
// blanked.
func FuzzSpecFile(f *testing.F) {
	for _, seed := range []string{
		"prop a x > 0\nspec s G(a)\n",
		"/* c */ spec s\n  G(a) // t\n",
		"spec s G(\"//\" && '/*')\n/* unterminated",
		"//ltl:spec s G(a)\n",
		"  indented first\nspec x G(y)",
		"`raw\nstring` spec",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		chunks, errs := splitSpecFile(src)
		for _, e := range errs {
			if e.off < 0 || e.off > len(src) {
				t.Fatalf("error offset %d outside [0,%d]", e.off, len(src))
			}
		}
		for _, c := range chunks {
			if c.off < 0 || c.off+len(c.text) > len(src) {
				t.Fatalf("chunk %q at %d outside the file", c.text, c.off)
			}
			for i := 0; i < len(c.text); i++ {
				if c.text[i] != src[c.off+i] && c.text[i] != ' ' {
					t.Fatalf("chunk %q at %d differs from the file other than by blanking", c.text, c.off)
				}
			}
			_, _ = parseDirective(c.text)
		}
	})
}
