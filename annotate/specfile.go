package annotate

import (
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// This file reads spec files, the //ltl:specfile counterpart of the Java
// tool's .ltl files. A spec file holds prop and spec directives, written
// without the //ltl: prefix:
//
//	// Comments are // to the end of the line, or /* … */.
//	prop overdrawn a.balance < 0
//	spec neverOverdrawn G(!overdrawn)
//	spec lockPairs
//	    G(lock -> F unlock)   // an indented line continues the directive
//
// A directive starts at a line that does not begin with a space or tab;
// indented lines continue it. Its Go expressions are checked in the scope
// where the //ltl:specfile directive stands.

// readSpecFile reads the spec file named by the //ltl:specfile directive p
// and appends its directives to b.dirs.
func (b *builder) readSpecFile(p *placed) {
	if p.inSpecFile {
		b.fail(p, 0, KindPlacement, "not allowed in a spec file: spec files do not include others")
		return
	}
	path := p.arg
	if path[0] == '"' || path[0] == '`' {
		unq, err := strconv.Unquote(path)
		if err != nil {
			b.fail(p, p.argOff, KindSyntax, "invalid quoted path %s", path)
			return
		}
		path = unq
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(b.fset.PositionFor(p.start, false).Filename), path)
	}
	path = filepath.Clean(path)
	if prev, ok := b.specFiles[path]; ok {
		b.fail(p, p.argOff, KindDuplicate, "%s is already included by the directive at %s", p.arg, b.where(prev))
		return
	}
	b.specFiles[path] = p.start
	data, err := os.ReadFile(path)
	if err != nil {
		msg := err.Error()
		if pe, ok := err.(*os.PathError); ok {
			msg = pe.Err.Error()
		}
		b.errorf(p.pos(p.argOff), p.verb, p.name, KindFile, err, "cannot read spec file %s: %s", p.arg, msg)
		return
	}
	tf := b.fset.AddFile(path, -1, len(data))
	tf.SetLinesForContent(data)
	chunks, bad := splitSpecFile(string(data))
	for _, e := range bad {
		b.errorf(tf.Pos(e.off), e.verb, "", KindSyntax, nil, "%s", e.msg)
	}
	for _, ch := range chunks {
		base := tf.Pos(ch.off)
		d, derr := parseDirective(ch.text)
		if derr != nil {
			b.errorf(base+token.Pos(derr.off), derr.verb, derr.name, KindSyntax, derr, "%s", derr.msg)
			continue
		}
		q := &placed{directive: d, start: base, base: base, scopePos: p.scopePos, fn: p.fn, inSpecFile: true}
		b.dirs = append(b.dirs, q)
	}
}

// A chunk is the text of one directive in a spec file, comments blanked,
// and its offset in the file.
type chunk struct {
	text string
	off  int
}

// splitSpecFile blanks the comments of a spec file (keeping every offset)
// and splits it into directives. Comments that hold a directive
// (// ltl:spec …) are reported: in a spec file they would be ignored.
func splitSpecFile(src string) ([]chunk, []*directiveError) {
	var errs []*directiveError
	buf := []byte(src)
	blank := func(from, to int) {
		for k := from; k < to; k++ {
			if buf[k] != '\n' {
				buf[k] = ' '
			}
		}
	}
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"' || c == '`' || c == '\'':
			i = quotedEnd(src, i)
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			if body, ok := strings.CutPrefix(src[i+2:j], "ltl:"); ok && knownVerb(firstWord(body)) {
				v := firstWord(body)
				errs = append(errs, &directiveError{off: i, verb: v, msg: "commented out: in a spec file // starts a comment; write the directive without //ltl:, as " + v + " …"})
			}
			blank(i, j)
			i = j
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				errs = append(errs, &directiveError{off: i, msg: "unterminated /* comment"})
				blank(i, len(src))
				i = len(src)
				break
			}
			blank(i, i+2+end+2)
			i += 2 + end + 2
		default:
			i++
		}
	}
	text := string(buf)
	var chunks []chunk
	for off := 0; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		line := text[off:end]
		switch {
		case strings.TrimSpace(line) == "":
		case !isSpace(line[0]) || len(chunks) == 0:
			lead := len(line) - len(strings.TrimLeft(line, " \t\r"))
			chunks = append(chunks, chunk{text: text[off+lead : end], off: off + lead})
		default:
			last := &chunks[len(chunks)-1]
			last.text = text[last.off:end]
		}
		off = end + 1
	}
	return chunks, errs
}
