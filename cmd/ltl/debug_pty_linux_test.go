package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// openPty opens a pseudo-terminal pair, or skips the test with the reason
// when the system has none.
func openPty(t *testing.T) (master, slave *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("no pseudo-terminal: unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("no pseudo-terminal: ptsname: %v", err)
	}
	slave, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { slave.Close() })
	require.NoError(t, unix.IoctlSetWinsize(int(slave.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 24, Col: 80}))
	return master, slave
}

// screen collects what the terminal shows and lets a test wait for a
// text to appear.
type screen struct {
	mu   sync.Mutex
	cond *sync.Cond
	buf  bytes.Buffer
	done bool
}

func newScreen(r io.Reader) *screen {
	s := &screen{}
	s.cond = sync.NewCond(&s.mu)
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := r.Read(b)
			s.mu.Lock()
			s.buf.Write(b[:n])
			s.done = err != nil
			s.cond.Broadcast()
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return s
}

// waitFor blocks until the screen output contains text.
func (s *screen) waitFor(t *testing.T, text string) {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for !strings.Contains(s.buf.String(), text) {
		if s.done {
			t.Fatalf("the terminal closed before %q appeared; it shows %q", text, s.buf.String())
		}
		s.cond.Wait()
	}
}

// TestDebugTerminal drives the line editor through a pseudo-terminal: raw
// mode while a line is edited, history recall with the up arrow, editing
// the recalled line, Ctrl-D to end, and the terminal's mode restored
// between lines.
func TestDebugTerminal(t *testing.T) {
	master, slave := openPty(t)
	src := newLineSource(slave, slave)
	require.IsType(t, &rawTerminal{}, src, "a terminal gets the line editor")
	cooked, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	require.NoError(t, err)
	scr := newScreen(master)

	type result struct {
		line string
		err  error
	}
	results := make(chan result)
	go func() {
		for i := 1; ; i++ {
			l, err := src.readLine(fmt.Sprintf("%d> ", i))
			results <- result{l, err}
			if err != nil {
				return
			}
		}
	}()
	// each line's keys are typed once its prompt is drawn, which the
	// editor does after entering raw mode
	keys := []string{
		"push F at(P0, m2)\r",
		"\x1b[A\x17m8)\r",            // up recalls line 1; Ctrl-W cuts "m2)"
		"\x1b[A\x1b[A\x01\x1b[3~f\r", // up twice: line 1; Home, Delete, f: "fush …"
		"\x04",                       // Ctrl-D: end of input
	}
	want := []string{"push F at(P0, m2)", "push F at(P0, m8)", "fush F at(P0, m2)"}
	for i, k := range keys {
		scr.waitFor(t, fmt.Sprintf("%d> ", i+1))
		raw, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
		require.NoError(t, err)
		assert.Zero(t, raw.Lflag&(unix.ECHO|unix.ICANON|unix.ISIG), "line %d is edited in raw mode", i+1)
		_, err = master.Write([]byte(k))
		require.NoError(t, err)
		r := <-results
		if i == len(want) {
			assert.Equal(t, io.EOF, r.err)
			break
		}
		require.NoError(t, r.err)
		assert.Equal(t, want[i], r.line)
	}
	assert.Equal(t, want, src.lines())
	// after the last line the terminal is back in the mode it had
	now, err := unix.IoctlGetTermios(int(slave.Fd()), unix.TCGETS)
	require.NoError(t, err)
	assert.Equal(t, cooked.Lflag, now.Lflag, "local modes restored (echo, canonical input, signals)")
}
