package explore

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/explore/testdata/formats"
)

// TestFormatMatchesFmt runs formats.Lines under the explorer (fmt is
// modelled) and natively (the real fmt), and compares line by line.
func TestFormatMatchesFmt(t *testing.T) {
	r := runFunc(t, "formats", "Check", Options{})
	require.Len(t, r.Findings, 1)
	f := r.Findings[0]
	require.Equal(t, KindTestFailure, f.Kind, "%s", f)
	_, msg, _ := strings.Cut(f.Message, ": ") // drop "formats.go:NN: "
	got := strings.Split(msg, "\n")
	want := formats.Lines()
	require.Len(t, got, len(strings.Split(strings.Join(want, "\n"), "\n")))
	require.Equal(t, strings.Join(want, "\n"), strings.Join(got, "\n"))
}
