package monitor_test

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/henceforth-go/henceforth/monitor"
)

// positions returns the atoms that hold at each position of t, sorted, so
// traces whose vocabularies are ordered differently compare equal.
func positions(t *monitor.Trace) [][]string {
	out := make([][]string, t.Len())
	for i := range out {
		out[i] = slices.Sorted(slices.Values(t.At(i)))
		if out[i] == nil {
			out[i] = []string{}
		}
	}
	return out
}

func read(t *testing.T, format monitor.TraceFormat, src string) *monitor.Trace {
	t.Helper()
	tr, err := monitor.ReadTraceFormat(strings.NewReader(src), "t", format)
	require.NoError(t, err)
	return tr
}

func TestReadTraceJSONL(t *testing.T) {
	src := "[\"req\",\"busy\"]\n" +
		"\n" + // blank lines are not events
		"  {\"req\": false, \"ack\": true}  \r\n" +
		"[]\n" +
		"{}\n" +
		"{\"idle\":false}\n" +
		"[\"balance >= 0\", \"a.b\"]" // no final newline
	for _, format := range []monitor.TraceFormat{monitor.FormatAuto, monitor.FormatJSONL} {
		tr := read(t, format, src)
		assert.Equal(t, [][]string{{"busy", "req"}, {"ack"}, {}, {}, {}, {"a.b", "balance >= 0"}}, positions(tr), format)
		// Atoms mapped to false join the vocabulary.
		assert.ElementsMatch(t, []string{"req", "busy", "ack", "idle", "balance >= 0", "a.b"}, tr.Atoms(), format)
	}
}

func TestReadTraceCSV(t *testing.T) {
	src := "\n" +
		"req, busy ,\"x,y\"\n" +
		"1,0,true\n" +
		"\n" +
		" 0 , TRUE ,False\r\n" +
		"   \n" +
		"0,0,0"
	for _, format := range []monitor.TraceFormat{monitor.FormatAuto, monitor.FormatCSV} {
		tr := read(t, format, src)
		assert.Equal(t, []string{"req", "busy", "x,y"}, tr.Atoms(), format)
		assert.Equal(t, [][]string{{"req", "x,y"}, {"busy"}, {}}, positions(tr), format)
	}
	// A header and no rows: the empty trace over the header's atoms.
	tr := read(t, monitor.FormatAuto, "p,q\n")
	assert.Equal(t, 0, tr.Len())
	assert.Equal(t, []string{"p", "q"}, tr.Atoms())
}

func TestReadTraceEmptyInput(t *testing.T) {
	for _, src := range []string{"", "\n\n", " \t\r\n ", "\ufeff"} {
		for _, format := range []monitor.TraceFormat{monitor.FormatAuto, monitor.FormatJSONL, monitor.FormatCSV} {
			tr := read(t, format, src)
			assert.Equal(t, 0, tr.Len(), "%q as %v", src, format)
		}
	}
}

func TestReadTraceExplicitFormat(t *testing.T) {
	// Forcing JSON Lines on CSV content is an error at line 1, not a trace.
	_, err := monitor.ReadTraceFormat(strings.NewReader("p,q\n1,0\n"), "x.csv", monitor.FormatJSONL)
	assert.EqualError(t, err, "x.csv:1:1: an event is a JSON array of atom names or an object of booleans, not p")
	// Forcing CSV on JSON content reads a header named `["p"]`, then fails.
	_, err = monitor.ReadTraceFormat(strings.NewReader("[\"p\"]\n[]\n"), "x.jsonl", monitor.FormatCSV)
	assert.Error(t, err)
}

func TestReadTraceErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		// JSON Lines.
		{"[\"a\"]\n[\"a\"", "f:2:5: expected ',' or ']' after an atom name, found the end of the line"},
		{"[\"a\"]\n[\"a", "f:2:2: unterminated string"},
		{"[1]", "f:1:2: atom list holds 1; want atom names in double quotes"},
		{"[\"a\", null]", "f:1:7: atom list holds null; want atom names in double quotes"},
		{"[[\"a\"]]", "f:1:2: atom list holds an array; want atom names in double quotes"},
		{"[\"a\", \"a\"]", "f:1:7: atom \"a\" appears twice in one event"},
		{"[\"a\", \"\\u0061\"]", "f:1:7: atom \"a\" appears twice in one event"},
		{"[\"\"]", "f:1:2: empty atom name"},
		{"[\"a\\x\"]", "f:1:2: invalid JSON string: invalid character 'x' in string escape code"},
		{"[\"a\xff\"]", "f:1:2: atom name is not valid UTF-8"},
		{"[\"a\",]", "f:1:6: atom list holds ']'; want atom names in double quotes"},
		{"[\"a\" \"b\"]", "f:1:6: expected ',' or ']' after an atom name, found \"b\""},
		{"{\"a\":1}", "f:1:6: value of atom \"a\" is 1; want true or false"},
		{"{\"a\":\"true\"}", "f:1:6: value of atom \"a\" is \"true\"; want true or false"},
		{"{\"a\":truex}", "f:1:6: value of atom \"a\" is truex; want true or false"},
		{"{\"a\":{}}", "f:1:6: value of atom \"a\" is an object; want true or false"},
		{"{\"a\":}", "f:1:6: value of atom \"a\" is '}'; want true or false"},
		{"{\"a\" true}", "f:1:6: expected ':' after atom name \"a\", found true"},
		{"{a:true}", "f:1:2: expected an atom name in double quotes, found a"},
		{"{\"a\":true \"b\":true}", "f:1:11: expected ',' or '}' after the value of atom \"a\", found \"b\""},
		{"{\"a\":true, \"a\":false}", "f:1:12: atom \"a\" appears twice in one event"},
		{"{\"a\":true", "f:1:10: expected ',' or '}' after the value of atom \"a\", found the end of the line"},
		{"[\"a\"] x", "f:1:7: unexpected text after the event (one event per line)"},
		{"[\"a\"][\"b\"]", "f:1:6: unexpected text after the event (one event per line)"},
		{"[]\n\n\"a\"\n", "f:3:1: an event is a JSON array of atom names or an object of booleans, not \"a\""},
		{"[]\ntrue", "f:2:1: an event is a JSON array of atom names or an object of booleans, not true"},
		{"\n\n  [\"a\",\n[\"b\"]", "f:3:8: atom list holds the end of the line; want atom names in double quotes"},
		// CSV.
		{"a,b\n1,0\n1\n", "f:3: row has 1 cell; the header names 2 atoms"},
		{"a,b\n1,0,1\n", "f:2: row has 3 cells; the header names 2 atoms"},
		{"a,b\n1,0\n1,x\n", "f:3:3: value of atom \"b\" is \"x\"; want 0, 1, true or false"},
		{"a,b\n1,yes\n", "f:2:3: value of atom \"b\" is \"yes\"; want 0, 1, true or false"},
		{"a,b\n1,\n", "f:2:3: value of atom \"b\" is \"\"; want 0, 1, true or false"},
		{"\n\na, b, a\n", "f:3:7: atom \"a\" is named twice in the header (columns 1 and 3)"},
		{"a,,b\n", "f:1:3: empty atom name in header column 2"},
		{"a,\xc4\n", "f:1:3: atom name in header column 2 is not valid UTF-8"},
		{"a,\"b\n1,0\n", "f:2:5: invalid CSV: extraneous or missing \" in quoted-field (in the record that starts on line 1)"},
		{"a,b\"c\n", "f:1:4: invalid CSV: bare \" in non-quoted-field"},
	}
	for _, tt := range tests {
		tr, err := monitor.ReadTrace(strings.NewReader(tt.src), "f")
		if assert.EqualError(t, err, tt.want, "input %q", tt.src) {
			assert.Nil(t, tr)
			var te *monitor.TraceError
			require.True(t, errors.As(err, &te))
			assert.Equal(t, "f", te.Name)
		}
	}
}

func TestReadTraceIOError(t *testing.T) {
	boom := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader("[\"a\"]\n[\"b\"]\n"), iotest.ErrReader(boom))
	_, err := monitor.ReadTrace(r, "f")
	assert.ErrorIs(t, err, boom)
	assert.EqualError(t, err, "f:3: disk on fire")

	r = io.MultiReader(strings.NewReader("a\n1\n"), iotest.ErrReader(boom))
	_, err = monitor.ReadTrace(r, "f")
	assert.ErrorIs(t, err, boom)
}

func TestWriteTraceRoundTrip(t *testing.T) {
	tr := monitor.NewTrace("req", "busy", "never", "x,y", "say \"hi\"", "multi\nline")
	tr.Append("req", "x,y")
	tr.Append()
	tr.Append("busy", "say \"hi\"", "multi\nline")
	tr.Append("req", "busy")

	var b bytes.Buffer
	require.NoError(t, monitor.WriteTrace(&b, tr, monitor.FormatJSONL))
	assert.Equal(t, "[\"req\",\"x,y\"]\n[]\n[\"busy\",\"say \\\"hi\\\"\",\"multi\\nline\"]\n[\"req\",\"busy\"]\n", b.String())
	back, err := monitor.ReadTrace(&b, "rt")
	require.NoError(t, err)
	assert.Equal(t, positions(tr), positions(back))

	b.Reset()
	require.NoError(t, monitor.WriteTrace(&b, tr, monitor.FormatCSV))
	assert.Equal(t, "req,busy,never,\"x,y\",\"say \"\"hi\"\"\",\"multi\nline\"\n1,0,0,1,0,0\n0,0,0,0,0,0\n0,1,0,0,1,1\n1,1,0,0,0,0\n", b.String())
	back, err = monitor.ReadTrace(&b, "rt")
	require.NoError(t, err)
	assert.Equal(t, positions(tr), positions(back))
	assert.Equal(t, tr.Atoms(), back.Atoms(), "CSV keeps the whole vocabulary")
}

func TestWriteTraceCSVLimits(t *testing.T) {
	tr := monitor.NewTrace()
	tr.Append()
	var b bytes.Buffer
	assert.EqualError(t, monitor.WriteTrace(&b, tr, monitor.FormatCSV), "monitor: a CSV trace needs at least one atom in its header; use JSON Lines")
	require.NoError(t, monitor.WriteTrace(&b, tr, monitor.FormatJSONL))
	assert.Equal(t, "[]\n", b.String())

	for _, bad := range []string{" a", "a ", "a\rb", "", "\xff"} {
		tr := monitor.NewTrace(bad)
		assert.ErrorContains(t, monitor.WriteTrace(io.Discard, tr, monitor.FormatCSV), "cannot be a CSV column name", "%q", bad)
	}
}

func TestParseTraceFormat(t *testing.T) {
	for _, f := range []monitor.TraceFormat{monitor.FormatAuto, monitor.FormatJSONL, monitor.FormatCSV} {
		got, ok := monitor.ParseTraceFormat(f.String())
		assert.True(t, ok)
		assert.Equal(t, f, got)
	}
	_, ok := monitor.ParseTraceFormat("xml")
	assert.False(t, ok)
}

// FuzzReadTrace: reading never panics; every failure is a positioned
// *TraceError; whatever reads successfully writes back (in the format it
// was read in, unless that format cannot carry it) and reads back to the
// same positions.
func FuzzReadTrace(f *testing.F) {
	for _, seed := range []string{
		"[\"req\",\"busy\"]\n{\"req\":true,\"busy\":false}\n[]\n",
		"req,busy\n1,0\ntrue,false\n",
		"\n\n{\"a\":true}\n\n",
		"a,\"b,c\"\n0,1\n",
		"[\"a\"] x\n",
		"{\"a\":1}",
		"a,a\n",
		"\ufeff[\"x\"]",
		"a,\xc4\n1,0\n",
		"[\"\xc4\"]\n",
		"\ufeff\ufeff\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []monitor.TraceFormat{monitor.FormatAuto, monitor.FormatJSONL, monitor.FormatCSV} {
			tr, err := monitor.ReadTraceFormat(bytes.NewReader(data), "fuzz", format)
			if err != nil {
				var te *monitor.TraceError
				require.True(t, errors.As(err, &te), "%v", err)
				require.GreaterOrEqual(t, te.Line, 1)
				require.True(t, strings.HasPrefix(err.Error(), "fuzz:"), "%v", err)
				require.Nil(t, tr)
				continue
			}
			out := format
			if out == monitor.FormatAuto {
				out = monitor.FormatJSONL
			}
			var b bytes.Buffer
			if err := monitor.WriteTrace(&b, tr, out); err != nil {
				// JSON Lines carries every name the readers accept.
				require.Equal(t, monitor.FormatCSV, out, "%v", err)
				require.ErrorContains(t, err, "use JSON Lines")
				continue
			}
			back, err := monitor.ReadTraceFormat(&b, "again", out)
			require.NoError(t, err, "%q", b.String())
			require.Equal(t, positions(tr), positions(back))
			if out == monitor.FormatCSV {
				require.Equal(t, tr.Atoms(), back.Atoms())
			}
		}
	})
}
