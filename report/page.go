package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

//go:embed report.html
var pageTemplate []byte

// dataMarker is where WriteHTML puts the page's JSON in the template.
var dataMarker = []byte("/*DATA*/null")

// Page is the content of one report: what failed, with everything needed
// to look at it. Its fields are encoded as the page's JSON data; the zero
// Page is an empty report.
type Page struct {
	Title string `json:"title"`
	// Summary lines are shown under the title ("entry: …", "explored: …").
	Summary  []string   `json:"summary,omitempty"`
	Findings []*Finding `json:"findings,omitempty"`
	Verdicts []*Verdict `json:"verdicts,omitempty"`
	// Sources holds the source lines the page quotes: file → line → text.
	Sources map[string]map[int]string `json:"sources,omitempty"`
}

// WriteHTML writes p as a self-contained HTML page.
func (p *Page) WriteHTML(w io.Writer) error {
	data, err := json.Marshal(p) // escapes <, > and &: the data cannot close its script element
	if err != nil {
		return fmt.Errorf("report: encoding the page: %w", err)
	}
	i := bytes.Index(pageTemplate, dataMarker)
	if i < 0 {
		return fmt.Errorf("report: the page template has no data marker")
	}
	for _, part := range [][]byte{pageTemplate[:i], data, pageTemplate[i+len(dataMarker):]} {
		if _, err := w.Write(part); err != nil {
			return err
		}
	}
	return nil
}

// WriteFile writes p to path, creating the directory if needed.
func WriteFile(path string, p *Page) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("report: %w", err)
		}
	}
	var b bytes.Buffer
	if err := p.WriteHTML(&b); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// FileName turns a name (a test name, a formula) into a file name ending
// in .html: characters other than letters, digits, '.', '_' and '-'
// become '_', and long names are cut.
func FileName(name string) string {
	s := strings.Trim(unsafeName.ReplaceAllString(name, "_"), "_.")
	if len(s) > 100 {
		s = s[:100]
	}
	if s == "" {
		s = "report"
	}
	return s + ".html"
}

// sources collects the source lines a page quotes.
type sources struct {
	files map[string][]string // nil entry: unreadable
	lines map[string]map[int]string
}

// contextLines is how many lines around a quoted line the page shows.
const contextLines = 2

// add quotes line of file with its context; an unreadable file is
// skipped (the page then shows only file:line).
func (s *sources) add(file string, line int) {
	if file == "" || line <= 0 {
		return
	}
	if s.files == nil {
		s.files = map[string][]string{}
		s.lines = map[string]map[int]string{}
	}
	text, ok := s.files[file]
	if !ok {
		if b, err := os.ReadFile(file); err == nil {
			text = strings.Split(string(b), "\n")
		}
		s.files[file] = text
	}
	if text == nil {
		return
	}
	m := s.lines[file]
	if m == nil {
		m = map[int]string{}
		s.lines[file] = m
	}
	for l := max(line-contextLines, 1); l <= min(line+contextLines, len(text)); l++ {
		m[l] = text[l-1]
	}
}

// into merges the quoted lines into p.Sources.
func (s *sources) into(p *Page) {
	for file, m := range s.lines {
		if p.Sources == nil {
			p.Sources = map[string]map[int]string{}
		}
		dst := p.Sources[file]
		if dst == nil {
			dst = map[int]string{}
			p.Sources[file] = dst
		}
		for l, t := range m {
			dst[l] = t
		}
	}
}
