package annotate

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"sort"
	"strings"
)

// This file finds the directives of a package's files and works out where
// each one stands: the scope its expressions are checked in, the function
// around it, the statement an event marks, the declaration a symbolic
// directive documents.

// FromTypes reads the //ltl: directives of a type-checked package. files
// must have been parsed with comments, and info must record at least Defs
// (as go/packages, go vet and analysistest provide); info is only read.
//
// It returns the annotations that bound without problems, and an ErrorList
// of all problems, sorted by position, or nil. The Package is never nil.
// Spec files named by //ltl:specfile are read from disk (relative to the
// directory of the Go file naming them) and added to fset.
func FromTypes(fset *token.FileSet, files []*ast.File, pkg *types.Package, info *types.Info) (*Package, error) {
	b := &builder{
		reporter:  reporter{fset: fset},
		tpkg:      pkg,
		info:      info,
		out:       &Package{Fset: fset, Types: pkg, used: map[string]bool{}},
		names:     map[string]*placed{},
		props:     map[string]*Prop{},
		bad:       map[string]bool{},
		specFiles: map[string]token.Pos{},
		symbolic:  map[*types.Var]token.Pos{},
	}
	for _, f := range files {
		b.collect(f)
	}
	b.bindAll()
	b.errs.Sort()
	return b.out, b.errs.Err()
}

// A builder turns the directives of one package into a Package.
type builder struct {
	reporter
	tpkg *types.Package
	info *types.Info
	out  *Package

	dirs      []*placed                // every well-formed directive, in source order, spec files last
	names     map[string]*placed       // the first declaration of each name
	props     map[string]*Prop         // the props and events that bound
	bad       map[string]bool          // names whose declaration has a problem
	specFiles map[string]token.Pos     // spec files read, and where
	symbolic  map[*types.Var]token.Pos // symbolic inputs, and where
}

// A placed directive is a well-formed directive and where it stands.
type placed struct {
	directive
	start      token.Pos   // the directive's first byte: its "//", or its verb in a spec file
	base       token.Pos   // position of the verb; directive offsets are relative to it
	scopePos   token.Pos   // where its Go expressions are type-checked
	fn         *types.Func // the function declaration around or under it, if any
	inBody     bool        // it stands inside a function body
	stmt       ast.Stmt    // for events: the statement it marks, if any
	doc        ast.Node    // the declaration whose doc (or line) comment it is in, if any
	inSpecFile bool
	dup        bool // its name was declared before
}

func (p *placed) pos(off int) token.Pos { return p.base + token.Pos(off) }

// A problem is an error not yet attributed to a directive.
type problem struct {
	pos  token.Pos
	kind Kind
	msg  string
	err  error
}

func (b *builder) report(p *placed, pr *problem) {
	b.errorf(pr.pos, p.verb, p.name, pr.kind, pr.err, "%s", pr.msg)
}

func (b *builder) fail(p *placed, off int, kind Kind, format string, args ...any) {
	b.errorf(p.pos(off), p.verb, p.name, kind, nil, format, args...)
}

// where formats a position briefly (base file name, line, column) for
// messages that refer to another place.
func (b *builder) where(pos token.Pos) string {
	p := b.fset.Position(pos)
	p.Filename = filepath.Base(p.Filename)
	return p.String()
}

// collect finds the directives in f's comments.
func (b *builder) collect(f *ast.File) {
	var idx *fileIndex
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			text := c.Text
			switch {
			case strings.HasPrefix(text, "//ltl:"):
				base := c.Slash + token.Pos(len("//ltl:"))
				d, derr := parseDirective(text[len("//ltl:"):])
				if derr != nil {
					b.errorf(base+token.Pos(derr.off), derr.verb, derr.name, KindSyntax, derr, "%s", derr.msg)
					continue
				}
				if idx == nil {
					idx = newFileIndex(b.fset, f)
				}
				p := &placed{directive: d, start: c.Slash, base: base}
				b.place(p, idx, cg, c)
				b.dirs = append(b.dirs, p)
			case strings.HasPrefix(text, "/*ltl:"):
				b.errorf(c.Slash, "", "", KindSyntax, nil,
					"directives are line comments: write //ltl:%s on a line of its own", firstWord(text[len("/*ltl:"):]))
			case strings.HasPrefix(text, "//"):
				// Spaces only: a tab starts a code block in a doc
				// comment, which may well show directives.
				rest := strings.TrimLeft(text[2:], " ")
				if len(rest) < len(text)-2 && strings.HasPrefix(rest, "ltl:") && knownVerb(firstWord(rest[4:])) {
					b.errorf(c.Slash, "", "", KindSyntax, nil,
						"not a directive because of the space after //: write //ltl:%s", firstWord(rest[4:]))
				}
			}
		}
	}
}

// firstWord returns the leading run of letters of s.
func firstWord(s string) string {
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return s[:i]
}

// place works out where the directive in comment c of group cg stands.
func (b *builder) place(p *placed, idx *fileIndex, cg *ast.CommentGroup, c *ast.Comment) {
	p.doc = idx.docs[cg]
	if body, ok := idx.enclosing(c.Pos()); ok {
		p.inBody = true
		p.scopePos = c.Pos()
		p.fn = b.funcOf(body.decl)
		if p.verb == verbEvent {
			p.stmt = idx.statementFor(c, cg)
		}
		return
	}
	p.scopePos = c.Pos()
	if fd, ok := p.doc.(*ast.FuncDecl); ok {
		// On a function: its parameters, results and top-level locals
		// are in scope, as at the closing brace of its body.
		p.fn = b.funcOf(fd)
		if fd.Body != nil {
			p.scopePos = fd.Body.Rbrace
		}
	}
}

// funcOf returns the object of a function declaration, or nil.
func (b *builder) funcOf(fd *ast.FuncDecl) *types.Func {
	if fd == nil || b.info == nil {
		return nil
	}
	fn, _ := b.info.Defs[fd.Name].(*types.Func)
	return fn
}

// scopeAt returns the innermost scope at pos, as types.CheckExpr finds it:
// the package scope if pos is in no file.
func (b *builder) scopeAt(pos token.Pos) *types.Scope {
	if pos.IsValid() {
		for i := range b.tpkg.Scope().NumChildren() {
			if s := b.tpkg.Scope().Child(i).Innermost(pos); s != nil {
				return s
			}
		}
	}
	return b.tpkg.Scope()
}

// A fileIndex answers placement questions about one file.
type fileIndex struct {
	tf     *token.File
	bodies []funcBody
	docs   map[*ast.CommentGroup]ast.Node
	stmts  []ast.Stmt  // statements an event can mark, in source order
	starts []token.Pos // sorted start positions of all syntax nodes
	ends   []token.Pos // sorted end positions of all syntax nodes
}

// A funcBody is the body of a function declaration or literal.
type funcBody struct {
	body *ast.BlockStmt
	decl *ast.FuncDecl // the declaration it is in (itself or around a literal); nil for a literal at package level
}

func newFileIndex(fset *token.FileSet, f *ast.File) *fileIndex {
	idx := &fileIndex{tf: fset.File(f.FileStart), docs: map[*ast.CommentGroup]ast.Node{}}
	if idx.tf == nil {
		idx.tf = fset.File(f.Pos())
	}
	var stack []ast.Node
	var decl *ast.FuncDecl
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			if stack[len(stack)-1] == decl {
				decl = nil
			}
			stack = stack[:len(stack)-1]
			return true
		}
		switch n.(type) {
		case *ast.CommentGroup, *ast.Comment:
			return false
		}
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		if _, isFile := n.(*ast.File); !isFile && n.Pos().IsValid() {
			idx.starts = append(idx.starts, n.Pos())
			idx.ends = append(idx.ends, n.End())
		}
		switch n := n.(type) {
		case *ast.FuncDecl:
			decl = n
			idx.addDoc(n.Doc, n)
			if n.Body != nil {
				idx.bodies = append(idx.bodies, funcBody{n.Body, n})
			}
		case *ast.FuncLit:
			idx.bodies = append(idx.bodies, funcBody{n.Body, decl})
		case *ast.GenDecl:
			if _, top := parent.(*ast.File); top && n.Tok == token.VAR {
				idx.addDoc(n.Doc, n)
				for _, s := range n.Specs {
					vs := s.(*ast.ValueSpec)
					idx.addDoc(vs.Doc, vs)
					idx.addDoc(vs.Comment, vs)
				}
			}
		case *ast.EmptyStmt:
		case *ast.BlockStmt:
			switch parent.(type) {
			case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.LabeledStmt:
				idx.stmts = append(idx.stmts, n)
			}
		case ast.Stmt:
			idx.stmts = append(idx.stmts, n)
		}
		return true
	})
	sort.Slice(idx.starts, func(i, j int) bool { return idx.starts[i] < idx.starts[j] })
	sort.Slice(idx.ends, func(i, j int) bool { return idx.ends[i] < idx.ends[j] })
	return idx
}

func (idx *fileIndex) addDoc(cg *ast.CommentGroup, n ast.Node) {
	if cg != nil {
		idx.docs[cg] = n
	}
}

// enclosing returns the innermost function body that pos is inside.
func (idx *fileIndex) enclosing(pos token.Pos) (funcBody, bool) {
	var best funcBody
	found := false
	for _, fb := range idx.bodies {
		if fb.body.Lbrace < pos && pos < fb.body.Rbrace && (!found || fb.body.Lbrace > best.body.Lbrace) {
			best, found = fb, true
		}
	}
	return best, found
}

// codeBefore reports whether some syntax stands before pos on pos's line.
func (idx *fileIndex) codeBefore(pos token.Pos) bool {
	line := idx.tf.Line(pos)
	if i := sort.Search(len(idx.starts), func(i int) bool { return idx.starts[i] >= pos }) - 1; i >= 0 && idx.tf.Line(idx.starts[i]) == line {
		return true
	}
	j := sort.Search(len(idx.ends), func(j int) bool { return idx.ends[j] > pos }) - 1
	return j >= 0 && idx.tf.Line(idx.ends[j]) == line
}

// statementFor returns the statement an event directive in comment c of
// group cg marks: if code precedes the comment on its line, the statement
// that ends last before the comment on that line (the outermost one if
// several end there); otherwise the statement that starts first on the
// line after the comment group (the outermost one if several start there).
// It returns nil if there is none.
func (idx *fileIndex) statementFor(c *ast.Comment, cg *ast.CommentGroup) ast.Stmt {
	var best ast.Stmt
	if idx.codeBefore(c.Pos()) {
		line := idx.tf.Line(c.Pos())
		for _, s := range idx.stmts {
			if s.End() > c.Pos() || idx.tf.Line(s.End()) != line {
				continue
			}
			if best == nil || s.End() > best.End() || s.End() == best.End() && s.Pos() < best.Pos() {
				best = s
			}
		}
		return best
	}
	next := idx.tf.Line(cg.End()) + 1
	for _, s := range idx.stmts {
		if idx.tf.Line(s.Pos()) != next || s.Pos() < cg.End() {
			continue
		}
		if best == nil || s.Pos() < best.Pos() || s.Pos() == best.Pos() && s.End() > best.End() {
			best = s
		}
	}
	return best
}
