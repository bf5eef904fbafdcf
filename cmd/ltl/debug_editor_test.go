package main

import (
	"bufio"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// typeLines runs an editor over the keystrokes in input and returns the
// lines it read until the input ended.
func typeLines(t *testing.T, input string, width int) ([]string, *lineEditor) {
	t.Helper()
	var out strings.Builder
	ed := &lineEditor{in: bufio.NewReader(strings.NewReader(input)), out: &out, width: func() int { return width }}
	var lines []string
	for {
		l, err := ed.readLine("> ")
		if err == io.EOF {
			return lines, ed
		}
		if err == errInterrupted {
			lines = append(lines, "<interrupted>")
			continue
		}
		require.NoError(t, err)
		lines = append(lines, l)
	}
}

const (
	up, down, left, right = "\x1b[A", "\x1b[B", "\x1b[D", "\x1b[C"
	home, end, del        = "\x1b[H", "\x1b[F", "\x1b[3~"
	ctrlLeft, altF        = "\x1b[1;5D", "\x1bf"
)

func TestLineEditorKeys(t *testing.T) {
	for _, tc := range []struct {
		name, keys, want string
	}{
		{"insert in the middle", "pop" + left + left + "X\r", "pXop"},
		{"Ctrl-A and Ctrl-E", "ush\x01p\x05 x\r", "push x"},
		{"Home, End, Delete", "xpush" + home + del + end + " y\r", "push y"},
		{"Ctrl-K cuts to the end, Ctrl-Y pastes", "push F p" + left + left + left + "\x0b\x01\x19 \r", "F p push "},
		{"Ctrl-U cuts to the start", "garbage" + left + "\x15\r", "e"},
		{"Ctrl-W cuts the word before", "push F  p q\x17\x17\r", "push F  "},
		{"Alt-Backspace cuts the word before", "a bc\x1b\x7f\r", "a "},
		{"word moves", "push F p" + ctrlLeft + ctrlLeft + "X" + altF + "Y\r", "push XFY p"},
		{"Backspace, Ctrl-H, Ctrl-D deletes at the cursor", "abcd\x7f\x08" + left + "\x04\r", "a"},
		{"Ctrl-B, Ctrl-F", "ac\x02b\x06d\r", "abcd"},
		{"UTF-8", "pushé" + left + "ü\r", "pushüé"},
		{"control characters are ignored", "a\x1ab\r", "ab"},
	} {
		lines, _ := typeLines(t, tc.keys, 80)
		assert.Equal(t, []string{tc.want}, lines, tc.name)
	}
}

func TestLineEditorHistory(t *testing.T) {
	// up recalls the previous lines, down returns to the line being typed
	lines, ed := typeLines(t, "push F a\rpop\r"+up+up+"\r"+up+down+"\r"+"dra"+up+down+"ft\r"+"   \r", 80)
	assert.Equal(t, []string{"push F a", "pop", "push F a", "", "draft", "   "}, lines)
	assert.Equal(t, []string{"push F a", "pop", "push F a", "draft"}, ed.history, "no blank lines, no repeat of the previous line")

	// an edited recalled line is a new line; the history keeps the old
	lines, ed = typeLines(t, "push F a\r"+up+"\x17b\r"+up+up+"\r", 80)
	assert.Equal(t, []string{"push F a", "push F b", "push F a"}, lines)
	assert.Equal(t, []string{"push F a", "push F b", "push F a"}, ed.history)

	// up at the oldest line stays there; Ctrl-P/N are up and down
	lines, _ = typeLines(t, "one\rtwo\r\x10\x10\x10\x0e\r", 80)
	assert.Equal(t, []string{"one", "two", "two"}, lines)

	// Ctrl-C abandons the line; Ctrl-D on an empty line ends the input
	lines, _ = typeLines(t, "push\x03pop\r\x04never\r", 80)
	assert.Equal(t, []string{"<interrupted>", "pop"}, lines)
}

func TestLineEditorSearch(t *testing.T) {
	hist := "push F at(P0, m8)\rpop\rpush G p\rstate\r"
	// Ctrl-R finds the latest line containing the query; Enter runs it
	lines, _ := typeLines(t, hist+"\x12push\r", 80)
	assert.Equal(t, "push G p", lines[len(lines)-1])
	// Ctrl-R again: an older match
	lines, _ = typeLines(t, hist+"\x12push\x12\r", 80)
	assert.Equal(t, "push F at(P0, m8)", lines[len(lines)-1])
	// another key ends the search and edits the match
	lines, _ = typeLines(t, hist+"\x12po\x05 x\r", 80)
	assert.Equal(t, "pop x", lines[len(lines)-1])
	// Ctrl-G cancels: the line is what was typed before
	lines, _ = typeLines(t, hist+"ab\x12push\x07c\r", 80)
	assert.Equal(t, "abc", lines[len(lines)-1])
	// Backspace shortens the query and searches again from the latest
	lines, _ = typeLines(t, hist+"\x12popx\x7f\r", 80)
	assert.Equal(t, "pop", lines[len(lines)-1])
}

// TestLineEditorScroll: a line wider than the terminal scrolls so that
// the cursor stays on the row, and the whole line is read.
func TestLineEditorScroll(t *testing.T) {
	long := strings.Repeat("abcdefghij", 5)
	var out strings.Builder
	ed := &lineEditor{in: bufio.NewReader(strings.NewReader(long + home + "\r")), out: &out, width: func() int { return 20 }}
	l, err := ed.readLine("> ")
	require.NoError(t, err)
	assert.Equal(t, long, l)
	for _, frame := range strings.Split(out.String(), "\r> ")[1:] {
		text, _, _ := strings.Cut(frame, "\x1b[K")
		assert.LessOrEqual(t, len(text), 17, "a frame never wraps: %q", frame)
	}
	assert.Contains(t, out.String(), "\r> "+long[:17]+"\x1b[K", "Home scrolls back to the start")
}
