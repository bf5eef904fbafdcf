package synth

import (
	"bytes"
	"io"
	"strconv"
	"strings"
)

// maxAIGVars bounds the variables ParseAIGER accepts, so that a corrupt
// header cannot make it allocate without limit.
const maxAIGVars = 1 << 20

// ParseAIGER reads an and-inverter graph in the ASCII (.aag) or binary
// (.aig) AIGER format, told apart by the header. Latches must start at 0
// (a third latch field other than 0 is ErrUnsupported), the header's
// optional B, C, J and F counts must be 0, and the ASCII format must number
// its variables as the binary one does (inputs, then latches, then gates in
// order, each gate after its operands). Errors give the line (ASCII, and
// the binary format's text sections) or the byte offset (the binary
// and-gates) and wrap ErrSyntax or ErrUnsupported.
func ParseAIGER(name string, r io.Reader) (*AIG, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	p := &aigParser{name: name, data: data, line: 1}
	a, err := p.parse()
	if err != nil {
		return nil, err
	}
	return a, nil
}

type aigParser struct {
	name string
	data []byte
	off  int
	line int
}

func (p *aigParser) errorf(kind error, format string, args ...any) error {
	return errorf(Pos{File: p.name, Line: p.line, Col: 1}, kind, format, args...)
}

// readLine returns the next line without its newline; ok=false at the end.
func (p *aigParser) readLine() (string, bool) {
	if p.off >= len(p.data) {
		return "", false
	}
	rest := p.data[p.off:]
	i := bytes.IndexByte(rest, '\n')
	if i < 0 {
		i = len(rest)
		p.off = len(p.data)
	} else {
		p.off += i + 1
	}
	p.line++
	return string(rest[:i]), true
}

// numbers parses a line of n unsigned numbers.
func (p *aigParser) numbers(what string, n int) ([]uint32, error) {
	line, ok := p.readLine()
	if !ok {
		p.line--
		return nil, p.errorf(ErrSyntax, "%s expected, found the end of the file", what)
	}
	p.line-- // errors name the line just read
	defer func() { p.line++ }()
	fields := strings.Fields(line)
	if len(fields) != n {
		return nil, p.errorf(ErrSyntax, "%s: want %d numbers, found %q", what, n, line)
	}
	out := make([]uint32, n)
	for i, f := range fields {
		x, err := strconv.ParseUint(f, 10, 32)
		if err != nil {
			return nil, p.errorf(ErrSyntax, "%s: %q is not an unsigned number", what, f)
		}
		out[i] = uint32(x)
	}
	return out, nil
}

func (p *aigParser) parse() (*AIG, error) {
	header, ok := p.readLine()
	p.line--
	if !ok {
		return nil, p.errorf(ErrSyntax, "empty file: want an \"aag\" or \"aig\" header")
	}
	fields := strings.Fields(header)
	if len(fields) < 6 || (fields[0] != "aag" && fields[0] != "aig") {
		return nil, p.errorf(ErrSyntax, "header %q: want \"aag M I L O A\" or \"aig M I L O A\"", header)
	}
	binary := fields[0] == "aig"
	var h [5]int
	for i := range 5 {
		x, err := strconv.ParseUint(fields[i+1], 10, 32)
		if err != nil || x > maxAIGVars {
			return nil, p.errorf(ErrSyntax, "header: %q is not a count (at most %d)", fields[i+1], maxAIGVars)
		}
		h[i] = int(x)
	}
	for _, f := range fields[6:] {
		if f != "0" {
			return nil, p.errorf(ErrUnsupported, "header: bad-state, constraint, justice and fairness sections are not supported")
		}
	}
	p.line++
	m, nIn, nL, nOut, nAnd := h[0], h[1], h[2], h[3], h[4]
	if m != nIn+nL+nAnd {
		return nil, p.errorf(ErrUnsupported, "header: M = %d is not I+L+A = %d (variables must be numbered inputs, latches, gates)", m, nIn+nL+nAnd)
	}
	if nL+nOut > len(p.data) || (!binary && nIn > len(p.data)) {
		return nil, p.errorf(ErrSyntax, "header: %d inputs, %d latches and %d outputs cannot fit in %d bytes", nIn, nL, nOut, len(p.data))
	}
	a := &AIG{MaxVar: m, Inputs: nIn, Latches: make([]AIGNext, nL)}
	maxLit := uint32(2*m + 1)
	lit := func(what string, x uint32) error {
		if x > maxLit {
			return p.errorf(ErrSyntax, "%s: literal %d exceeds 2M+1 = %d", what, x, maxLit)
		}
		return nil
	}
	if !binary {
		for i := range nIn {
			v, err := p.numbers("input", 1)
			if err != nil {
				return nil, err
			}
			if v[0] != uint32(2*(i+1)) {
				p.line--
				return nil, p.errorf(ErrUnsupported, "input %d is literal %d, want %d (inputs numbered first, in order)", i, v[0], 2*(i+1))
			}
		}
	}
	for l := range nL {
		line, ok := p.readLine()
		p.line--
		if !ok {
			return nil, p.errorf(ErrSyntax, "latch %d expected, found the end of the file", l)
		}
		fs := strings.Fields(line)
		if !binary {
			if len(fs) < 2 {
				return nil, p.errorf(ErrSyntax, "latch %d: want \"LIT NEXT\", found %q", l, line)
			}
			if fs[0] != strconv.Itoa(2*(nIn+1+l)) {
				return nil, p.errorf(ErrUnsupported, "latch %d is literal %s, want %d (latches numbered after inputs, in order)", l, fs[0], 2*(nIn+1+l))
			}
			fs = fs[1:]
		}
		if len(fs) < 1 || len(fs) > 2 {
			return nil, p.errorf(ErrSyntax, "latch %d: want its next literal (and an optional reset value), found %q", l, line)
		}
		x, err := strconv.ParseUint(fs[0], 10, 32)
		if err != nil {
			return nil, p.errorf(ErrSyntax, "latch %d: %q is not a literal", l, fs[0])
		}
		if len(fs) == 2 && fs[1] != "0" {
			return nil, p.errorf(ErrUnsupported, "latch %d: reset value %s (only 0 is supported)", l, fs[1])
		}
		if err := lit("latch", uint32(x)); err != nil {
			return nil, err
		}
		a.Latches[l].Next = uint32(x)
		p.line++
	}
	for range nOut {
		v, err := p.numbers("output", 1)
		if err != nil {
			return nil, err
		}
		if err := lit("output", v[0]); err != nil {
			return nil, err
		}
		a.Outputs = append(a.Outputs, v[0])
	}
	a.Ands = make([]AIGAnd, 0, min(nAnd, len(p.data)))
	for i := range nAnd {
		lhs := uint32(2 * (nIn + nL + 1 + i))
		var g AIGAnd
		if binary {
			start := p.off
			d0, ok0 := p.delta()
			d1, ok1 := p.delta()
			if !ok0 || !ok1 || d0 > lhs || d1 > lhs-d0 {
				return nil, errorf(Pos{File: p.name}, ErrSyntax, "and-gate %d: bad delta encoding at byte %d", i, start)
			}
			g = AIGAnd{lhs - d0, lhs - d0 - d1}
		} else {
			v, err := p.numbers("and-gate", 3)
			if err != nil {
				return nil, err
			}
			if v[0] != lhs {
				p.line--
				return nil, p.errorf(ErrUnsupported, "and-gate %d is literal %d, want %d (gates numbered after latches, in order)", i, v[0], lhs)
			}
			g = AIGAnd{max(v[1], v[2]), min(v[1], v[2])} // the binary format's order
		}
		if g.A >= lhs || g.B >= lhs {
			return nil, p.errorf(ErrSyntax, "and-gate %d (literal %d) uses a later literal", i, lhs)
		}
		a.Ands = append(a.Ands, g)
	}
	if err := p.symbols(a); err != nil {
		return nil, err
	}
	return a, nil
}

// delta reads one variable-length unsigned number of the binary format.
func (p *aigParser) delta() (uint32, bool) {
	var x uint32
	for shift := uint(0); shift < 35; shift += 7 {
		if p.off >= len(p.data) {
			return 0, false
		}
		c := p.data[p.off]
		p.off++
		x |= uint32(c&0x7f) << shift
		if c&0x80 == 0 {
			return x, true
		}
	}
	return 0, false
}

// symbols reads the symbol table and the comment section.
func (p *aigParser) symbols(a *AIG) error {
	a.InputNames = make([]string, a.Inputs)
	a.LatchNames = make([]string, len(a.Latches))
	a.OutputNames = make([]string, len(a.Outputs))
	for {
		line, ok := p.readLine()
		if !ok || line == "" && p.off >= len(p.data) {
			return nil
		}
		if line == "c" {
			a.Comment = strings.TrimSpace(string(p.data[p.off:]))
			return nil
		}
		p.line--
		sp := strings.IndexByte(line, ' ')
		if sp < 2 {
			return p.errorf(ErrSyntax, "symbol table: %q is not \"iN name\", \"lN name\" or \"oN name\"", line)
		}
		idx, err := strconv.Atoi(line[1:sp])
		var names []string
		switch line[0] {
		case 'i':
			names = a.InputNames
		case 'l':
			names = a.LatchNames
		case 'o':
			names = a.OutputNames
		}
		if names == nil || err != nil || idx < 0 || idx >= len(names) {
			return p.errorf(ErrSyntax, "symbol table: %q names no input, latch or output", line)
		}
		names[idx] = line[sp+1:]
		p.line++
	}
}
