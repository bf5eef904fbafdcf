package monitor

// This file reads and writes recorded traces in the two formats the README describes
// (section CLI): JSON Lines and CSV.

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// TraceFormat names an on-disk trace format.
type TraceFormat uint8

const (
	// FormatAuto detects the format from the content: JSON Lines when the
	// first non-blank character is '[' or '{', CSV otherwise. WriteTrace
	// writes JSON Lines for FormatAuto.
	FormatAuto TraceFormat = iota

	// FormatJSONL is JSON Lines, one event per line: either an array of the
	// atoms that hold (["req","busy"]) or an object of booleans
	// ({"req":true,"busy":false}); atoms mapped to false join the trace's
	// vocabulary. The two forms may be mixed. Blank lines are skipped, so a
	// trailing newline or an empty line between events is not an event; an
	// event at which no atom holds is written [] or {}.
	FormatJSONL

	// FormatCSV is comma-separated values: a header row of atom names, then
	// one row per event with one cell per atom, 0/1 or true/false
	// (case-insensitive; spaces around a cell are ignored). Fields may be
	// quoted as in RFC 4180. Blank lines are skipped.
	FormatCSV
)

func (f TraceFormat) String() string {
	switch f {
	case FormatAuto:
		return "auto"
	case FormatJSONL:
		return "jsonl"
	case FormatCSV:
		return "csv"
	}
	return "invalid"
}

// ParseTraceFormat returns the format with the given name: "auto", "jsonl"
// (or "json"), or "csv".
func ParseTraceFormat(name string) (TraceFormat, bool) {
	switch name {
	case "auto":
		return FormatAuto, true
	case "jsonl", "json":
		return FormatJSONL, true
	case "csv":
		return FormatCSV, true
	}
	return 0, false
}

// TraceError is a problem at a position of a trace file. Its message reads
// "name:line: msg" or "name:line:col: msg"; lines and columns count from 1,
// columns in bytes.
type TraceError struct {
	Name string // the file name given to ReadTrace
	Line int
	Col  int // 0 when the problem concerns the whole line
	Msg  string
	Err  error // the underlying error, if any (I/O, CSV syntax)
}

func (e *TraceError) Error() string {
	if e.Col > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
}

func (e *TraceError) Unwrap() error { return e.Err }

// ReadTrace reads a trace in JSON Lines or CSV, detected from the content
// (see FormatAuto). name is used in error messages only. Input with no
// non-blank character is the empty trace. Any other input that is not a
// well-formed trace is a *TraceError at the line (and column, where it
// helps) of the first problem; ReadTrace never returns a partial trace.
func ReadTrace(r io.Reader, name string) (*Trace, error) {
	return ReadTraceFormat(r, name, FormatAuto)
}

// ReadTraceFormat is ReadTrace with an explicit format; FormatAuto detects
// it from the content.
func ReadTraceFormat(r io.Reader, name string, format TraceFormat) (*Trace, error) {
	return StreamTrace(r, name, format, nil)
}

// StreamTrace reads a trace as ReadTraceFormat does, and calls event (when
// not nil) after each position is appended to the trace, as soon as its line
// has been read — so a monitor can act on each event as it arrives on a
// pipe. An error from event stops the reading and is returned as is, with
// the trace read so far; a malformed line is a *TraceError as usual.
func StreamTrace(r io.Reader, name string, format TraceFormat, event func(*Trace) error) (*Trace, error) {
	if format > FormatCSV {
		return nil, fmt.Errorf("monitor: invalid trace format %d", format)
	}
	br := bufio.NewReaderSize(r, 64<<10)
	if b, err := br.Peek(3); err == nil && bytes.Equal(b, []byte("\ufeff")) {
		br.Discard(3) // a UTF-8 byte order mark
	}
	// Skip blank lines to find the first significant one.
	line := 1
	var first []byte
	for {
		text, err := br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return nil, &TraceError{Name: name, Line: line, Msg: err.Error(), Err: err}
		}
		if len(bytes.TrimSpace(text)) > 0 {
			first = text
			break
		}
		if err == io.EOF {
			return NewTrace(), nil
		}
		line++
	}
	if format == FormatAuto {
		format = FormatCSV
		if c := bytes.TrimSpace(first)[0]; c == '[' || c == '{' {
			format = FormatJSONL
		}
	}
	if format == FormatJSONL {
		return readJSONL(first, br, name, line, event)
	}
	return readCSV(io.MultiReader(bytes.NewReader(first), br), name, line, event)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// readJSONL reads JSON Lines: first, the line numbered line, then the rest
// of br, calling event (if not nil) after each position.
func readJSONL(first []byte, br *bufio.Reader, name string, line int, event func(*Trace) error) (*Trace, error) {
	t := NewTrace()
	p := jsonlParser{name: name, t: t}
	text, err := first, error(nil)
	for {
		if len(bytes.TrimSpace(text)) > 0 {
			if perr := p.event(text, line); perr != nil {
				return nil, perr
			}
			if event != nil {
				if eerr := event(t); eerr != nil {
					return t, eerr
				}
			}
		}
		if err == io.EOF || len(text) == 0 || text[len(text)-1] != '\n' {
			return t, nil
		}
		line++
		text, err = br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return nil, &TraceError{Name: name, Line: line, Msg: err.Error(), Err: err}
		}
	}
}

// jsonlParser reads JSON Lines events into t. It scans the small subset of
// JSON an event uses itself, so that every error names the exact column and
// what was expected there.
type jsonlParser struct {
	name string
	t    *Trace
	// The line being parsed.
	line int
	text []byte
	pos  int
	// Scratch space reused from line to line.
	on   []string
	seen map[string]bool
	val  map[string]bool
}

// errorAt is a *TraceError at byte offset off of the current line.
func (p *jsonlParser) errorAt(off int, format string, args ...any) error {
	off = min(off, len(bytes.TrimRight(p.text, " \t\r\n"))) // the end of the line
	return &TraceError{Name: p.name, Line: p.line, Col: off + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *jsonlParser) skipSpace() {
	for p.pos < len(p.text) && isSpace(p.text[p.pos]) {
		p.pos++
	}
}

// event parses one non-blank line and appends its event to p.t.
func (p *jsonlParser) event(text []byte, line int) error {
	p.text, p.line, p.pos = text, line, 0
	if p.seen == nil {
		p.seen, p.val = map[string]bool{}, map[string]bool{}
	}
	clear(p.seen)
	p.skipSpace()
	switch p.peek() {
	case '[':
		if err := p.array(); err != nil {
			return err
		}
	case '{':
		if err := p.object(); err != nil {
			return err
		}
	default:
		return p.errorAt(p.pos, "an event is a JSON array of atom names or an object of booleans, not %s", p.describe())
	}
	p.skipSpace()
	if p.pos < len(p.text) {
		return p.errorAt(p.pos, "unexpected text after the event (one event per line)")
	}
	return nil
}

// peek returns the byte at the current position, or 0 at the end of the
// line.
func (p *jsonlParser) peek() byte {
	if p.pos < len(p.text) {
		return p.text[p.pos]
	}
	return 0
}

// array parses ["a", "b", ...] and appends the event.
func (p *jsonlParser) array() error {
	p.pos++ // '['
	p.on = p.on[:0]
	p.skipSpace()
	if p.peek() == ']' {
		p.pos++
		p.t.Append()
		return nil
	}
	for {
		p.skipSpace()
		if p.peek() != '"' {
			return p.errorAt(p.pos, "atom list holds %s; want atom names in double quotes", p.describe())
		}
		a, err := p.name1()
		if err != nil {
			return err
		}
		p.on = append(p.on, a)
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			p.t.Append(p.on...)
			return nil
		default:
			return p.errorAt(p.pos, "expected ',' or ']' after an atom name, found %s", p.describe())
		}
	}
}

// object parses {"a": true, "b": false, ...} and appends the event.
func (p *jsonlParser) object() error {
	p.pos++ // '{'
	clear(p.val)
	p.skipSpace()
	if p.peek() == '}' {
		p.pos++
		p.t.AppendValuation(p.val)
		return nil
	}
	for {
		p.skipSpace()
		if p.peek() != '"' {
			return p.errorAt(p.pos, "expected an atom name in double quotes, found %s", p.describe())
		}
		a, err := p.name1()
		if err != nil {
			return err
		}
		p.skipSpace()
		if p.peek() != ':' {
			return p.errorAt(p.pos, "expected ':' after atom name %q, found %s", a, p.describe())
		}
		p.pos++
		p.skipSpace()
		start := p.pos
		switch lit := p.word(); lit {
		case "true", "false":
			p.val[a] = lit == "true"
		default:
			p.pos = start
			return p.errorAt(start, "value of atom %q is %s; want true or false", a, p.describe())
		}
		p.skipSpace()
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.t.AppendValuation(p.val)
			return nil
		default:
			return p.errorAt(p.pos, "expected ',' or '}' after the value of atom %q, found %s", a, p.describe())
		}
	}
}

// name1 parses the JSON string at the current position as an atom name,
// rejecting empty names and names that appear twice in one event.
func (p *jsonlParser) name1() (string, error) {
	start := p.pos
	end, ok := p.stringEnd()
	if !ok {
		return "", p.errorAt(start, "unterminated string")
	}
	raw := p.text[start:end]
	p.pos = end
	if !utf8.Valid(raw) {
		return "", p.errorAt(start, "atom name is not valid UTF-8")
	}
	var a string
	if simpleString(raw) {
		a = string(raw[1 : len(raw)-1])
	} else if err := json.Unmarshal(raw, &a); err != nil {
		return "", p.errorAt(start, "invalid JSON string: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if a == "" {
		return "", p.errorAt(start, "empty atom name")
	}
	if p.seen[a] {
		return "", p.errorAt(start, "atom %q appears twice in one event", a)
	}
	p.seen[a] = true
	return a, nil
}

// stringEnd returns the offset just past the JSON string starting at the
// current position, and false if the line ends first.
func (p *jsonlParser) stringEnd() (int, bool) {
	for i := p.pos + 1; i < len(p.text); i++ {
		switch p.text[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		}
	}
	return 0, false
}

// simpleString reports whether the quoted JSON string raw has no escapes,
// control characters or invalid UTF-8, so its text is its value.
func simpleString(raw []byte) bool {
	for _, c := range raw[1 : len(raw)-1] {
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// word consumes and returns the run of bytes up to the next delimiter.
func (p *jsonlParser) word() string {
	start := p.pos
	for p.pos < len(p.text) && !isDelim(p.text[p.pos]) {
		p.pos++
	}
	return string(p.text[start:p.pos])
}

func isDelim(c byte) bool {
	return isSpace(c) || c == ',' || c == ':' || c == '[' || c == ']' || c == '{' || c == '}' || c == '"'
}

// describe names what stands at the current position, for an error
// message: a scalar's source text, or "an array", "an object", "the end of
// the line".
func (p *jsonlParser) describe() string {
	var src string
	switch c := p.peek(); {
	case p.pos >= len(p.text) || (isSpace(c) && len(bytes.TrimSpace(p.text[p.pos:])) == 0):
		return "the end of the line"
	case c == '[':
		return "an array"
	case c == '{':
		return "an object"
	case c == '"':
		end, ok := p.stringEnd()
		if !ok {
			end = len(bytes.TrimRight(p.text, " \t\r\n"))
		}
		src = string(p.text[p.pos:end])
	case isDelim(c):
		return "'" + string(c) + "'"
	default:
		save := p.pos
		src = p.word()
		p.pos = save
	}
	if len(src) > 40 {
		src = src[:37] + "..."
	}
	if !utf8.ValidString(src) || strings.ContainsFunc(src, func(r rune) bool { return !unicode.IsPrint(r) }) {
		return strconv.Quote(src)
	}
	return src
}

// readCSV reads a CSV trace from r, whose first line is line number line of
// the file, calling event (if not nil) after each position.
func readCSV(r io.Reader, name string, line int, event func(*Trace) error) (*Trace, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	cr.ReuseRecord = true
	offset := line - 1
	fail := func(err error) error {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			msg := "invalid CSV: " + pe.Err.Error()
			if pe.StartLine != pe.Line {
				msg += fmt.Sprintf(" (in the record that starts on line %d)", pe.StartLine+offset)
			}
			return &TraceError{Name: name, Line: pe.Line + offset, Col: pe.Column, Msg: msg, Err: err}
		}
		l, _ := cr.FieldPos(0)
		return &TraceError{Name: name, Line: l + offset, Msg: err.Error(), Err: err}
	}
	at := func(field int, format string, args ...any) error {
		l, c := cr.FieldPos(field)
		return &TraceError{Name: name, Line: l + offset, Col: c, Msg: fmt.Sprintf(format, args...)}
	}

	header, err := cr.Read()
	if err != nil {
		return nil, fail(err)
	}
	atoms := make([]string, len(header))
	cols := map[string]int{}
	for i, h := range header {
		a := trimName(h)
		if a == "" {
			return nil, at(i, "empty atom name in header column %d", i+1)
		}
		if !utf8.ValidString(a) {
			return nil, at(i, "atom name in header column %d is not valid UTF-8", i+1)
		}
		if j, dup := cols[a]; dup {
			return nil, at(i, "atom %q is named twice in the header (columns %d and %d)", a, j+1, i+1)
		}
		cols[a] = i
		atoms[i] = a
	}
	t := NewTrace(atoms...)
	on := make([]string, 0, len(atoms))
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return t, nil
		}
		if err != nil {
			return nil, fail(err)
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue // a line of white space only
		}
		if len(rec) != len(atoms) {
			l, _ := cr.FieldPos(0)
			return nil, &TraceError{Name: name, Line: l + offset, Msg: fmt.Sprintf("row has %d %s; the header names %d %s", len(rec), plural(len(rec), "cell"), len(atoms), plural(len(atoms), "atom"))}
		}
		on = on[:0]
		for i, cell := range rec {
			switch v := strings.TrimSpace(cell); {
			case v == "1" || strings.EqualFold(v, "true"):
				on = append(on, atoms[i])
			case v == "0" || strings.EqualFold(v, "false"):
			default:
				return nil, at(i, "value of atom %q is %q; want 0, 1, true or false", atoms[i], v)
			}
		}
		t.Append(on...)
		if event != nil {
			if err := event(t); err != nil {
				return t, err
			}
		}
	}
}

// WriteTrace writes t in the given format (JSON Lines for FormatAuto), in a
// form ReadTrace reads back to the same positions. JSON Lines lists the
// atoms that hold at each position, one array per line, so atoms of the
// vocabulary that hold nowhere are not written (no verdict depends on
// them). CSV writes the whole vocabulary as its header. Atom names must be
// non-empty valid UTF-8 in both formats; CSV cannot carry an empty
// vocabulary for a non-empty trace, or names that contain a carriage return
// or begin or end with white space or a byte order mark (JSON Lines can).
func WriteTrace(w io.Writer, t *Trace, format TraceFormat) error {
	bw := bufio.NewWriter(w)
	switch format {
	case FormatAuto, FormatJSONL:
		if err := writeJSONL(bw, t); err != nil {
			return err
		}
	case FormatCSV:
		if err := writeCSV(bw, t); err != nil {
			return err
		}
	default:
		return fmt.Errorf("monitor: invalid trace format %d", format)
	}
	return bw.Flush()
}

func writeJSONL(w *bufio.Writer, t *Trace) error {
	for i := 0; i < t.Len(); i++ {
		atoms := t.At(i)
		for _, a := range atoms {
			if a == "" || !utf8.ValidString(a) {
				return fmt.Errorf("monitor: position %d: atom %q cannot be written: trace files need non-empty UTF-8 names", i, a)
			}
		}
		if atoms == nil {
			atoms = []string{}
		}
		b, err := json.Marshal(atoms)
		if err != nil {
			return err
		}
		w.Write(b)
		if err := w.WriteByte('\n'); err != nil {
			return err
		}
	}
	return nil
}

func writeCSV(w *bufio.Writer, t *Trace) error {
	atoms := t.Atoms()
	if len(atoms) == 0 {
		if t.Len() > 0 {
			return errors.New("monitor: a CSV trace needs at least one atom in its header; use JSON Lines")
		}
		return nil
	}
	for _, a := range atoms {
		if a == "" || a != trimName(a) || strings.ContainsRune(a, '\r') || !utf8.ValidString(a) {
			return fmt.Errorf("monitor: atom %q cannot be a CSV column name; use JSON Lines", a)
		}
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(atoms); err != nil {
		return err
	}
	row := make([]string, len(atoms))
	for i := 0; i < t.Len(); i++ {
		for j, a := range atoms {
			row[j] = "0"
			if t.Holds(i, a) {
				row[j] = "1"
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// trimName removes the white space (and byte order marks) around a CSV
// header name.
func trimName(h string) string {
	return strings.TrimFunc(h, func(r rune) bool { return unicode.IsSpace(r) || r == '\ufeff' })
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
