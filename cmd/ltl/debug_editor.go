package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// lineEditor reads command lines from a terminal in raw mode, with the
// editing keys of a shell:
//
//	Left/Right, Ctrl-B/F         move a character
//	Alt-B/F, Ctrl-Left/Right     move a word
//	Home/End, Ctrl-A/E           go to the start/end of the line
//	Backspace, Delete, Ctrl-D    delete before/at the cursor (Ctrl-D on an
//	                             empty line: end of input)
//	Ctrl-K, Ctrl-U, Ctrl-W       cut to the end, to the start, the word before
//	Ctrl-Y                       paste the last cut
//	Up/Down, Ctrl-P/N            browse the history (the line being typed
//	                             is kept at its end)
//	Ctrl-R                       search the history backwards as you type
//	                             (Ctrl-R again: an older match; Enter runs
//	                             the match, Ctrl-G cancels, another key
//	                             edits it)
//	Ctrl-C                       abandon the line; Ctrl-L redraws
//
// The editor draws the line on one terminal row, scrolling it
// horizontally when it is wider than the terminal, and counts every rune
// as one column. It owns the line being edited and the history; the
// terminal mode is its caller's (rawTerminal).
type lineEditor struct {
	in  *bufio.Reader
	out io.Writer
	// width returns the terminal's columns (nil or <= 0: 80).
	width func() int
	// history holds the lines read, oldest first, without repeats of the
	// previous line and without blank lines.
	history []string

	prompt string
	buf    []rune
	pos    int // cursor, 0 ≤ pos ≤ len(buf)
	scroll int // the first rune of buf on the screen
	hist   int // the history entry shown; len(history): the draft
	draft  []rune
	cut    []rune // the last cut text, for Ctrl-Y
	// search is the state of Ctrl-R: query, and match, the history
	// index of the line shown (-1: none).
	searching bool
	query     []rune
	match     int
}

// errInterrupted is returned by readLine when the user typed Ctrl-C.
var errInterrupted = errors.New("interrupted")

// key is a decoded keystroke: a rune to insert or an editing action.
type key int

const (
	keyRune key = iota
	keyEnter
	keyLeft
	keyRight
	keyWordLeft
	keyWordRight
	keyHome
	keyEnd
	keyBackspace
	keyDelete
	keyEOF // Ctrl-D
	keyKillEnd
	keyKillStart
	keyKillWord
	keyYank
	keyUp
	keyDown
	keySearch
	keyCancel // Ctrl-G
	keyInterrupt
	keyRedraw
	keyIgnore
)

// controlKeys maps control characters to keys.
var controlKeys = map[rune]key{
	'\r': keyEnter, '\n': keyEnter,
	0x01: keyHome, 0x02: keyLeft, 0x03: keyInterrupt, 0x04: keyEOF, 0x05: keyEnd, 0x06: keyRight,
	0x07: keyCancel, 0x08: keyBackspace, 0x0b: keyKillEnd, 0x0c: keyRedraw, 0x0e: keyDown,
	0x10: keyUp, 0x12: keySearch, 0x15: keyKillStart, 0x17: keyKillWord, 0x19: keyYank, 0x7f: keyBackspace,
}

// readKey decodes one keystroke: a rune, a control character or an
// escape sequence (CSI, SS3, or Alt as ESC and a character).
func (e *lineEditor) readKey() (key, rune, error) {
	r, _, err := e.in.ReadRune()
	if err != nil {
		return 0, 0, err
	}
	if k, ok := controlKeys[r]; ok {
		return k, r, nil
	}
	if r != 0x1b {
		if unicode.IsControl(r) {
			return keyIgnore, r, nil
		}
		return keyRune, r, nil
	}
	r, _, err = e.in.ReadRune()
	if err != nil {
		return 0, 0, err
	}
	switch r {
	case '[':
		return e.readCSI()
	case 'O':
		r, _, err = e.in.ReadRune()
		if err != nil {
			return 0, 0, err
		}
		return cursorKey(r, ""), r, nil
	case 'b', 'B':
		return keyWordLeft, r, nil
	case 'f', 'F':
		return keyWordRight, r, nil
	case 0x7f, 0x08:
		return keyKillWord, r, nil
	}
	return keyIgnore, r, nil
}

// readCSI reads a control sequence after ESC [: parameters, then a final
// byte in 0x40–0x7e.
func (e *lineEditor) readCSI() (key, rune, error) {
	var params strings.Builder
	for {
		r, _, err := e.in.ReadRune()
		if err != nil {
			return 0, 0, err
		}
		if r >= 0x40 && r <= 0x7e {
			if r == '~' {
				switch params.String() {
				case "1", "7":
					return keyHome, r, nil
				case "4", "8":
					return keyEnd, r, nil
				case "3":
					return keyDelete, r, nil
				}
				return keyIgnore, r, nil
			}
			return cursorKey(r, params.String()), r, nil
		}
		params.WriteRune(r)
	}
}

// cursorKey is the key of a cursor sequence's final byte; modified
// (";5" Ctrl, ";3" Alt) left and right move a word.
func cursorKey(final rune, params string) key {
	word := strings.HasSuffix(params, ";5") || strings.HasSuffix(params, ";3")
	switch final {
	case 'A':
		return keyUp
	case 'B':
		return keyDown
	case 'C':
		if word {
			return keyWordRight
		}
		return keyRight
	case 'D':
		if word {
			return keyWordLeft
		}
		return keyLeft
	case 'H':
		return keyHome
	case 'F':
		return keyEnd
	}
	return keyIgnore
}

// readLine reads one line after printing prompt. It returns io.EOF at
// the end of input or on Ctrl-D on an empty line, and errInterrupted on
// Ctrl-C.
func (e *lineEditor) readLine(prompt string) (string, error) {
	e.prompt, e.buf, e.pos, e.scroll = prompt, nil, 0, 0
	e.hist, e.draft, e.searching = len(e.history), nil, false
	e.draw()
	for {
		k, r, err := e.readKey()
		if err != nil {
			if err == io.EOF && len(e.buf) > 0 {
				// input ended inside a line: run what was typed
				return e.accept(), nil
			}
			e.write("\r\n")
			return "", err
		}
		if e.searching && e.searchKey(k, r) {
			continue
		}
		switch k {
		case keyEnter:
			return e.accept(), nil
		case keyInterrupt:
			e.write("^C\r\n")
			return "", errInterrupted
		case keyEOF:
			if len(e.buf) == 0 {
				e.write("\r\n")
				return "", io.EOF
			}
			e.deleteAt(e.pos)
		default:
			e.edit(k, r)
		}
		e.draw()
	}
}

// accept ends the line being edited and records it in the history.
func (e *lineEditor) accept() string {
	e.pos = len(e.buf)
	e.draw()
	e.write("\r\n")
	line := string(e.buf)
	if strings.TrimSpace(line) != "" && (len(e.history) == 0 || e.history[len(e.history)-1] != line) {
		e.history = append(e.history, line)
	}
	return line
}

// edit applies an editing key to the line.
func (e *lineEditor) edit(k key, r rune) {
	switch k {
	case keyRune:
		e.buf = append(e.buf[:e.pos], append([]rune{r}, e.buf[e.pos:]...)...)
		e.pos++
	case keyLeft:
		e.pos = max(e.pos-1, 0)
	case keyRight:
		e.pos = min(e.pos+1, len(e.buf))
	case keyWordLeft:
		e.pos = e.wordStart()
	case keyWordRight:
		for e.pos < len(e.buf) && !isWordRune(e.buf[e.pos]) {
			e.pos++
		}
		for e.pos < len(e.buf) && isWordRune(e.buf[e.pos]) {
			e.pos++
		}
	case keyHome:
		e.pos = 0
	case keyEnd:
		e.pos = len(e.buf)
	case keyBackspace:
		if e.pos > 0 {
			e.pos--
			e.deleteAt(e.pos)
		}
	case keyDelete:
		e.deleteAt(e.pos)
	case keyKillEnd:
		e.cutRange(e.pos, len(e.buf))
	case keyKillStart:
		e.cutRange(0, e.pos)
	case keyKillWord:
		e.cutRange(e.wordStart(), e.pos)
	case keyYank:
		e.buf = append(e.buf[:e.pos], append(append([]rune(nil), e.cut...), e.buf[e.pos:]...)...)
		e.pos += len(e.cut)
	case keyUp:
		e.showHistory(e.hist - 1)
	case keyDown:
		e.showHistory(e.hist + 1)
	case keySearch:
		e.searching, e.query, e.match = true, nil, -1
	case keyRedraw:
		e.write("\x1b[H\x1b[2J")
	}
}

func isWordRune(r rune) bool { return r != ' ' && r != '\t' }

// wordStart is the start of the word before the cursor.
func (e *lineEditor) wordStart() int {
	i := e.pos
	for i > 0 && !isWordRune(e.buf[i-1]) {
		i--
	}
	for i > 0 && isWordRune(e.buf[i-1]) {
		i--
	}
	return i
}

func (e *lineEditor) deleteAt(i int) {
	if i < len(e.buf) {
		e.buf = append(e.buf[:i], e.buf[i+1:]...)
	}
}

// cutRange removes buf[i:j] into the cut buffer; the cursor goes to i.
func (e *lineEditor) cutRange(i, j int) {
	if i >= j {
		return
	}
	e.cut = append([]rune(nil), e.buf[i:j]...)
	e.buf = append(e.buf[:i], e.buf[j:]...)
	e.pos = i
}

// showHistory shows history entry i (len(history): the draft).
func (e *lineEditor) showHistory(i int) {
	if i < 0 || i > len(e.history) || i == e.hist {
		return
	}
	if e.hist == len(e.history) {
		e.draft = append([]rune(nil), e.buf...)
	}
	e.hist = i
	if i == len(e.history) {
		e.buf = append([]rune(nil), e.draft...)
	} else {
		e.buf = []rune(e.history[i])
	}
	e.pos = len(e.buf)
}

// searchKey handles a key during Ctrl-R and reports whether it is done
// with it; otherwise the search ends with its match in the line, and the
// key applies to that line.
func (e *lineEditor) searchKey(k key, r rune) bool {
	switch k {
	case keyRune:
		e.query = append(e.query, r)
		e.findMatch(e.from())
	case keyBackspace:
		if len(e.query) > 0 {
			e.query = e.query[:len(e.query)-1]
		}
		e.findMatch(len(e.history) - 1)
	case keySearch:
		if e.match >= 0 {
			e.findMatch(e.match - 1)
		} else {
			e.findMatch(len(e.history) - 1)
		}
	case keyCancel, keyInterrupt:
		e.searching = false
	default:
		e.searching = false
		if e.match >= 0 {
			e.hist = e.match
			e.buf = []rune(e.history[e.match])
			e.pos = len(e.buf)
		}
		return false
	}
	e.draw()
	return true
}

// from is where a search for a longer query starts: the current match.
func (e *lineEditor) from() int {
	if e.match >= 0 {
		return e.match
	}
	return len(e.history) - 1
}

// findMatch sets match to the latest history entry at or before i that
// contains the query (-1: none).
func (e *lineEditor) findMatch(i int) {
	q := string(e.query)
	for ; i >= 0; i-- {
		if strings.Contains(e.history[i], q) {
			e.match = i
			return
		}
	}
	if q == "" {
		e.match = -1
	}
}

// draw redraws the line: the prompt, the visible part of the text, the
// rest of the row cleared, the cursor in place.
func (e *lineEditor) draw() {
	prompt, text, cursor := e.prompt, e.buf, e.pos
	if e.searching {
		m := ""
		if e.match >= 0 {
			m = e.history[e.match]
		}
		prompt = fmt.Sprintf("(reverse-i-search)`%s': ", string(e.query))
		text = []rune(m)
		cursor = len(text)
		if i := strings.Index(m, string(e.query)); i >= 0 && e.match >= 0 {
			cursor = utf8.RuneCountInString(m[:i])
		}
	}
	w := 80
	if e.width != nil {
		if n := e.width(); n > 0 {
			w = n
		}
	}
	pw := utf8.RuneCountInString(prompt)
	avail := max(w-pw-1, 1)
	if cursor < e.scroll {
		e.scroll = cursor
	}
	if cursor-e.scroll >= avail {
		e.scroll = cursor - avail + 1
	}
	if len(text) <= avail {
		e.scroll = 0
	}
	start := min(e.scroll, len(text))
	end := min(start+avail, len(text))
	var b strings.Builder
	b.WriteString("\r")
	b.WriteString(prompt)
	b.WriteString(string(text[start:end]))
	b.WriteString("\x1b[K\r")
	if col := pw + cursor - start; col > 0 {
		fmt.Fprintf(&b, "\x1b[%dC", col)
	}
	e.write(b.String())
}

func (e *lineEditor) write(s string) { io.WriteString(e.out, s) }
