package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// lineSource is where ltl debug reads its commands from.
type lineSource interface {
	// readLine returns the next command line, io.EOF at the end, or
	// errInterrupted when the user abandoned the line.
	readLine(prompt string) (string, error)
	// lines returns the lines read so far (the history command).
	lines() []string
}

// rawTerminal reads lines with a lineEditor from a terminal, in raw mode
// only while a line is edited: the commands' output and Ctrl-C (which
// interrupts a search) behave as in a shell.
type rawTerminal struct {
	fd  int
	ed  *lineEditor
	all []string
}

// newLineSource returns a rawTerminal when in and out are terminals, and
// otherwise a plainLines that echoes each line after the prompt, so that
// the output reads as a transcript.
func newLineSource(in io.Reader, out io.Writer) lineSource {
	fin, okIn := in.(*os.File)
	fout, okOut := out.(*os.File)
	if okIn && okOut && term.IsTerminal(int(fin.Fd())) && term.IsTerminal(int(fout.Fd())) {
		outFd := int(fout.Fd())
		return &rawTerminal{fd: int(fin.Fd()), ed: &lineEditor{in: bufio.NewReader(fin), out: fout, width: func() int {
			w, _, err := term.GetSize(outFd)
			if err != nil {
				return 0
			}
			return w
		}}}
	}
	return &plainLines{in: bufio.NewReader(in), out: out}
}

func (t *rawTerminal) readLine(prompt string) (string, error) {
	old, err := term.MakeRaw(t.fd)
	if err != nil {
		return "", fmt.Errorf("terminal: %w", err)
	}
	line, err := t.ed.readLine(prompt)
	if rerr := term.Restore(t.fd, old); rerr != nil && err == nil {
		err = fmt.Errorf("terminal: %w", rerr)
	}
	if err == nil {
		t.all = append(t.all, line)
	}
	return line, err
}

func (t *rawTerminal) lines() []string { return t.all }

// plainLines reads lines from a reader that is not a terminal.
type plainLines struct {
	in  *bufio.Reader
	out io.Writer
	all []string
}

func (p *plainLines) readLine(prompt string) (string, error) {
	line, err := p.in.ReadString('\n')
	if err != nil && (err != io.EOF || line == "") {
		return "", err
	}
	line = strings.TrimRight(line, "\r\n")
	fmt.Fprintf(p.out, "%s%s\n", prompt, line)
	p.all = append(p.all, line)
	return line, nil
}

func (p *plainLines) lines() []string { return p.all }
