package ltltest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/henceforth-go/henceforth/explore"
	"github.com/henceforth-go/henceforth/ltl"
	"github.com/henceforth-go/henceforth/monitor"
	"github.com/henceforth-go/henceforth/report"
)

// This file writes the HTML report of a failure (package report) into the
// test's artifact directory (testing.T.ArtifactDir): go test -artifacts
// keeps it under the output directory; without the flag it lives in a
// temporary directory until the test ends. The failure text names the
// file. A TestingT without ArtifactDir gets no report.

// artifactLine writes p as name.html into t's artifact directory and
// returns the line that names it in the failure ("" when t has no
// artifact directory).
func artifactLine(t TestingT, name string, p *report.Page) string {
	a, ok := t.(interface{ ArtifactDir() string })
	if !ok {
		return ""
	}
	path, err := writeArtifact(a.ArtifactDir(), name, p)
	if err != nil {
		return "report: not written: " + err.Error()
	}
	if f := flag.Lookup("test.artifacts"); f == nil || f.Value.String() != "true" {
		return "report: " + path + " (removed when the test ends; go test -artifacts keeps it)"
	}
	return "report: " + path
}

// hasArtifactDir reports whether t has an artifact directory (a
// *testing.T does), so that a report is worth building.
func hasArtifactDir(t TestingT) bool {
	_, ok := t.(interface{ ArtifactDir() string })
	return ok
}

// writeArtifact writes p into dir under a file name made from name, not
// overwriting the report of an earlier failure of the same test.
func writeArtifact(dir, name string, p *report.Page) (string, error) {
	base := strings.TrimSuffix(report.FileName(name), ".html")
	for i := 1; ; i++ {
		file := base + ".html"
		if i > 1 {
			file = fmt.Sprintf("%s-%d.html", base, i)
		}
		path := filepath.Join(dir, file)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		werr := p.WriteHTML(f)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		return path, werr
	}
}

// verdictReport is the report line of a failed verdict of f on tr.
func verdictReport(t TestingT, title string, f ltl.Formula, tr *monitor.Trace, res monitor.Result, sem ltl.Semantics) string {
	if !hasArtifactDir(t) {
		return ""
	}
	p := &report.Page{Title: title, Verdicts: []*report.Verdict{report.FromCheck(context.Background(), f, tr, res, sem)}}
	if test := testName(t); test != "" {
		p.Summary = []string{"test: " + test}
	}
	return artifactLine(t, "ltl", p)
}

// exploreReport is the report line of a failed exploration.
func exploreReport(t TestingT, r *explore.Report, replayed bool) string {
	if !hasArtifactDir(t) {
		return ""
	}
	test := testName(t)
	p := report.FromExplore(r, func(f *explore.Finding) string {
		if test == "" || replayed {
			return ""
		}
		return fmt.Sprintf("go test -run '%s' -%s=%s", runPattern(test), ReplayFlag, f.Replay)
	})
	return artifactLine(t, "explore", p)
}

// searchReport is the report line of a failed scenario search: the
// witness's interleaving, or the search's outcome when there is none.
func searchReport(t TestingT, entry, formula string, res *explore.FindResult) string {
	if !hasArtifactDir(t) {
		return ""
	}
	var p *report.Page
	if res.Witness != nil {
		p = report.FromWitness(res.Witness)
	} else {
		p = &report.Page{Title: entry + ": no witness of " + formula, Summary: strings.Split(searchDetails(entry, formula, res), "\n")}
	}
	return artifactLine(t, "find", p)
}

// withLine appends line (when not empty) to details.
func withLine(details, line string) string {
	if line == "" {
		return details
	}
	return strings.TrimRight(details, "\n") + "\n" + line
}
